"""A whole table in this process on a fake clock, through a real broker: simulated boards
and pins, the sensor bridge, Mosquitto, the referee and its HTTP API; and the bots' port
onto it, tapping through Flask's test client or real HTTP."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask
from phones import Phones, PhoneTaps, Request
from remote_table import CONTROL, FAST, write_config

from companion.bus.client import BusClient
from companion.bus.topics import Topics
from companion.clock import FakeClock
from companion.config import Config, load
from companion.dashboard.app import create_app
from companion.referee.journal import Journal
from companion.referee.mqtt_link import RefereeLink
from companion.referee.table import Table
from companion.sensors import build_bridge


def client_request(app: Flask) -> Request:
    client = app.test_client()

    def request(path: str, body: dict[str, Any] | None,
                headers: dict[str, str]) -> tuple[int, Any]:
        r = (client.get(path, headers=headers) if body is None
             else client.post(path, headers=headers, json=body))
        return r.status_code, r.get_json()
    return request


@dataclass
class BrokerTable:
    name: str
    config: Config
    clock: FakeClock
    bridge: Any
    table: Table
    bus: BusClient
    app: Flask

    @classmethod
    def start(cls, tmp: Path, broker_port: int, web_port: int, players: int,
              name: str) -> BrokerTable:
        config = load(write_config(tmp / "table.yaml", name, broker_port, web_port, players,
                                   FAST))
        clock = FakeClock()
        bridge = build_bridge(config, clock=clock).start()
        table = Table(name, config["referee"], Journal(tmp / "journal.sqlite3"), clock,
                      simulator=bridge.sim)
        topics = Topics(name)
        bus = BusClient(config.mqtt, f"referee-{name}", f"{topics.base}/referee/status")
        RefereeLink(table, bus, topics).start()
        bus.start()
        return cls(name, config, clock, bridge, table, bus, create_app(table, config["dashboard"]))

    def port(self, request: Request) -> BrokerPort:
        return BrokerPort(self.table, self.bridge, self.clock, request)

    def stop(self) -> None:
        self.table.close()  # the listeners have published every change
        self.bus.stop()
        self.bridge.stop()


class BrokerPort(PhoneTaps):
    """Taps through `request` (Flask's test client, or HTTP); sensors through the
    simulator; time by hand."""

    def __init__(self, table: Table, bridge: Any, clock: FakeClock, request: Request) -> None:
        self.table, self.bridge, self.clock, self.request = table, bridge, clock, request
        self.phones = Phones(request, lambda game, seat: table.access.seat_token(seat, game),
                             CONTROL)

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
