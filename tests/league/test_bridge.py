"""A table's own Mosquitto bridged to the venue's, both real: the public game and results go
up, acknowledgements and the roster come down, nothing else crosses, and the venue knows
when the table's link is gone. The venue's ACLs keep each table to its own topics."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from venue import Listener, free_port

from companion.bus import topics
from companion.bus.broker import EmbeddedBroker
from companion.bus.topics import Topics
from companion.league.bridge import bridge_conf
from companion.league.settings import Venue


def table_broker(tmp_path, venue, table: str) -> EmbeddedBroker:
    link = Venue("127.0.0.1", venue.port, password=venue.credentials[table])
    return EmbeddedBroker(free_port(), state_dir=tmp_path / table, table=table,
                          simulated=True, extra_conf=bridge_conf(table, link)).start()


def test_the_public_game_goes_up_acks_and_roster_come_down_and_nothing_else(tmp_path, venue):
    creds = venue.credentials
    at_venue = Listener(venue.port, "league", creds["league"], "cashnguns/#")
    table = table_broker(tmp_path, venue, "cafe-1")
    try:
        assert at_venue.expect(Topics("cafe-1").bridge_state, lambda p: p == b"1") == b"1"
        local = table.credentials
        referee = Listener(table.port, "referee", local["referee"], "cashnguns/#")
        sensors = Listener(table.port, "sensors", local["sensors"], "cashnguns/cafe-1/gun/#")
        base = "cashnguns/cafe-1"
        sensors.client.publish(f"{base}/gun/1/aim", '{"seat": 1}', qos=1).wait_for_publish(5)
        referee.client.publish(f"{base}/game/state", '{"game": 1}', qos=1,
                               retain=True).wait_for_publish(5)
        referee.client.publish(f"{base}/league/result", '{"uid": "x"}',
                               qos=1).wait_for_publish(5)
        referee.client.publish(f"{base}/game/event", '{"type": "shot"}',
                               qos=1).wait_for_publish(5)
        at_venue.expect(f"{base}/game/state")
        at_venue.expect(f"{base}/league/result")
        at_venue.expect(f"{base}/game/event")  # after the others: the bridge keeps order
        assert not any("/gun/" in t for t in at_venue.topics()), "a sensor topic went up"
        league = venue.client("league")
        league.publish(Topics("cafe-1").league_ack, '{"uid": "x", "status": "accepted"}', qos=1)
        league.publish(topics.ROSTER, '{"players": ["Ana"]}', qos=1, retain=True)
        assert json.loads(referee.expect(Topics("cafe-1").league_ack))["status"] == "accepted"
        assert json.loads(referee.expect(topics.ROSTER))["players"] == ["Ana"]
        referee.close()
        sensors.close()
    finally:
        table.stop()
    assert at_venue.expect(Topics("cafe-1").bridge_state, lambda p: p == b"0") == b"0"
    at_venue.close()


def test_a_table_can_write_under_its_own_id_only(venue):
    creds = venue.credentials
    at_venue = Listener(venue.port, "league", creds["league"], "cashnguns/+/league/result")
    cafe1 = venue.client("cafe-1")
    cafe1.publish(Topics("cafe-2").league_result, '{"forged": true}', qos=1).wait_for_publish(5)
    cafe1.publish(Topics("cafe-1").league_result, '{"own": true}', qos=1).wait_for_publish(5)
    at_venue.expect(Topics("cafe-1").league_result)
    assert Topics("cafe-2").league_result not in at_venue.topics()
    cafe1.loop_stop()
    at_venue.close()


def test_companion_league_bridge_prints_the_block_for_a_table(tmp_path, venue):
    (tmp_path / "creds.json").write_text(json.dumps(venue.credentials))
    config = tmp_path / "table.yaml"
    config.write_text(textwrap.dedent(f"""\
        table: cafe-2
        league:
          venue: mqtts://venue.example:8883
          credentials: {tmp_path / 'creds.json'}
          ca_file: /etc/league/ca.crt
        """))
    done = subprocess.run([sys.executable, "-m", "companion.cli", "league", "bridge",
                           "--config", str(config)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    block = done.stdout
    assert "address venue.example:8883" in block and "remote_username cafe-2" in block
    assert f"remote_password {venue.credentials['cafe-2']}" in block
    assert "bridge_cafile /etc/league/ca.crt" in block
    for topic in topics.UP:
        assert f"topic {topic} out 1 cashnguns/cafe-2/ cashnguns/cafe-2/" in block
    assert "gun/" not in block and "sim/" not in block and "player/" not in block
    config.write_text("table: cafe-9\nleague: {venue: shared}\n")
    done = subprocess.run([sys.executable, "-m", "companion.cli", "league", "bridge",
                           "--config", str(config)], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "shares the venue's broker" in done.stderr


def certificates(folder) -> tuple[str, str, str]:
    """A CA and a certificate it signed for 127.0.0.1: (ca, cert, key)."""
    folder.mkdir()

    def ssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
        "-days", "2", "-subj", "/CN=league test CA")
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "venue.key", "-out", "venue.csr",
        "-subj", "/CN=127.0.0.1")
    (folder / "ext").write_text("subjectAltName=IP:127.0.0.1\n")
    ssl("x509", "-req", "-in", "venue.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "venue.crt", "-days", "2", "-extfile", "ext")
    return str(folder / "ca.crt"), str(folder / "venue.crt"), str(folder / "venue.key")


def test_a_table_bridges_to_the_venue_over_tls(tmp_path):
    from companion.league.venue_broker import VenueBroker

    ca, cert, key = certificates(tmp_path / "tls")
    tls_port = free_port()
    venue = VenueBroker(free_port(), "127.0.0.1", tmp_path / "venue", ("cafe-1",), cert, key,
                        tls_port).start()
    creds = venue.credentials
    at_venue = Listener(venue.port, "league", creds["league"], "cashnguns/#")  # loopback
    link = Venue("127.0.0.1", tls_port, tls=True, password=creds["cafe-1"], ca_file=ca)
    table = EmbeddedBroker(free_port(), state_dir=tmp_path / "cafe-1", table="cafe-1",
                           extra_conf=bridge_conf("cafe-1", link)).start()
    try:
        assert at_venue.expect(Topics("cafe-1").bridge_state, lambda p: p == b"1") == b"1"
        referee = Listener(table.port, "referee", table.credentials["referee"], "x/never")
        referee.client.publish("cashnguns/cafe-1/game/state", '{"game": 2}', qos=1,
                               retain=True).wait_for_publish(5)
        assert at_venue.expect("cashnguns/cafe-1/game/state") == b'{"game": 2}'
        referee.close()
    finally:
        table.stop()
        at_venue.close()
        venue.stop()
