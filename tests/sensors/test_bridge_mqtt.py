"""The whole bridge against real brokers, watched by an independent mosquitto_sub."""

import itertools
import json

import pytest

from companion import config
from companion.sensors import build_bridge

_tables = itertools.count(1)


def table_config(tmp_path, mqtt: str) -> config.Config:
    text = f"""
table: t{next(_tables)}
mqtt: {mqtt}
sensors:
  filters: {{debounce_ms: 10, aim_acquire_ms: 50, aim_release_ms: 100}}
  gpio:
    pin_factory: mock
    standees: [{{seat: 1, pin: 5}}, {{seat: 2, pin: 6}}]
    tilts: [{{seat: 1, pin: 20}}]
  sim:
    guns: [2, 3, 4]
    link_dir: {tmp_path}
"""
    return config.parse(text, "test.yaml")


@pytest.fixture
def bridge(tmp_path, mosquitto):
    b = build_bridge(table_config(tmp_path, f"{{url: '{mosquitto.url}'}}")).start()
    yield b
    b.stop()


@pytest.fixture
def watch(bridge, mosquitto, observe):
    """An observer of the bridge's topics, already subscribed and past the start-up burst."""
    obs = observe(mosquitto.port, bridge.topics.all)
    obs.expect(bridge.topics.status, lambda p: p == "online")
    for seat in (2, 3, 4):
        obs.expect(bridge.topics.availability(f"g{seat}"), lambda p: p == "online")
        obs.expect(bridge.topics.gun_aim(seat))
        obs.expect(bridge.topics.gun_raised(seat))
    return obs


def state(payload: str) -> dict:
    return json.loads(payload)


def test_a_standee_tipped_on_a_mock_pin_is_a_retained_posture(bridge, watch, mosquitto, observe):
    t = bridge.topics
    watch.expect(t.standee_posture(2), lambda p: state(p)["posture"] == "up")
    bridge.sim.tip(2)
    down = state(watch.expect(t.standee_posture(2), lambda p: state(p)["posture"] == "down"))
    assert down["seat"] == 2 and down["device"] == "gpio" and down["seq"] > 0
    late = observe(mosquitto.port, t.standee_posture(2))
    assert state(late.expect(t.standee_posture(2), retained=True))["posture"] == "down"


def test_a_simulated_gun_aims_and_is_raised(bridge, watch):
    t = bridge.topics
    bridge.sim.aim(3, 5)
    bridge.sim.raise_gun(3)
    aim = state(watch.expect(t.gun_aim(3), lambda p: state(p)["target"] == 5))
    raised = state(watch.expect(t.gun_raised(3), lambda p: state(p)["raised"]))
    assert aim["device"] == "g3" and raised["device"] == "g3"
    assert aim["t"] < raised["t"] or aim["seq"] > raised["seq"]  # stamped at first sight
    bridge.sim.raise_gun(1)  # this gun's tilt is on a Pi pin
    assert state(watch.expect(t.gun_raised(1), lambda p: state(p)["raised"]))["device"] == "gpio"


def test_an_unplugged_board_goes_offline_and_comes_back(bridge, watch):
    t = bridge.topics
    bridge.sim.unplug(4)
    assert watch.expect(t.availability("g4"), timeout=1.0) == "offline"
    info = state(watch.expect(t.device_info("g4"), lambda p: not state(p)["online"]))
    assert info["reason"] == "unplugged"
    bridge.sim.replug(4)
    assert watch.expect(t.availability("g4"), timeout=3.0) == "online"


def test_ten_thousand_garbage_lines_publish_nothing(bridge, watch, poll_until):
    link = next(li for li in bridge.links if li.settings.board_id == "g2")
    board = bridge.sim.board(2)
    start_seq = bridge.publisher.seq
    before = link.dropped_total()
    for batch in range(100):
        bridge.sim.noise(2, 100)
        poll_until(lambda n=batch: link.dropped_total() - before >= 100 * (n + 1) -
                   board.overflows, what="garbage read")
    bridge.sim.raise_gun(2)
    marker = watch.expect(bridge.topics.gun_raised(2), lambda p: state(p)["raised"])
    facts = [state(p) for topic, p, _ in watch.drain() if "/gun/" in topic or "/standee/" in topic]
    assert [f for f in facts if f["seq"] > start_seq] == []
    assert state(marker)["seq"] > start_seq
    assert link.online and board.overflows == 0


def test_simulator_commands_over_mqtt(bridge, watch):
    t = bridge.topics
    bridge.bus.publish(t.sim_command, "aim nine")  # refused, logged, nothing changes
    bridge.bus.publish(t.sim_command, "aim 2 6")
    assert state(watch.expect(t.gun_aim(2), lambda p: state(p)["target"] is not None))[
        "target"] == 6


def test_a_clean_stop_says_offline(tmp_path, mosquitto, observe):
    bridge = build_bridge(table_config(tmp_path, f"{{url: '{mosquitto.url}'}}")).start()
    obs = observe(mosquitto.port, bridge.topics.all)
    obs.expect(bridge.topics.status, lambda p: p == "online")
    bridge.stop()
    assert obs.expect(bridge.topics.status, lambda p: p == "offline") == "offline"
    assert obs.expect(bridge.topics.availability("gpio"), lambda p: p == "offline")


def test_with_no_broker_configured_an_embedded_one_serves(tmp_path, observe, unused_port):
    bridge = build_bridge(table_config(tmp_path, f"{{embedded_port: {unused_port}}}")).start()
    try:
        obs = observe(unused_port, bridge.topics.all)
        obs.expect(bridge.topics.status, lambda p: p == "online")
        bridge.sim.tip(1)
        posture = bridge.topics.standee_posture(1)
        assert state(obs.expect(posture, lambda p: state(p)["posture"] == "down"))["seat"] == 1
    finally:
        bridge.stop()
