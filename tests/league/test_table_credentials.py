"""Each table logs in to the venue with credentials of its own, minted by `companion league
credentials`: its password alone, never the league's (which writes under every table)."""

from __future__ import annotations

import json
import stat
import subprocess
import sys

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from waiting import wait_for


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, timeout=60, check=False)


def test_a_table_gets_its_own_password_and_nothing_else(tmp_path, venue):
    config = tmp_path / "league.yaml"
    config.write_text(f"mqtt: {{url: 'mqtt://127.0.0.1:{venue.port}'}}\n"
                      "league: {tables: [cafe-1, cafe-2, cafe-3]}\n")
    done = companion("league", "credentials", str(venue.folder), "--table", "cafe-2",
                     "--config", str(config))
    assert done.returncode == 0, done.stderr
    minted = venue.folder / "tables" / "cafe-2.json"
    assert json.loads(minted.read_text()) == {"cafe-2": venue.credentials["cafe-2"]}
    assert stat.S_IMODE(minted.stat().st_mode) == 0o600
    assert venue.credentials["league"] not in minted.read_text()

    # what it opens at the venue: its own topics, not another table's
    heard: list[str] = []
    league = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="t-league")
    league.username_pw_set("league", venue.credentials["league"])
    league.on_message = lambda _c, _u, m: heard.append(m.topic)
    league.on_connect = lambda c, *_: c.subscribe("cashnguns/+/league/result", qos=1)
    league.connect("127.0.0.1", venue.port)
    league.loop_start()
    table = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="t-cafe-2")
    table.username_pw_set("cafe-2", json.loads(minted.read_text())["cafe-2"])
    table.connect("127.0.0.1", venue.port)
    table.loop_start()
    try:
        wait_for(lambda: table.is_connected() and league.is_connected(), 10, "both to connect")
        table.publish("cashnguns/cafe-1/league/result", "{}", qos=1).wait_for_publish(5)
        table.publish("cashnguns/cafe-2/league/result", "{}", qos=1).wait_for_publish(5)
        wait_for(lambda: heard, 10, "the league to hear the table's own result")
    finally:
        for client in (table, league):
            client.loop_stop()
            client.disconnect()
    assert heard == ["cashnguns/cafe-2/league/result"]  # cafe-1's was never delivered


def test_a_table_not_in_the_league_is_refused_with_a_sentence(tmp_path, venue):
    config = tmp_path / "league.yaml"
    config.write_text("league: {tables: [cafe-1]}\n")
    done = companion("league", "credentials", str(venue.folder), "--table", "cafe-9",
                     "--config", str(config))
    assert done.returncode == 2
    assert "--table cafe-9: name one of the venue's tables (cafe-1)" in done.stderr


def test_a_wrong_organiser_pin_is_called_the_organiser_pin(venue, tmp_path):
    import urllib.error
    import urllib.request

    from venue import start_league

    running = start_league(venue, f"sqlite:///{tmp_path / 'l.sqlite3'}", ("cafe-1",))
    try:
        request = urllib.request.Request(f"{running.url}/api/login", data=b'{"pin": "0000"}',
                                         headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(request, timeout=10)
            raise AssertionError("a wrong PIN was taken")
        except urllib.error.HTTPError as refused:
            assert refused.code == 401
            assert json.loads(refused.read())["error"] == "wrong organiser PIN"
    finally:
        running.stop()
