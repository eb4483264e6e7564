"""The table's broker (Mosquitto, the companion's child): loopback only, restarted when it
dies with its retained facts, the bridge's will, and the bridge obeying only the `sim` user."""

import json
import os
import queue
import signal
import subprocess
import sys

import pytest
from brokerkit import BASE, TABLE, Peer  # tests/bus/brokerkit.py
from waiting import wait_for

from companion import config
from companion.bus.broker import EmbeddedBroker
from companion.bus.client import BusClient
from companion.bus.settings import MqttSettings
from companion.runner import start_sensors


def listening_addresses(port: int) -> set[str]:
    """Local addresses of TCP sockets listening on `port`, from /proc/net/tcp."""
    found = set()
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            addr, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(".".join(str(int(addr[i:i + 2], 16)) for i in (6, 4, 2, 0)))
    return found


def settings(broker: EmbeddedBroker) -> MqttSettings:
    return MqttSettings(port=broker.port, state_dir=broker.state_dir, qos=1)


def test_it_listens_on_loopback_only(table_broker):
    assert listening_addresses(table_broker.port) == {"127.0.0.1"}


def test_companion_clients_carry_retained_messages_with_their_own_users(table_broker):
    pub = BusClient(settings(table_broker), "emb-pub", f"{BASE}/status", user="sensors").start()
    got: queue.Queue[bytes] = queue.Queue()
    sub = BusClient(settings(table_broker), "emb-sub", user="referee")
    try:
        pub.publish(f"{BASE}/gun/1/aim", '{"x": 1}', retain=True).wait_for_publish(5)
        sub.subscribe(f"{BASE}/gun/#", lambda t, p: got.put(p))
        sub.start()
        assert got.get(timeout=5) == b'{"x": 1}'
        pub.publish(f"{BASE}/gun/1/aim", "hi")
        assert got.get(timeout=5) == b"hi"
    finally:
        sub.stop()
        pub.stop()


def test_a_port_in_use_is_a_clear_error(table_broker, tmp_path):
    with pytest.raises(RuntimeError, match=f"cannot listen on 127.0.0.1:{table_broker.port}"):
        EmbeddedBroker(port=table_broker.port, state_dir=tmp_path / "other").start()


def test_a_killed_broker_is_restarted_with_its_retained_facts_and_clients_reconnect(
        table_broker, caplog):
    sensors = BusClient(settings(table_broker), "persist-pub", f"{BASE}/status",
                        user="sensors").start()
    assert sensors.connected.is_set()
    sensors.publish(f"{BASE}/standee/3/posture", "down", retain=True).wait_for_publish(5)
    db = table_broker.state_dir / "mosquitto.db"  # written whole, then renamed into place
    wait_for(lambda: db.exists() and f"{BASE}/standee/3/posture".encode() in db.read_bytes(),
             10, "the broker's autosave to hold the retained posture")
    first = table_broker.process
    os.kill(first.pid, signal.SIGKILL)
    wait_for(lambda: table_broker.restarts == 1 and table_broker.process is not first, 15,
             "the supervisor to restart the broker")
    back = f"the MQTT broker is back (pid {table_broker.process.pid})"  # (said just after)
    wait_for(lambda: back in caplog.text, 5, "the supervisor to say the broker is back")
    try:
        viewer = Peer(table_broker.port, "viewer", table_broker.credentials["viewer"],
                      subscribe=f"{BASE}/standee/#")
        assert viewer.take() == (f"{BASE}/standee/3/posture", b"down", True)
        viewer.close()
        wait_for(lambda: sensors.connects >= 2, 15, "the client to reconnect")
    finally:
        sensors.stop()


def test_the_bridges_last_will_fires_when_companion_sensors_is_killed(table_broker, tmp_path):
    """`companion sensors` on the table's broker, its user read from the generated file, as a
    Pi's bridge runs against the system's Mosquitto; kill -9: the broker says `offline`."""
    path = tmp_path / "table.yaml"
    path.write_text(f"""table: {TABLE}
mqtt: {{url: 'mqtt://127.0.0.1:{table_broker.port}',
        credentials: '{table_broker.state_dir / "credentials.json"}'}}
sensors:
  sim: {{guns: [1, 2], hand: {{ideal: true}}, link_dir: '{tmp_path / "links"}'}}
""")
    viewer = Peer(table_broker.port, "viewer", table_broker.credentials["viewer"],
                  subscribe=f"{BASE}/status")
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "sensors", "--config",
                             str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while viewer.take(timeout=20)[1] != b"online":
            pass
        proc.kill()
        proc.wait(10)
        assert viewer.take(timeout=30)[1:] == (b"offline", False)
    finally:
        proc.kill()
        proc.wait(10)
        viewer.close()


def test_the_bridge_obeys_simulator_commands_from_the_sim_user_only(tmp_path, unused_port):
    cfg = config.parse(f"""table: {TABLE}
mqtt: {{embedded_port: {unused_port}, state_dir: '{tmp_path / "broker"}'}}
sensors:
  sim: {{guns: [1, 2, 3], hand: {{ideal: true}}, link_dir: '{tmp_path / "links"}'}}
""", "test.yaml")
    broker, bridge = start_sensors(cfg)
    creds = broker.credentials
    watch = Peer(unused_port, "viewer", creds["viewer"], subscribe=f"{BASE}/standee/#")
    try:
        for user, password in ((None, None), ("sim", "wrong"), ("viewer", creds["viewer"]),
                               ("referee", creds["referee"])):
            stranger = Peer(unused_port, user, password)
            stranger.publish(f"{BASE}/sim/command", "tip 1")
            stranger.close()
        Peer(unused_port, "sim", creds["sim"]).publish(f"{BASE}/sim/command", "tip 2")
        down = []
        while not down:
            topic, payload, _ = watch.take(timeout=10)
            if json.loads(payload)["posture"] == "down":
                down.append(topic)
        assert down == [f"{BASE}/standee/2/posture"]
        assert not any(json.loads(p)["posture"] == "down" for _, p, _ in watch.nothing(0.5))
    finally:
        watch.close()
        bridge.stop()
        broker.stop()
