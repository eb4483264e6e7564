"""A venue for the tests: its Mosquitto as `companion league broker` writes it, and the
league in this process with its venue page served, as `companion league` runs them."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from ports import free_port

from companion.bus.client import BusClient
from companion.bus.settings import MqttSettings
from companion.dashboard.server import DashboardServer
from companion.dashboard.settings import DashboardSettings
from companion.league.service import League
from companion.league.store import Store
from companion.league.venue_broker import VenueBroker
from companion.league.web import Organiser, create_venue_app

ORGANISER_PIN = "1357"


class Venue:
    """The venue's Mosquitto as `companion league` runs it (one user per table)."""

    def __init__(self, folder: Path, tables: tuple[str, ...]) -> None:
        self.port = free_port()
        self.broker = VenueBroker(self.port, "127.0.0.1", folder, tables).start()
        self.folder = folder

    @property
    def credentials(self) -> dict[str, str]:
        return json.loads((self.folder / "credentials.json").read_text())

    def settings(self, user: str) -> MqttSettings:
        return MqttSettings(port=self.port, embedded=False, qos=1, username=user,
                            password=self.credentials[user])

    def client(self, user: str) -> mqtt.Client:
        """A paho client logged in as `user`, connected and looping."""
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{user}-"
                        f"{secrets.token_hex(3)}")
        c.username_pw_set(user, self.credentials[user])
        c.connect("127.0.0.1", self.port)
        c.loop_start()
        return c

    def stop(self) -> None:
        self.broker.stop()


@dataclass
class RunningLeague:
    league: League
    store: Store
    bus: BusClient
    server: DashboardServer

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def stop(self) -> None:
        self.server.stop()
        self.bus.stop()
        self.league.stop()
        self.store.close()


def start_league(venue: Venue, database: str, tables: tuple[str, ...]) -> RunningLeague:
    store = Store(database)
    bus = BusClient(venue.settings("league"), f"league-{secrets.token_hex(3)}")
    league = League(store, bus, tables).start()
    bus.start()
    assert bus.connected.wait(5), "the league did not connect to the venue broker"
    organiser = Organiser(ORGANISER_PIN)
    settings = DashboardSettings(host="127.0.0.1", port=0, keepalive_s=2)
    server = DashboardServer(create_venue_app(league, organiser, settings), settings).start()
    return RunningLeague(league, store, bus, server)


class Listener:
    """A paho client that keeps what it receives, to wait on one message at a time."""

    def __init__(self, port: int, user: str, password: str, topic: str) -> None:
        import queue

        self.messages: queue.Queue[tuple[str, bytes, bool]] = queue.Queue()
        self.seen: list[tuple[str, bytes, bool]] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"listener-{secrets.token_hex(3)}")
        self.client.username_pw_set(user, password)
        self.client.on_message = lambda _c, _u, m: self.messages.put(
            (m.topic, m.payload, bool(m.retain)))
        subscribed = __import__("threading").Event()
        self.client.on_subscribe = lambda *_a: subscribed.set()
        self.client.on_connect = lambda c, *_a: c.subscribe(topic, qos=1)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert subscribed.wait(5), f"could not subscribe to {topic}"

    def expect(self, topic: str, match: Any = lambda _p: True, timeout: float = 10.0) -> bytes:
        import queue
        import time

        deadline = time.monotonic() + timeout
        while True:
            for item in self.seen:
                if item[0] == topic and match(item[1]):
                    self.seen.remove(item)
                    return item[1]
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching message on {topic} in {timeout} s; seen "
                                     f"{[(t, p[:60]) for t, p, _ in self.seen[-8:]]}")
            try:
                self.seen.append(self.messages.get(timeout=left))
            except queue.Empty:
                continue

    def topics(self) -> set[str]:
        import queue

        while True:
            try:
                self.seen.append(self.messages.get_nowait())
            except queue.Empty:
                return {t for t, _, _ in self.seen}

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()
