"""The hub on a serial port: find it, read its lines, keep it online, survive unplugging.

One thread. The port is found by path or by USB VID:PID; when it fails or disappears the
hub is offline at once, and the thread looks for it again every 200 ms, so a hub plugged
back in is picked up without a restart. Bad lines are counted by reason and dropped;
nothing in them reaches the facts. A line that went missing (a gap in the hub's numbers:
its buffer was full, or the line arrived damaged) or was dropped (damaged or out of range)
may have been a gun raised or a standee laid down, sent once on change: the link asks
`WHO` again, the hub restates its readings, and only what changed becomes a fact, so the
referee never goes on with a stale one.
Rounds become aims in companion.sensors.looks; the hub's own STAT figures and the drop
counts are kept here for `companion doctor`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import serial
from serial.tools import list_ports

from companion.clock import SYSTEM_CLOCK, BoardClock, Clock
from companion.sensors.facts import DeviceInfo, Fact, FactSink
from companion.sensors.looks import HubLooks
from companion.sensors.scheduler import Scheduler
from companion.sensors.settings import BoardSettings, Filters
from companion.wire import linecodec

log = logging.getLogger(__name__)

RETRY_S = 0.2
READ_TIMEOUT_S = 0.2  # a read waits for data; this long at most, to notice silence in time
PASS_MS = 50.0  # a pass's work beside its read: longer, and the process was kept waiting
WHO_EVERY_MS = 1000.0
ASK_AGAIN_MS = 250.0  # after lines went missing, `WHO` at most this often
DROP_LOG_MS = 10_000.0  # dropped lines are logged at most this often, as one line of counts


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


class HubLink:
    """`clock` stamps the facts; `transport` paces the wire: a silent hub, `WHO` asked
    again, the drop log. Liveness is about the transport, so it runs on real time even when
    a test's FakeClock stamps the facts (a test may give the link a fake one of its own)."""

    def __init__(self, settings: BoardSettings, filters: Filters, sink: FactSink,
                 scheduler: Scheduler, clock: Clock,
                 comports: Callable[[], Iterable[Any]] = list_ports.comports,
                 transport: Clock = SYSTEM_CLOCK) -> None:
        self.settings, self.filters, self.sink = settings, filters, sink
        self.scheduler, self.clock, self._comports = scheduler, clock, comports
        self.transport = transport
        self.dropped: Counter[str] = Counter()
        self.lines = 0
        self.seq_gaps = 0
        self.asked_again = 0  # `WHO`s sent because lines went missing
        self._asked_again_at = -ASK_AGAIN_MS
        self._told: dict[tuple[str, int], object] = {}  # the last tilt and post of each seat
        self.online = False
        self.hello: linecodec.Message | None = None
        self.port: str | None = None
        self.last_valid_ms: float | None = None  # on `clock`, for reports
        self._valid_at = 0.0  # on `transport`: the last valid line
        self.offline_reason = "not found"
        self._splitter = linecodec.LineSplitter()
        self._board_clock = BoardClock(linecodec.T_WRAP)
        self._last_seq: int | None = None
        self._first_line = True  # after opening a port: may be torn
        self.looks: HubLooks | None = None  # from the hub's SLOTS: the schedule in force
        self.stat: dict[str, int] = {}  # the hub's last STAT
        self._drops_logged = 0  # how many of the drops were logged, and when
        self._drop_log_at = -DROP_LOG_MS
        self._serial: serial.Serial | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pongs: dict[str, threading.Event] = {}
        self._nonce = 0

    @property
    def device_id(self) -> str:
        return self.hello.board_id if self.hello else (self.settings.board_id or self.settings.name)

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
            if self.send(linecodec.ping(nonce)) and event.wait(timeout_s):
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
                    log.info("hub %s: waiting for its port", self.settings.name)
                    waiting_logged = True
                self._stop.wait(RETRY_S)
                continue
            try:
                ser = serial.Serial(path, self.settings.baud, timeout=READ_TIMEOUT_S,
                                    exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                if not waiting_logged:
                    log.warning("hub %s: cannot open %s: %s", self.settings.name, path, exc)
                    waiting_logged = True
                self._stop.wait(RETRY_S)
                continue
            waiting_logged = False
            self.port = path
            log.info("hub %s: opened %s", self.settings.name, path)
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
        self.send(linecodec.who())
        asked = self._valid_at = self.transport.now_ms()
        began = SYSTEM_CLOCK.now_ms()
        while not self._stop.is_set():
            try:
                chunk = ser.read(ser.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError):
                return "unplugged"
            if chunk:
                arrival = self.clock.now_ms()
                for line in self._splitter.feed(chunk):
                    self._line(line, arrival)
            now = self.transport.now_ms()
            began = self._not_listening(began, now)
            if self.online and now - self._valid_at > self.filters.board_silence_ms:
                self._offline("silent")
            if not self.online and now - asked > WHO_EVERY_MS:
                self.send(linecodec.who())
                asked = now
        return "stopped"

    def _not_listening(self, began: float, now: float) -> float:
        """Silence is what the link heard while it listened. A pass waits on the port for
        `READ_TIMEOUT_S` at most (real time, as the port counts it), then does its lines;
        real time beyond that, the process was kept waiting (a starved host, a pause) and
        heard nothing. A hub that wrote meanwhile has its lines in the port's buffer, read
        by the next pass, so that time is not the hub's silence. Returns when this pass
        ended, the next one's start."""
        ended = SYSTEM_CLOCK.now_ms()
        kept = ended - began - READ_TIMEOUT_S * 1000 - PASS_MS
        if kept > 0:
            self._valid_at = min(self._valid_at + kept, now)
        return ended

    def _line(self, line: bytes, arrival_ms: float) -> None:
        self.lines += 1
        first, self._first_line = self._first_line, False
        try:
            msg = linecodec.parse(line)
        except linecodec.LineError as exc:
            self._drop("torn" if first else exc.reason)
            if self.online and not first:  # (it may have been a gun or a standee, sent once,
                self._ask_again()          # and its number may follow on with no gap)
            return
        if msg.type == "HELLO":
            self._hello(msg, arrival_ms)
            return
        if not self.online:  # after opening or silence, only a HELLO says who is there
            self._drop("before_hello")
            return
        self.last_valid_ms, self._valid_at = arrival_ms, self.transport.now_ms()
        self._check_seq(msg.seq)
        t_ms = self._board_clock.to_local(msg.t, arrival_ms)
        with self.scheduler.lock:
            self._message(msg, t_ms)

    def _message(self, msg: linecodec.Message, t_ms: float) -> None:
        looks = self.looks
        if msg.type == "SEEN":
            if looks is None or not looks.seen(msg.round, t_ms, msg.masks, msg.moving):
                self._drop("schedule" if looks is None or len(msg.masks) != len(looks.seats)
                           else "stale_round")
                return
            self._fact("seen", 0, msg.masks, t_ms)
        elif msg.type == "HB":
            if looks is not None:
                looks.passed(msg.round, t_ms)
        elif msg.type == "GUN":
            self._fact("raised", msg.seat, msg.value, t_ms)
        elif msg.type == "POST":
            self._fact("posture", msg.seat, msg.value, t_ms)
        elif msg.type == "SLOTS":
            self._schedule(msg.slot_us, msg.seats, t_ms)
        elif msg.type == "STAT":
            self.stat = dict(zip(linecodec.STAT_FIELDS, msg.stat, strict=True))
            self.sink.health(self.device_id, self.health(), t_ms)
        elif msg.type == "PONG":
            event = self._pongs.get(msg.text)
            if event:
                event.set()
        elif msg.type == "OK" and msg.text == "SLOTS" and self.settings.slot_us:
            self._schedule(self.settings.slot_us, self.settings.slot_seats, t_ms)
        elif msg.type in ("OK", "ERR"):
            log.log(logging.INFO if msg.type == "OK" else logging.WARNING,
                    "hub %s answered %s %s", self.device_id, msg.type, msg.text)

    def health(self) -> dict[str, Any]:
        """The hub's STAT figures, what this side dropped and which guns never saw a badge,
        for `companion doctor`."""
        looks = self.looks
        return {**self.stat, "lines": self.lines, "lines_dropped": self.dropped_total(),
                "dropped_by_reason": dict(self.dropped), "seq_gaps": self.seq_gaps,
                "asked_again": self.asked_again,
                "blind": [s for s, n in looks.saw.items() if not n] if looks else []}

    def _schedule(self, slot_us: int, seats: tuple[int, ...], t_ms: float) -> None:
        """A schedule in force: fresh trackers; every gun aims at nobody until seen."""
        if self.looks is not None and (self.looks.slot_us, self.looks.seats) == (slot_us, seats):
            return
        self.looks = HubLooks(slot_us, seats, self.filters.hold_ms, self._fact, t_ms)
        self.sink.device(self._info(True, "slots", t_ms))
        for seat in seats:
            self._fact("aim", seat, None, t_ms)
        wanted = (self.settings.slot_us, self.settings.slot_seats)
        if self.settings.slot_us and (slot_us, seats) != wanted:
            self.send(linecodec.slots(*wanted))  # type: ignore[arg-type]

    def _hello(self, msg: linecodec.Message, arrival_ms: float) -> None:
        if self.settings.board_id and msg.board_id != self.settings.board_id:
            self._drop("wrong_board")
            log.error("board %s: expected id %s but %s answered; ignored", self.settings.name,
                      self.settings.board_id, msg.board_id)
            return
        # The same hub, still counting its lines, restating itself after `WHO`: its
        # readings follow and only the changed ones count; a HELLO numbered 0 is a boot.
        restated = self.online and self.hello is not None and msg.seq != 0 and (
            msg.board_id == self.hello.board_id)
        self.hello, self._last_seq = msg, msg.seq
        self.last_valid_ms, self._valid_at = arrival_ms, self.transport.now_ms()
        if restated:
            self._board_clock.to_local(msg.t, arrival_ms)
            return
        self._told.clear()
        self._board_clock.reset()
        self._board_clock.to_local(msg.t, arrival_ms)
        self.looks = None  # until the hub's SLOTS, which follows its HELLO
        self._set_online("hello", arrival_ms)

    def _check_seq(self, seq: int) -> None:
        if self._last_seq is not None and seq != (self._last_seq + 1) % linecodec.SEQ_WRAP:
            self.seq_gaps += 1
            self._ask_again()
        self._last_seq = seq

    def _ask_again(self) -> None:
        """Lines went missing: ask the hub to restate its readings (not too often)."""
        now = self.transport.now_ms()
        if now - self._asked_again_at >= ASK_AGAIN_MS:
            self._asked_again_at = now
            self.asked_again += 1
            self.send(linecodec.who())

    def _set_online(self, reason: str, t_ms: float) -> None:
        self.online = True
        log.info("hub %s online (%s) on %s", self.device_id, reason, self.port)
        self.sink.device(self._info(True, reason, t_ms))

    def _offline(self, reason: str) -> None:
        self.offline_reason = reason
        if not self.online:
            return
        self.online = False
        self.looks = None
        self._told.clear()
        level = logging.INFO if reason == "stopped" else logging.WARNING  # a clean stop is no alarm
        log.log(level, "hub %s offline: %s", self.device_id, reason)
        self.sink.device(self._info(False, reason, self.clock.now_ms()))

    def _info(self, online: bool, reason: str, t_ms: float) -> DeviceInfo:
        hello, looks = self.hello, self.looks
        return DeviceInfo(self.device_id, "serial", "hub", online, reason, t_ms, None,
                          hello.firmware if hello else None, self.port, self.settings.name,
                          looks.slot_us if looks else None, looks.seats if looks else ())

    def _drop(self, reason: str) -> None:
        self.dropped[reason] += 1
        now = self.transport.now_ms()
        if now - self._drop_log_at >= DROP_LOG_MS:
            total = sum(self.dropped.values())
            log.warning("hub %s: dropped %d line(s) since the last report (%s so far)",
                        self.settings.name, total - self._drops_logged,
                        ", ".join(f"{r} {n}" for r, n in sorted(self.dropped.items())))
            self._drops_logged, self._drop_log_at = total, now

    def _fact(self, kind: str, seat: int, value: object, t_ms: float) -> None:
        if kind in ("raised", "posture"):  # sent on change, and restated after `WHO`
            if self._told.get((kind, seat), self) == value:
                return
            self._told[kind, seat] = value
        self.sink.fact(Fact(kind, seat, value, t_ms, self.device_id))  # type: ignore[arg-type]
