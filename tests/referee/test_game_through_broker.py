"""Whole games on a fake clock through a real broker: simulated boards and pins, the sensor
bridge, Mosquitto, the referee, and the HTTP API, all in this process."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from phones import Phones
from remote_table import FAST, PIN, write_config

from companion.bots.table_bot import TableBot
from companion.bus.client import BusClient
from companion.bus.topics import Topics
from companion.clock import FakeClock
from companion.config import load
from companion.dashboard.app import create_app
from companion.referee.journal import Journal
from companion.referee.mqtt_link import RefereeLink
from companion.referee.table import Table
from companion.sensors import build_bridge

NAMES = ["Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"]
HEADERS = {"X-Table-Pin": PIN}


class BrokerPort:
    """Taps through Flask's test client; sensors through the simulator; time by hand."""

    def __init__(self, table: Table, bridge: Any, clock: FakeClock, client: Any) -> None:
        self.table, self.bridge, self.clock, self.client = table, bridge, clock, client
        self.phones = Phones(self.request, lambda game, seat: table.access.seat_token(seat, game),
                             HEADERS)

    def request(self, path: str, body: dict[str, Any] | None,
                headers: dict[str, str]) -> tuple[int, Any]:
        r = (self.client.get(path, headers=headers) if body is None
             else self.client.post(path, headers=headers, json=body))
        return r.status_code, r.get_json()

    def control(self) -> dict[str, Any]:
        return self.client.get("/api/control", headers=HEADERS).get_json()

    def legal(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        return self.phones.legal(state)

    def command(self, cmd: dict[str, Any]) -> dict[str, Any]:
        status, body = self.request("/api/command", cmd, self.phones.headers(cmd))
        assert status == 200, (cmd, body)
        return body

    def advance(self, ms: float) -> None:
        self.clock.advance(ms)
        self.bridge.scheduler.run_due()
        self.table.tick()

    def until(self, condition: Any, what: str, timeout: float = 10.0) -> None:
        """Move the fake clock in small steps until `condition` (real-time deadline)."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            self.advance(10)
            time.sleep(0.001)  # let the sensor and MQTT threads carry the fact along

    def reading(self, seat: int, kind: str) -> Any:
        return self.table.readings.now(seat, kind, self.clock.now_ms())

    def aim(self, seat: int, target: int | None) -> None:
        self.bridge.sim.raise_gun(seat, target is not None)
        self.bridge.sim.aim(seat, target)
        self.until(lambda: self.reading(seat, "aim") == target
                   and self.reading(seat, "raised") == (target is not None), f"gun {seat}")

    def posture(self, seat: int, down: bool) -> None:
        (self.bridge.sim.tip if down else self.bridge.sim.stand)(seat)
        want = "down" if down else "up"
        self.until(lambda: self.reading(seat, "posture") == want, f"standee {seat} {want}")

    def settle(self, state: dict[str, Any]) -> None:
        self.until(lambda: self.table.version != state["version"], "the referee to move on")


@pytest.mark.parametrize("players", [4, 8])
def test_a_whole_game_on_a_fake_clock_through_mosquitto(tmp_path, mosquitto, unused_port,
                                                        observe, players):
    name = f"broker{players}"
    config = load(write_config(tmp_path / "table.yaml", name, mosquitto.port, unused_port,
                               players, FAST))
    clock = FakeClock()
    bridge = build_bridge(config, clock=clock).start()
    table = Table(name, config["referee"], Journal(tmp_path / "journal.sqlite3"), clock,
                  simulator=bridge.sim)
    topics = Topics(name)
    bus = BusClient(config.mqtt, f"referee-{name}", f"{topics.base}/referee/status")
    RefereeLink(table, bus, topics).start()
    bus.start()
    watcher = observe(mosquitto.port, f"{topics.base}/game/#")
    app = create_app(table, config["dashboard"])
    try:
        bot = TableBot(BrokerPort(table, bridge, clock, app.test_client()),
                       random.Random(players))
        bot.new_game(NAMES[:players], powers="random", seed=players)
        final = bot.play()
    finally:
        bus.stop()
        bridge.stop()
    assert final["phase"] == "over"
    sensed = {a.type for a, s in zip(table.game.actions, table.game.sources, strict=True)
              if s == "sensor"}
    assert sensed == {"aim", "courage"}
    state = json.loads(watcher.expect(f"{topics.base}/game/state",
                                      lambda p: '"phase": "over"' in p, timeout=10))
    assert state["winners"] == final["winners"]
    assert '"hand":' not in json.dumps(state) and '"legal"' not in json.dumps(state)
