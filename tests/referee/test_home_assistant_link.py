"""Home Assistant's device-based discovery of a table: what the one message holds, what its
templates read from a real game's public state, and when the referee publishes it."""

from __future__ import annotations

import json
import logging

import jinja2
from ha_states import expected_values, game_states
from local_table import LocalPort

from companion import __version__
from companion.bus.client import BusClient
from companion.bus.homeassistant import PLAYER_EVENTS, STANDINGS, device_discovery
from companion.bus.topics import Topics
from companion.referee.mqtt_link import RefereeLink


def test_one_device_holds_every_entity_of_the_table():
    config = device_discovery(Topics("t"))
    assert set(config) >= {"dev", "o", "cmps"}
    assert config["o"] == {"name": "cashnguns-companion", "sw_version": __version__}
    assert config["dev"]["identifiers"] == ["cashnguns_t"] and config["dev"]["model"]
    assert config["availability_topic"] == "cashnguns/t/referee/status"
    cmps = config["cmps"]
    kinds = {key: c["p"] for key, c in cmps.items()}
    assert [k for k, p in kinds.items() if p == "event"] == [f"seat{n}" for n in range(1, 9)]
    expected = {"phase", "stage", "round", "godfather"} | {
        f"seat{n}_{what}" for n in range(1, 9) for what in ("player", "wounds", "loot",
                                                             "standing")}
    assert {k for k, p in kinds.items() if p == "sensor"} == expected
    uids = [c["unique_id"] for c in cmps.values()]
    assert len(set(uids)) == len(uids) == 8 + len(expected)
    assert all(uid.startswith("cashnguns_t_") for uid in uids)
    seat2 = cmps["seat2"]
    assert "object_id" not in seat2  # deprecated since HA 2025.10, gone in 2026.4
    assert seat2["default_entity_id"] == "event.cashnguns_t_seat2"
    assert seat2["state_topic"] == "cashnguns/t/player/2/event"
    assert seat2["event_types"] == list(PLAYER_EVENTS)
    assert cmps["seat3_standing"]["options"] == list(STANDINGS)
    assert all(c["state_topic"] == "cashnguns/t/game/state" for c in cmps.values()
               if c["p"] == "sensor")


def test_the_sensors_read_each_seat_of_a_real_game():
    tpl = templates(device_discovery(Topics("test"))["cmps"])
    for state in game_states():
        for key, value in expected_values(state).items():
            assert tpl[key].render(value_json=state) == value, key


def templates(cmps: dict) -> dict:
    """Each sensor's template compiled by Jinja, as Home Assistant's are (tests/referee/
    test_home_assistant_judges.py renders them with Home Assistant itself)."""
    env = jinja2.Environment()
    return {key: env.from_string(c["value_template"]) for key, c in cmps.items()
            if "value_template" in c}


def test_discovery_is_one_retained_message_sent_again_when_home_assistant_is_back(
        mosquitto, observe, caplog):
    topics, prefix = Topics("hadisc"), "ha_hadisc"
    seat_config = topics.discovery(2, prefix)  # as an earlier version left it, retained
    old = BusClient(mosquitto.settings, "hadisc-old").start()
    old.publish(seat_config, json.dumps({"name": "Seat 2"}), retain=True)
    bus = BusClient(mosquitto.settings, "hadisc-referee")
    link = RefereeLink(LocalPort().table, bus, topics, home_assistant=True,
                       discovery_prefix=prefix)
    link.start()
    bus.start()
    device = topics.device_discovery(prefix)
    try:
        # Subscribed while the referee connects, `first` gets the discovery either live or
        # as the retained copy, whichever the broker handles first; either says the referee
        # is connected and, its subscriptions sent before it, listening for the birth.
        first = observe(mosquitto.port, device)
        config = json.loads(first.expect(device))
        assert config == json.loads(json.dumps(device_discovery(topics)))
        with caplog.at_level(logging.WARNING):
            old.publish(f"{prefix}/status", b"starting")  # not a birth: ignored, said
            old.publish(f"{prefix}/status", b"online")  # Home Assistant is back
            again = first.expect(device, retained=False)
        assert json.loads(again) == config
        assert any("neither online nor offline" in r.getMessage() for r in caplog.records)
        # The republish is through the broker: a new subscriber gets what is retained, the
        # discovery once and no seat's old message; a live marker after it ends the batch.
        late = observe(mosquitto.port, f"{prefix}/#")
        late.expect(device, retained=True)
        old.publish(f"{prefix}/marker", b"end")
        late.expect(f"{prefix}/marker", retained=False)
        rest = late.drain()
        assert [m for m in rest if m[0] == device] == []  # one retained copy only
        assert [m for m in rest if m[0] == seat_config and m[1]] == []  # cleared
        assert first.drain() == []  # the junk birth published nothing
    finally:
        bus.stop()
        old.stop()
