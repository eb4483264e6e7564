"""One board on a serial port: find it, read its lines, keep it online, survive unplugging.

A thread per board. The port is found by path or by USB VID:PID; when it fails or
disappears the board is offline at once, and the thread looks for it again every 200 ms,
so a board plugged back in is picked up without a restart. Bad lines are counted by
reason and dropped; nothing in them reaches the facts.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import serial
from serial.tools import list_ports

from companion.clock import Clock
from companion.sensors import protocol
from companion.sensors.board_clock import BoardClock
from companion.sensors.facts import DeviceInfo, Fact, FactSink
from companion.sensors.filters import AimFilter
from companion.sensors.lines import LineSplitter
from companion.sensors.scheduler import Scheduler
from companion.sensors.settings import BoardSettings, Filters
from companion.wire.linecodec import LineError

log = logging.getLogger(__name__)

RETRY_S = 0.2
READ_TIMEOUT_S = 0.05
WHO_EVERY_MS = 1000.0


def find_port(settings: BoardSettings,
              comports: Callable[[], Iterable[Any]] = list_ports.comports) -> str | None:
    """The path of the board's port now, or None when it is not there."""
    if settings.port is not None:
        return settings.port if os.path.exists(settings.port) else None
    for info in comports():
        if (info.vid, info.pid) == settings.usb and (
            settings.serial_number is None or info.serial_number == settings.serial_number
        ):
            return info.device
    return None


class BoardLink:
    def __init__(self, settings: BoardSettings, filters: Filters, sink: FactSink,
                 scheduler: Scheduler, clock: Clock,
                 comports: Callable[[], Iterable[Any]] = list_ports.comports) -> None:
        self.settings, self.filters, self.sink = settings, filters, sink
        self.scheduler, self.clock, self._comports = scheduler, clock, comports
        self.dropped: Counter[str] = Counter()
        self.lines = 0
        self.seq_gaps = 0
        self.online = False
        self.hello: protocol.Message | None = None
        self.port: str | None = None
        self.last_valid_ms: float | None = None  # on `clock`, for reports
        self._valid_at = 0.0  # time.monotonic() of the last valid line
        self.offline_reason = "not found"
        self._splitter = LineSplitter()
        self._board_clock = BoardClock()
        self._last_seq: int | None = None
        self._first_line = True  # after opening a port: may be torn
        self.aim = scheduler.add(AimFilter(filters.aim_acquire_ms, filters.aim_release_ms,
                                           self._emit_aim))
        self._serial: serial.Serial | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pongs: dict[str, threading.Event] = {}
        self._nonce = 0

    @property
    def device_id(self) -> str:
        return self.hello.board_id if self.hello else (self.settings.board_id or self.settings.name)

    @property
    def seat(self) -> int | None:
        return self.settings.seat or (self.hello.seat if self.hello else None)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"board-{self.settings.name}",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        ser = self._serial
        if ser is not None:
            # wake the reader; it may be closing the port right now, and then it is leaving
            with contextlib.suppress(OSError, TypeError, serial.SerialException):
                ser.cancel_read()
        if self._thread:
            self._thread.join(2)

    def send(self, line: bytes) -> bool:
        """Write a command line; False when the board is not connected."""
        ser = self._serial
        if ser is None:
            return False
        try:
            with self._write_lock:
                ser.write(line)
        except (serial.SerialException, OSError):
            return False
        return True

    def ping(self, timeout_s: float = 1.0) -> float | None:
        """Round trip of a PING in ms, or None when no PONG came back in time."""
        with self._write_lock:
            self._nonce = (self._nonce + 1) & 0xFFFFFFFF
            nonce = self._nonce
        event = self._pongs[f"{nonce:x}"] = threading.Event()
        start = self.clock.now_ms()
        try:
            if self.send(protocol.ping(nonce)) and event.wait(timeout_s):
                return self.clock.now_ms() - start
            return None
        finally:
            self._pongs.pop(f"{nonce:x}", None)

    def dropped_total(self) -> int:
        return sum(self.dropped.values()) + self._splitter.too_long

    def _run(self) -> None:
        waiting_logged = False
        while not self._stop.is_set():
            path = find_port(self.settings, self._comports)
            if path is None:
                if not waiting_logged:
                    log.info("board %s: waiting for its port", self.settings.name)
                    waiting_logged = True
                self._stop.wait(RETRY_S)
                continue
            try:
                ser = serial.Serial(path, self.settings.baud, timeout=READ_TIMEOUT_S,
                                    exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                if not waiting_logged:
                    log.warning("board %s: cannot open %s: %s", self.settings.name, path, exc)
                    waiting_logged = True
                self._stop.wait(RETRY_S)
                continue
            waiting_logged = False
            self.port = path
            log.info("board %s: opened %s", self.settings.name, path)
            self._serial = ser
            try:
                reason = self._serve(ser)
            finally:
                self._serial = None
                ser.close()
            self._offline(reason)

    def _serve(self, ser: serial.Serial) -> str:
        self._splitter.restart()
        self._first_line = True
        self.send(protocol.who())
        # Liveness is about the transport, so it runs on real time even when facts are
        # stamped by a test's FakeClock.
        asked = self._valid_at = time.monotonic()
        while not self._stop.is_set():
            try:
                chunk = ser.read(ser.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError):
                return "unplugged"
            if chunk:
                arrival = self.clock.now_ms()
                for line in self._splitter.feed(chunk):
                    self._line(line, arrival)
            now = time.monotonic()
            if self.online and (now - self._valid_at) * 1000 > self.filters.board_silence_ms:
                self._offline("silent")
            if not self.online and (now - asked) * 1000 > WHO_EVERY_MS:
                self.send(protocol.who())
                asked = now
        return "stopped"

    def _line(self, line: bytes, arrival_ms: float) -> None:
        self.lines += 1
        first, self._first_line = self._first_line, False
        try:
            msg = protocol.parse(line)
        except LineError as exc:
            self._drop("torn" if first else exc.reason)
            return
        if msg.type == "HELLO":
            self._hello(msg, arrival_ms)
            return
        if not self.online:  # after opening or silence, only a HELLO says who is there
            self._drop("before_hello")
            return
        self.last_valid_ms, self._valid_at = arrival_ms, time.monotonic()
        self._check_seq(msg.seq)
        t_ms = self._board_clock.to_local(msg.t, arrival_ms)
        gun = self.hello.kind == "gun"
        if msg.type == "AIM" and gun:
            self.scheduler.feed(self.aim, msg.seat, t_ms)
        elif msg.type == "TILT" and gun:
            with self.scheduler.lock:
                self.sink.fact(Fact("raised", self.seat, msg.value, t_ms, self.device_id))
        elif msg.type == "POST" and not gun:
            with self.scheduler.lock:
                self.sink.fact(Fact("posture", msg.seat, "up" if msg.value else "down", t_ms,
                                    self.device_id))
        elif msg.type == "PONG":
            event = self._pongs.get(msg.text)
            if event:
                event.set()
        elif msg.type in ("OK", "ERR"):
            log.log(logging.INFO if msg.type == "OK" else logging.WARNING,
                    "board %s answered %s %s", self.device_id, msg.type, msg.text)
        elif msg.type != "HB":
            self._drop("wrong_kind")

    def _hello(self, msg: protocol.Message, arrival_ms: float) -> None:
        if self.settings.board_id and msg.board_id != self.settings.board_id:
            self._drop("wrong_board")
            log.error("board %s: expected id %s but %s answered; ignored", self.settings.name,
                      self.settings.board_id, msg.board_id)
            return
        self.hello, self._last_seq = msg, msg.seq
        self.last_valid_ms, self._valid_at = arrival_ms, time.monotonic()
        self._board_clock.reset()
        self._board_clock.to_local(msg.t, arrival_ms)
        with self.scheduler.lock:
            self.aim.reset()
        self._set_online("hello", arrival_ms)
        if msg.kind == "hub" and self.settings.slot_us:
            self.send(protocol.slots(self.settings.slot_us, self.settings.slot_seats))

    def _check_seq(self, seq: int) -> None:
        if self._last_seq is not None and seq != (self._last_seq + 1) % protocol.SEQ_WRAP:
            self.seq_gaps += 1
        self._last_seq = seq

    def _set_online(self, reason: str, t_ms: float) -> None:
        self.online = True
        log.info("board %s online (%s) on %s", self.device_id, reason, self.port)
        self.sink.device(self._info(True, reason, t_ms))

    def _offline(self, reason: str) -> None:
        self.offline_reason = reason
        if not self.online:
            return
        self.online = False
        with self.scheduler.lock:
            self.aim.reset()
        level = logging.INFO if reason == "stopped" else logging.WARNING  # a clean stop is no alarm
        log.log(level, "board %s offline: %s", self.device_id, reason)
        self.sink.device(self._info(False, reason, self.clock.now_ms()))

    def _info(self, online: bool, reason: str, t_ms: float) -> DeviceInfo:
        hello = self.hello
        return DeviceInfo(self.device_id, "serial", hello.kind if hello else "board", online,
                          reason, t_ms, self.seat, hello.firmware if hello else None, self.port,
                          self.settings.name)

    def _drop(self, reason: str) -> None:
        self.dropped[reason] += 1
        if self.dropped[reason] in (1, 10, 100, 1000) or self.dropped[reason] % 10000 == 0:
            log.warning("board %s: dropped %d line(s) (%s)", self.settings.name,
                        self.dropped[reason], reason)

    def _emit_aim(self, target: int | None, t_ms: float) -> None:
        self.sink.fact(Fact("aim", self.seat, target, t_ms, self.device_id))
