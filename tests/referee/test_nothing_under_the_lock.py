"""Nothing slow under the referee's lock: with its broker hung (SIGSTOP), a page that stops
reading its stream and a listener that never returns, the referee still decides at the
fake clock's deadlines and journals each action before it is shown; once they are let
go, everything they missed reaches them in order."""

from __future__ import annotations

import http.client
import json
import socket
import threading

from companion.bus.client import BusClient
from companion.bus.topics import Topics
from companion.clock import FakeClock
from companion.dashboard.app import create_app
from companion.dashboard.server import DashboardServer
from companion.dashboard.settings import DashboardSettings
from companion.referee.commands import Auth
from companion.referee.journal import Journal
from companion.referee.mqtt_link import RefereeLink
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table
from companion.sensors.facts import Fact

CONTROL = Auth(control=True)
NAMES = ["Ana", "Bob", "Cyd", "Dee"]


def slow_page(port: int) -> socket.socket:
    """A page that opens the live stream and never reads it (a small window fills fast)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    return sock


def test_a_hung_broker_a_stalled_page_and_a_stuck_listener_hold_nothing(
        tmp_path, private_mosquitto, observe):
    clock = FakeClock()
    journal_path = tmp_path / "journal.sqlite3"
    table = Table("stall", RefereeSettings(pin="2468"), Journal(journal_path), clock)
    topics = Topics("stall")
    watcher = observe(private_mosquitto.port, f"{topics.base}/game/state")
    bus = BusClient(private_mosquitto.settings, "referee-stall", f"{topics.base}/referee/status")
    RefereeLink(table, bus, topics).start()
    bus.start()
    assert bus.connected.wait(10)
    config = DashboardSettings(host="127.0.0.1", port=0)
    server = DashboardServer(create_app(table, config), config).start()
    page = slow_page(int(server.port))
    let_go = threading.Event()
    stuck = threading.Event()

    def stuck_listener(_revision: int) -> None:  # a listener as slow as it gets
        stuck.set()
        let_go.wait(60)

    try:
        table.command({"type": "new_game", "version": table.version, "players": NAMES,
                       "powers": "none", "seed": 4}, CONTROL)
        assert table.settled()
        private_mosquitto.freeze()
        table.subscribe(stuck_listener)
        table.on_fact(Fact("posture", 1, "up", clock.now_ms(), "test"))
        assert stuck.wait(10)  # from now on the listeners wait for as long as it takes
        for seat, name in enumerate(NAMES, 1):  # each player's card, from their phone
            table.command({"type": "action", "version": table.version, "action": {
                "type": "choose", "player": name, "card": "click"}}, Auth(seat=seat))
        for seat in range(1, 5):
            table.on_fact(Fact("raised", seat, True, clock.now_ms(), "test"))
            table.on_fact(Fact("aim", seat, seat % 4 + 1, clock.now_ms(), "test"))
        table.command({"type": "countdown", "version": table.version}, CONTROL)
        three = table.stage.three_ms
        decide = table.stage.decide_ms
        clock.advance(decide - clock.now_ms() - 1)
        table.tick()
        assert table.stage.name == "countdown" and table.stage.beat == 3  # not yet due
        assert not any(a.type == "aim" for a in table.game.actions)
        clock.advance(1)
        table.tick()  # the deadline: the aims at "three" are read, journaled, shown
        aims = [(a.player, a.target) for a in table.game.actions if a.type == "aim"]
        assert aims == [("Ana", "Bob"), ("Bob", "Cyd"), ("Cyd", "Dee"), ("Dee", "Ana")]
        other = Journal(journal_path)  # on disk already, read by another connection
        on_disk = [e.action for e in other.entries(table.game.id)]
        other.close()
        assert [(a.player, a.target) for a in on_disk if a.type == "aim"] == aims
        assert three < decide == clock.now_ms()
        assert not table.settled(0.2)  # (the stuck listener still holds the outbox)
    finally:
        let_go.set()
        private_mosquitto.freeze(False)
    assert table.settled(30)
    version = table.version
    state = json.loads(watcher.expect(f"{topics.base}/game/state",
                                      lambda p: f'"version": {version},' in p, timeout=30))
    assert state["phase"] == table.game.state.phase
    page.close()
    conn = http.client.HTTPConnection("127.0.0.1", int(server.port), timeout=10)
    conn.request("GET", "/api/state")
    assert json.loads(conn.getresponse().read())["version"] == version
    server.stop()
    table.close()
    bus.stop()
