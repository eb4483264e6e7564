"""Home Assistant's device-based discovery of a table: what the one message holds, what its
templates read from a real game's public state, and when the referee publishes it."""

from __future__ import annotations

import json
import logging
import random

import jinja2
from local_table import NAMES8, LocalPort

from companion import __version__
from companion.bots.table_bot import TableBot
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
    expected = {"phase", "round", "godfather"} | {
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


def templates(cmps: dict) -> dict:
    """Each sensor's template compiled as Home Assistant's Jinja does; rendered with
    `value_json`, the payload's JSON."""
    env = jinja2.Environment()
    return {key: env.from_string(c["value_template"]) for key, c in cmps.items()
            if "value_template" in c}


def seat_expected(row: dict | None) -> dict[str, str]:
    """What each seat sensor should read, from the public state's row (API.md)."""
    if row is None:
        return dict.fromkeys(("player", "wounds", "loot", "standing"), "None")
    kind = (row["standee"] or {}).get("kind")
    standing = "out" if not row["alive"] else "lying" if kind in ("down", "stand_up") \
        else "standing"
    return {"player": row["name"], "wounds": str(row["wounds"]),
            "loot": str(row["loot_count"]), "standing": standing}


def test_the_sensors_read_each_seat_of_a_real_game():
    port = LocalPort()
    bot = TableBot(port, random.Random(5))
    bot.new_game(NAMES8[:5], powers="none", seed=5)
    tpl = templates(device_discovery(Topics("test"))["cmps"])
    seen: set[str] = set()
    state, version = port.table.public_state(), None
    def shown() -> bool:  # far enough to show what each sensor is for
        return {"wounds=1", "standing=None", "standing=standing", "standing=lying"} <= seen \
            and any(s.startswith("loot=") and s not in ("loot=0", "loot=None") for s in seen)

    while not shown():
        assert not state["over"], f"the game ended before showing every sensor: {seen}"
        if state["version"] != version:  # a change HA would hear
            version = state["version"]
            assert tpl["phase"].render(value_json=state) == str(state["phase"])
            assert tpl["round"].render(value_json=state) == str(state["round"])
            assert tpl["godfather"].render(value_json=state) == state["godfather"]
            rows = {p["seat"]: p for p in state["players"]}
            for seat in range(1, 9):
                for what, value in seat_expected(rows.get(seat)).items():
                    assert tpl[f"seat{seat}_{what}"].render(value_json=state) == value
                    seen.add(f"{what}={value}")
        bot.step(port.control())
        state = port.table.public_state()


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
        first = observe(mosquitto.port, device)
        config = json.loads(first.expect(device, retained=True))
        assert config == json.loads(json.dumps(device_discovery(topics)))
        late = observe(mosquitto.port, f"{prefix}/#")  # a new subscriber: what is retained
        late.expect(device, retained=True)
        with caplog.at_level(logging.WARNING):
            old.publish(f"{prefix}/status", b"starting")  # not a birth: ignored, said
            old.publish(f"{prefix}/status", b"online")  # Home Assistant is back
            again = first.expect(device, retained=False)
        assert json.loads(again) == config
        assert [m for m in late.drain() if m[0] == seat_config and m[1]] == []  # cleared
        assert any("neither online nor offline" in r.getMessage() for r in caplog.records)
        assert first.drain() == []  # the junk birth published nothing
    finally:
        bus.stop()
        old.stop()
