"""The fact's road, measured (issue 23): one `POST 3 down` line written into a
pseudo-terminal is read by the real hub link, published by the real sensor bridge through
a real Mosquitto, decided by the referee and written by the real dashboard server to an
open event stream. A profile hook on every thread records each `companion` function
entered on the way; a module *handles* the fact when one of its functions is handed the
fact in one of its forms (the line, the hub's message, the Fact, the MQTT payload, the
referee's input, its state or snapshot holding the reading, the view's bytes). The road is
those modules, thread by thread, in the order they first handle it (a module that ends
one thread's leg and begins the next, like the MQTT client, is one hand-over): the very
list docs/ARCHITECTURE.md draws: each once, and at most eight (issue 23)."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from importgraph import ROOT
from waiting import wait_for

from companion.bus.client import BusClient
from companion.bus.topics import Topics
from companion.clock import SYSTEM_CLOCK
from companion.config import parse
from companion.dashboard.app import create_app
from companion.dashboard.server import DashboardServer
from companion.dashboard.settings import DashboardSettings
from companion.referee.commands import Auth
from companion.referee.journal import Journal
from companion.referee.mqtt_link import RefereeLink
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table
from companion.sensors.bridge import SensorBridge
from companion.sensors.sim.pty import PtyPort
from companion.wire.linecodec import encode

SEAT = 3
MOST = 8  # modules that handle the fact, at most (issue 23)
DOC = ROOT / "docs" / "ARCHITECTURE.md"


def _fact_like(obj: object) -> bool:
    return getattr(obj, "kind", None) == "posture" and getattr(obj, "seat", None) == SEAT


def carries(obj: object, depth: int = 0) -> bool:
    """Whether `obj` is the fact in one of its forms (independent of the code's types:
    read by their fields and bytes)."""
    if isinstance(obj, bytes | bytearray | memoryview):
        data = bytes(obj)
        return b"POST" in data or b'"posture":"down"' in data.replace(b" ", b"")
    if isinstance(obj, str):
        return carries(obj.encode(), depth)
    if _fact_like(obj) or getattr(obj, "type", None) == "POST":
        return True
    if _fact_like(getattr(obj, "fact", None)):  # an input holding it
        return True
    if depth >= 2:
        return False
    if isinstance(obj, dict):  # a seat's readings as views show them
        return obj.get("posture") == "down" or any(carries(v, depth + 1)
                                                   for v in list(obj.values())[:16])
    for name in ("payload", "readings", "sensors", "_tracks"):  # a message, a state, ...
        try:
            inner = getattr(obj, name, None)
        except Exception:
            continue
        if inner is not None and not callable(inner):
            if name == "_tracks":
                return (SEAT, "posture") in inner
            if carries(inner, depth + 1):
                return True
    return False


class Road:
    """A profile hook on every thread started after it: `companion` calls while armed."""

    def __init__(self) -> None:
        self.armed = False
        self.entered: set[str] = set()
        self.handling: list[tuple[str, str]] = []  # (thread, module), as they happened

    def hook(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call" or not self.armed:
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("companion.") or module == __name__:
            return
        self.entered.add(module)
        code = frame.f_code
        names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        if any(carries(frame.f_locals.get(n)) for n in names if n != "self"):
            self.handling.append((threading.current_thread().name, module))

    def legs(self) -> list[tuple[str, list[str]]]:
        """Each thread the fact went through, in order, with the modules that handled it
        there in the order they first did."""
        out: dict[str, list[str]] = {}
        for thread, module in self.handling:
            seen = out.setdefault(thread, [])
            if module not in seen:
                seen.append(module)
        return list(out.items())

    def modules(self) -> list[str]:
        """The road: the legs joined, a module that ends one leg and begins the next (the
        MQTT client, sending and receiving) counted once, as the hand-over it is."""
        road: list[str] = []
        for _, modules in self.legs():
            road += modules[1:] if road and modules[0] == road[-1] else modules
        return road


def documented_road() -> list[str]:
    """The modules the doc's road names, in its order (the lines of its drawing)."""
    section = DOC.read_text().split("\n## From the pin to the page\n", 1)[1]
    drawing = section.split("```")[1]
    out = []
    for line in drawing.splitlines():
        m = re.match(r"\s*─► (\S+)\.py\b", line)
        if m and not m.group(1).startswith("web/"):
            out.append("companion." + m.group(1).replace("/", "."))
    return out


def _config(port: int, hub: Path) -> str:
    return (f"table: road\nmqtt:\n  url: mqtt://127.0.0.1:{port}\n"
            f"sensors:\n  filters: {{board_silence_ms: 60000}}\n"
            f"  serial:\n    - {{name: hub, port: {hub}}}\n")


def shown(got: bytes | bytearray) -> int:
    """The newest revision a stream's bytes showed (-1: none yet)."""
    return max(map(int, re.findall(rb'"revision":(\d+),', got)), default=-1)


class Page:
    """An open stream, read raw: every byte the server wrote to it."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: pi\r\n"
                          b"Accept: text/event-stream\r\n\r\n")
        self.got = bytearray()
        threading.Thread(target=self._read, name="page", daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(OSError):  # (closed by the test when it is done)
            while chunk := self.sock.recv(65536):
                self.got.extend(chunk)


@pytest.fixture(scope="module")
def road(mosquitto, tmp_path_factory) -> Road:
    """The road of one `POST 3 down` line, traced once for the tests below."""
    tmp_path = tmp_path_factory.mktemp("road")
    road = Road()
    threading.setprofile(road.hook)  # every thread started from here on: all of the table's
    try:
        _travel(road, mosquitto.port, tmp_path)
    finally:
        threading.setprofile(None)  # type: ignore[arg-type]
    print(f"entered {len(road.entered)} modules; the fact's legs:", road.legs())
    return road


def _travel(road: Road, port: int, tmp_path: Path) -> None:
    pty = PtyPort(str(tmp_path / "hub"))
    pty.plug()
    config = parse(_config(port, tmp_path / "hub"))
    bridge = SensorBridge(config).start()
    table = Table("road", RefereeSettings(pin="1357"), Journal(tmp_path / "j.sqlite3"),
                  SYSTEM_CLOCK)
    table.command({"type": "new_game", "version": table.version, "powers": "none",
                   "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    bus = BusClient(config.mqtt, "road-referee").start()
    RefereeLink(table, bus, Topics("road")).start()
    settings = DashboardSettings(host="127.0.0.1", port=0, keepalive_s=3600)
    server = DashboardServer(create_app(table, settings), settings).start()
    page = Page(server.port)
    seq = iter(range(1000))
    link = bridge.links[0]
    try:
        wait_for(lambda: b"data:" in page.got, what="the page's first snapshot")
        wait_for(lambda: link.port is not None, what="the hub link to open the pty")
        for fields in (("HELLO", 0, 3, "hub", "hub", "0.3.0", 0), ("SLOTS", 0, 2000, "1,2,3")):
            os.write(pty._master, encode([fields[0], next(seq), *fields[1:]]))
        wait_for(lambda: link.looks is not None, what="the hub online with its slots")
        wait_for(lambda: table.readings.track(1, "aim") is not None, what="the slots' aims")
        assert table.settled()
        now = table.revision  # (the stream sends the latest view: one it passed is not sent)
        wait_for(lambda: shown(page.got) >= now and page.got.endswith(b"\n\n"),
                 what="the page to show the table as it is")
        before = len(page.got)
        road.armed = True
        os.write(pty._master, encode(["POST", next(seq), 500, SEAT, "down"]))
        wait_for(lambda: b'"posture":"down"' in page.got[before:]
                 and page.got.endswith(b"\n\n"), what="the stream to show the standee down")
        assert table.settled()
    finally:
        road.armed = False
        page.sock.close()
        server.stop()
        bus.stop()
        bridge.stop()
        pty.unplug()
        table.close()
        table.journal.close()


def test_the_road_is_the_one_the_architecture_draws(road) -> None:
    assert road.modules() == documented_road()


def test_the_stream_loop_sends_what_the_outbox_built_without_pulling_the_table(road) -> None:
    legs = dict(road.legs())
    assert legs["event-streams"] == ["companion.dashboard.streams"]
    assert "companion.dashboard.streams" not in legs["referee-outbox"]


def test_each_module_handles_the_fact_once(road) -> None:
    modules = road.modules()
    assert sorted(m for m in set(modules) if modules.count(m) > 1) == []


def test_each_module_handles_the_fact_once_and_at_most_eight_do(road) -> None:
    modules = road.modules()
    assert len(modules) == len(set(modules)) and len(modules) <= MOST


def test_the_road_is_read_from_the_drawing() -> None:
    road = documented_road()
    assert road[0] == "companion.sensors.serial_link"
    assert road[-1] == "companion.dashboard.streams"
    assert all(m.startswith("companion.") and "web" not in m for m in road)
