"""Whole games on a fake clock through a real broker: simulated boards and pins, the sensor
bridge, Mosquitto, the referee, and the HTTP API, all in this process."""

from __future__ import annotations

import json
import random

import pytest
from broker_table import BrokerTable, client_request

from companion.bots.table_bot import TableBot
from companion.bus.topics import Topics

NAMES = ["Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.mark.parametrize("players", [4, 8])
def test_a_whole_game_on_a_fake_clock_through_mosquitto(tmp_path, mosquitto, unused_port,
                                                        observe, players):
    name = f"broker{players}"
    topics = Topics(name)
    watcher = observe(mosquitto.port, f"{topics.base}/game/#")
    live = BrokerTable.start(tmp_path, mosquitto.port, unused_port, players, name)
    table = live.table
    try:
        bot = TableBot(live.port(client_request(live.app)), random.Random(players))
        bot.new_game(NAMES[:players], powers="random", seed=players)
        final = bot.play()
    finally:
        live.stop()
    assert final["phase"] == "over"
    sensed = {a.type for a, s in zip(table.game.actions, table.game.sources, strict=True)
              if s == "sensor"}
    assert sensed == {"aim", "courage"}
    state = json.loads(watcher.expect(f"{topics.base}/game/state",
                                      lambda p: '"phase": "over"' in p, timeout=10))
    assert state["winners"] == final["winners"]
    assert '"hand":' not in json.dumps(state) and '"legal"' not in json.dumps(state)
