"""A simulated gun board: speaks the real line protocol into a pseudo-terminal.

The serial backend opens the pty's slave side like a real USB port, through a stable
symlink (as /dev/serial/by-id gives for real boards). Unplugging closes the pty and
removes the link; plugging back creates a new pty behind the same link, and the board
carries on with its own clock and sequence, as a real board that lost its host does.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
import tty

from companion.clock import SYSTEM_CLOCK, Clock
from companion.sensors.lines import LineSplitter
from companion.sensors.protocol import SEQ_WRAP, T_WRAP
from companion.wire.linecodec import LineError, decode, encode

log = logging.getLogger(__name__)

FIRMWARE = "0.0.0"
HEARTBEAT_MS = 200


class SimBoard:
    def __init__(self, board_id: str, seat: int, link_path: str, kind: str = "gun",
                 clock: Clock = SYSTEM_CLOCK) -> None:
        self.board_id, self.seat, self.link_path, self.kind = board_id, seat, link_path, kind
        self.aim: int | None = None
        self.tilt = False
        self.plugged = False
        self.written = 0
        self.overflows = 0  # lines dropped because nobody read the port
        self.commands: list[list[str]] = []
        self._seq = 0
        self.clock = clock  # the board's own clock: a fake one makes a whole table fake-timed
        self._boot_ms = clock.now_ms()
        self._master = self._slave = -1
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> SimBoard:
        self.plug()
        self._thread = threading.Thread(target=self._run, name=f"sim-{self.board_id}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(2)
        self.unplug()

    def plug(self) -> None:
        with self._lock:
            if self.plugged:
                return
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)
            os.set_blocking(self._master, False)
            tmp = f"{self.link_path}.new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(os.ttyname(self._slave), tmp)
            os.replace(tmp, self.link_path)
            self.plugged = True
            self._hello()

    def unplug(self) -> None:
        with self._lock:
            if not self.plugged:
                return
            self.plugged = False
            if os.path.lexists(self.link_path):
                os.unlink(self.link_path)
            os.close(self._master)
            os.close(self._slave)

    def set_aim(self, target: int | None) -> None:
        with self._lock:
            self.aim = target
            self.send("AIM", "-" if target is None else target)

    def set_tilt(self, raised: bool) -> None:
        with self._lock:
            self.tilt = raised
            self.send("TILT", int(raised))

    def now(self) -> int:
        return int(self.clock.now_ms() - self._boot_ms) % T_WRAP

    def send(self, kind: str, *fields: object) -> None:
        """One protocol line with the next SEQ and the board's clock."""
        with self._lock:
            line = encode([kind, self._seq, self.now(), *fields])
            self._seq = (self._seq + 1) % SEQ_WRAP
            self.write(line)

    def write(self, data: bytes) -> None:
        """Raw bytes into the port; dropped (never blocking) when unplugged or full."""
        with self._lock:
            if not self.plugged:
                return
            try:
                if os.write(self._master, data) < len(data):
                    self.overflows += 1  # the rest is lost, as from a full USB buffer
                self.written += 1
            except BlockingIOError:
                self.overflows += 1

    def _hello(self) -> None:
        self.send("HELLO", 1, self.kind, self.board_id, FIRMWARE, self.seat)
        self.send("AIM", "-" if self.aim is None else self.aim)
        self.send("TILT", int(self.tilt))

    def _run(self) -> None:
        splitter = LineSplitter()
        next_hb = time.monotonic() + HEARTBEAT_MS / 1000
        while not self._stop.is_set():
            timeout = max(0.0, next_hb - time.monotonic())
            fd = self._master if self.plugged else -1
            if fd < 0:
                self._stop.wait(timeout)
            else:
                try:
                    ready, _, _ = select.select([fd], [], [], timeout)
                    chunk = os.read(fd, 4096) if ready else b""
                except OSError:
                    chunk = b""  # unplugged under our feet
                for line in splitter.feed(chunk):
                    self._command(line)
            if time.monotonic() >= next_hb:
                next_hb += HEARTBEAT_MS / 1000
                self.send("HB")

    def _command(self, line: bytes) -> None:
        try:
            fields = decode(line)
        except LineError as exc:
            self.send("ERR", "crc" if exc.reason == "bad_crc" else "syntax")
            return
        self.commands.append(fields)
        if fields == ["WHO"]:
            with self._lock:
                self._hello()
        elif fields[0] == "PING" and len(fields) == 2:
            self.send("PONG", fields[1])
        else:
            self.send("ERR", "unknown")  # SLOTS too: a gun has no beacons to schedule
