"""Only the table's own clients: who may publish and read what on the broker the companion
starts (a real Mosquitto child, its generated passwords and ACLs)."""

from __future__ import annotations

import json
import stat

import pytest
from brokerkit import BASE, TABLE, Peer  # tests/bus/brokerkit.py

from companion.bus.broker import EmbeddedBroker, acl_text

AIM = f"{BASE}/gun/2/aim"
SIM = f"{BASE}/sim/command"
FACT = json.dumps({"seat": 2, "target": 4, "t": 1.7e12, "seq": 1, "device": "hub"})


def test_the_files_are_the_owners_alone_and_the_passwords_are_kept(table_broker, tmp_path):
    folder = table_broker.state_dir
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in ("credentials.json", "passwd", "acl", "mosquitto.conf"):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name
    first = table_broker.credentials
    assert set(first) == {"sensors", "referee", "sim", "viewer"}
    assert len(set(first.values())) == 4 and all(len(p) >= 24 for p in first.values())
    assert "allow_anonymous false" in (folder / "mosquitto.conf").read_text()
    table_broker.stop()
    again = EmbeddedBroker(table_broker.port, state_dir=folder, table=TABLE).start()
    try:
        assert again.credentials == first
    finally:
        again.stop()


@pytest.mark.parametrize("who", ["anonymous", "wrong password", "unknown user"])
def test_a_stranger_can_neither_connect_nor_publish_nor_read(table_broker, peer, who):
    user, password = {"anonymous": (None, None), "wrong password": ("sensors", "guess"),
                      "unknown user": ("admin", "admin")}[who]
    referee = peer("referee", subscribe=f"{BASE}/#")
    sensors = peer("sensors", subscribe=SIM)
    stranger = peer(user, password, subscribe=f"{BASE}/#")
    assert stranger.refused
    stranger.publish(AIM, FACT, retain=True)
    stranger.publish(SIM, "tip 4")
    assert referee.nothing() == [] and sensors.nothing(0.1) == []
    peer("sensors").publish(f"{BASE}/gun/1/aim", FACT)  # the real sensors still get through
    assert referee.take()[0] == f"{BASE}/gun/1/aim"
    assert stranger.messages.empty()


@pytest.mark.parametrize("user", ["referee", "viewer", "sim"])
def test_only_the_sensor_bridge_publishes_sensor_facts(peer, user):
    referee = peer("referee", subscribe=f"{BASE}/#")
    client = peer(user)
    assert not client.refused
    for topic in (AIM, f"{BASE}/standee/2/posture", f"{BASE}/status",
                  f"{BASE}/device/hub/availability", f"{BASE}/hub/seen"):
        client.publish(topic, FACT, retain=True)
    assert referee.nothing() == []


@pytest.mark.parametrize("user", ["sensors", "viewer", "sim"])
def test_only_the_referee_publishes_game_topics(peer, user):
    viewer = peer("viewer", subscribe=f"{BASE}/#")
    client = peer(user)
    for topic in (f"{BASE}/game/state", f"{BASE}/player/1/event", f"{BASE}/referee/status"):
        client.publish(topic, "{}", retain=True)
    assert viewer.nothing() == []
    peer("referee").publish(f"{BASE}/game/state", "{}")
    assert viewer.take()[0] == f"{BASE}/game/state"


@pytest.mark.parametrize("user", ["sensors", "referee", "viewer"])
def test_only_the_sim_user_commands_the_simulator(peer, user):
    bridge = peer("sensors", subscribe=SIM)
    peer(user).publish(SIM, "tip 4")
    assert bridge.nothing() == []
    peer("sim").publish(SIM, "tip 3")
    assert bridge.take()[1] == b"tip 3"


def test_a_real_table_has_no_simulator_commands(tmp_path, unused_port):
    broker = EmbeddedBroker(unused_port, state_dir=tmp_path / "b", table=TABLE,
                            simulated=False).start()
    try:
        creds = broker.credentials
        bridge = Peer(broker.port, "sensors", creds["sensors"], subscribe=SIM)
        sim = Peer(broker.port, "sim", creds["sim"])
        sim.publish(SIM, "tip 3")
        assert bridge.nothing() == []
        bridge.close()
        sim.close()
    finally:
        broker.stop()
    assert f"write {SIM}" not in acl_text(TABLE, simulated=False)


def test_a_viewer_receives_only_its_own_subscription_retained_included(peer):
    sensors = peer("sensors")
    for seat in (1, 2, 3):
        sensors.publish(f"{BASE}/gun/{seat}/aim", f"aim {seat}", retain=True)
    sensors.publish(f"{BASE}/status", "online", retain=True)
    peer("referee", subscribe=f"{BASE}/#")  # another client's wide subscription (amqtt leaked it)
    peer("viewer", subscribe="zzz/#")  # and another's elsewhere
    viewer = peer("viewer", subscribe=f"{BASE}/gun/1/aim")
    assert viewer.take() == (f"{BASE}/gun/1/aim", b"aim 1", True)
    sensors.publish(f"{BASE}/gun/2/aim", "live 2")
    sensors.publish(f"{BASE}/gun/1/aim", "live 1")
    assert viewer.take() == (f"{BASE}/gun/1/aim", b"live 1", False)
    assert viewer.nothing() == []


def test_a_viewer_reads_public_topics_but_not_the_simulators_commands(peer):
    viewer = peer("viewer", subscribe=f"{BASE}/#")
    peer("sim").publish(SIM, "tip 3")
    peer("sensors").publish(AIM, FACT)
    assert viewer.take()[0] == AIM  # public: what the sensors say
    assert viewer.nothing() == []  # the command went to the bridge only


def test_a_viewer_publishes_nothing_but_home_assistants_birth(peer):
    watcher = peer("referee", subscribe="#")
    bridge = peer("sensors", subscribe=SIM)
    viewer = peer("viewer")
    for topic in (AIM, SIM, f"{BASE}/game/state", "homeassistant/event/x/config",
                  "homeassistant/device/cashnguns_acl/config", "other/x"):
        viewer.publish(topic, "x", retain=True)
    assert [m for m in watcher.nothing() if m[1] == b"x"] == []
    assert bridge.nothing(0.1) == []
    viewer.publish("homeassistant/status", "online")  # Home Assistant logged in as viewer
    assert watcher.take() == ("homeassistant/status", b"online", False)
