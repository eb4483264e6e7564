"""A whole table in this process on a fake clock, through a real broker: simulated boards
and pins, the sensor bridge, Mosquitto, the referee and its HTTP API; and the bots' port
onto it, tapping through Flask's test client or real HTTP."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
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
from companion.sensors.facts import DeviceInfo, Fact, FactSink
from companion.sensors.settings import SensorSettings

# The simulated hub speaks only when the test moves the fake clock, and the link's watch
# for a silent hub runs on real time: however long the test pauses, it is not silence.
SILENCE = "board_silence_ms: 60000"


def client_request(app: Flask) -> Request:
    client = app.test_client()

    def request(path: str, body: dict[str, Any] | None,
                headers: dict[str, str]) -> tuple[int, Any]:
        r = (client.get(path, headers=headers) if body is None
             else client.post(path, headers=headers, json=body))
        return r.status_code, r.get_json()
    return request


class Barrier:
    """Messages `sender` published before `cross()` have all been handled by `receiver`
    when it returns: one client's messages reach a subscriber in order, so a marker sent
    after them is handled after them."""

    def __init__(self, sender: BusClient, receiver: BusClient, topic: str) -> None:
        self.sender, self.topic = sender, topic
        self._sent = self._seen = 0
        self._arrived = threading.Condition()
        receiver.subscribe(topic, self._marker)

    def _marker(self, _topic: str, payload: bytes) -> None:
        with self._arrived:
            self._seen = max(self._seen, int(payload))
            self._arrived.notify_all()

    def cross(self, timeout: float = 10.0, resend_s: float | None = None) -> None:
        """`resend_s`: send a new marker this often (before the subscription is made)."""
        deadline = time.monotonic() + timeout
        while True:
            self._sent += 1
            sent = self._sent
            self.sender.publish(self.topic, str(sent))
            with self._arrived:
                if self._arrived.wait_for(lambda n=sent: self._seen >= n,
                                          min(resend_s or timeout, timeout)):
                    return
            if time.monotonic() > deadline:
                raise AssertionError(f"no marker came through {self.topic} in {timeout} s")


class Handed(FactSink):
    """Counts what the bridge hands its sinks (after the publisher: each is on the bus)."""

    def __init__(self) -> None:
        self.count = 0

    def fact(self, fact: Fact) -> None:
        self.count += 1

    def device(self, info: DeviceInfo) -> None:
        self.count += 1

    def health(self, device: str, figures: dict[str, Any], t_ms: float) -> None:
        self.count += 1


class Carrier:
    """Waits until what the simulated hub wrote so far has reached the referee: the lines
    read and their facts published (the hub's answer to a PING comes after them), then
    those messages handled by the referee (a marker through the broker after them)."""

    def __init__(self, bridge: Any, referee_bus: BusClient, name: str) -> None:
        self.bridge, self.handed = bridge, Handed()
        bridge.add_sink(self.handed)
        self.hub = bridge.sim.hub
        self.link = next(k for k in bridge.links if k.settings.name == SensorSettings.SIM_HUB)
        self.barrier = Barrier(bridge.bus, referee_bus, f"test-barrier/{name}")
        self.barrier.cross(resend_s=0.05)
        self._lines = self._messages = -1  # how many were carried at the last wait

    def wait(self) -> None:
        if self.hub.port.written != self._lines:
            answered: list[float | None] = []
            asking = threading.Thread(target=lambda: answered.append(self.link.ping(10.0)))
            asking.start()
            while asking.is_alive():  # the hub reads the PING when polled, at the same time
                self.bridge.scheduler.run_due()
                asking.join(0.001)
            assert answered[0] is not None, "the simulated hub did not answer a PING"
            self._lines = self.hub.port.written  # all written before its PONG
        if self.handed.count != self._messages:
            messages = self.handed.count
            self.barrier.cross()
            self._messages = messages


@dataclass
class BrokerTable:
    name: str
    config: Config
    clock: FakeClock
    bridge: Any
    table: Table
    bus: BusClient
    app: Flask
    carrier: Carrier = field(init=False)

    def __post_init__(self) -> None:
        self.carrier = Carrier(self.bridge, self.bus, self.name)

    @classmethod
    def start(cls, tmp: Path, broker_port: int, web_port: int, players: int,
              name: str) -> BrokerTable:
        config = load(write_config(tmp / "table.yaml", name, broker_port, web_port, players,
                                   FAST, filters=f"hold_ms: 100, {SILENCE}"))
        clock = FakeClock()
        bridge = build_bridge(config, clock=clock).start()
        table = Table(name, config["referee"], Journal(tmp / "journal.sqlite3"), clock,
                      simulator=bridge.sim)
        topics = Topics(name)
        bus = BusClient(config.mqtt, f"referee-{name}", topics.referee_status)
        RefereeLink(table, bus, topics).start()
        bus.start()
        return cls(name, config, clock, bridge, table, bus, create_app(table, config["dashboard"]))

    def port(self, request: Request) -> BrokerPort:
        return BrokerPort(self.table, self.bridge, self.clock, request, self.carrier)

    def stop(self) -> None:
        self.table.close()  # the listeners have published every change
        self.bus.stop()
        self.bridge.stop()


class BrokerPort(PhoneTaps):
    """Taps through `request` (Flask's test client, or HTTP); sensors through the
    simulator; time by hand."""

    def __init__(self, table: Table, bridge: Any, clock: FakeClock, request: Request,
                 carrier: Carrier) -> None:
        self.table, self.bridge, self.clock, self.request = table, bridge, clock, request
        self.carrier = carrier
        self.phones = Phones(request, lambda game, seat: table.access.seat_token(seat, game),
                             CONTROL)

    def advance(self, ms: float) -> None:
        self.clock.advance(ms)
        self.bridge.scheduler.run_due()
        self.table.tick()

    def until(self, condition: Any, what: str, timeout: float = 10.0) -> None:
        """Move the fake clock in small steps until `condition` (real-time deadline); after
        each step, everything the step made has reached the referee before the clock moves
        again, however slow the machine: the fake clock never runs ahead of the facts."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            self.advance(10)
            self.carrier.wait()

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
