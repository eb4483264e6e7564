"""Who may hold one of the server's connections: limits per client address and in total,
with a share kept for connections that proved the Godfather's session or a seat's claim.

A connection proves nothing before its first request, so when the unproven share is full
a newcomer takes the place of the oldest unproven connection that is waiting idle (no
request under way, no stream), as servers shed slow-loris clients; if none waits, the
newcomer is closed at once. Refusals are counted and logged once a minute (`Tally`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


class Tally:
    """Counts of what a flood causes, written as one log line a minute at most."""

    def __init__(self, subject: str, every_s: float = 60.0) -> None:
        self.subject, self.every_s = subject, every_s
        self._counts: Counter[str] = Counter()
        self._told = time.monotonic() - every_s
        self._lock = threading.Lock()

    def note(self, what: str) -> None:
        with self._lock:
            self._counts[what] += 1
            now = time.monotonic()
            if now - self._told < self.every_s:
                return
            self._told, counts, self._counts = now, self._counts, Counter()
        log.warning("%s: %s", self.subject, ", ".join(f"{n} {w}" for w, n in counts.items()))


@dataclass(frozen=True)
class Limits:
    total: int  # connections open at once, streams included
    reserved: int  # of them, kept for proven connections (the Godfather's, seated phones')
    per_address: int  # from one client address


class Conn:
    """One client connection, as the gate counts it. `idle` is the server's to set: True
    while it waits for a request (the only state in which it may be shed)."""

    __slots__ = ("address", "idle", "open", "proven")

    def __init__(self, address: str) -> None:
        self.address, self.proven, self.idle, self.open = address, False, True, True


class Gate:
    """The counts; thread-safe (a stream's connection is given back from the stream loop)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.tally = Tally("dashboard connections (limits: dashboard.max_connections "
                           f"{limits.total}, max_per_address {limits.per_address})")
        self._lock = threading.Lock()
        self._conns: dict[Conn, None] = {}  # in the order they came
        self._per_address: Counter[str] = Counter()
        self._unproven = 0

    def admit(self, address: str) -> tuple[Conn | None, list[Conn]]:
        """A new connection from `address` (None: close it at once) and the idle ones it
        takes the place of (for the server to close)."""
        with self._lock:
            shed: list[Conn] = []
            if self._per_address[address] >= self.limits.per_address:
                shed = self._oldest_idle(lambda c: c.address == address)
                admitted = bool(shed)
            elif (self._unproven >= self.limits.total - self.limits.reserved
                  or len(self._conns) >= self.limits.total):
                shed = self._oldest_idle(lambda c: True)
                admitted = bool(shed)
            else:
                admitted = True
            for old in shed:
                self._drop(old)
            conn = Conn(address) if admitted else None
            if conn is not None:
                self._conns[conn] = None
                self._per_address[address] += 1
                self._unproven += 1
        for _ in shed:
            self.tally.note("idle connections closed to make room")
        if conn is None:
            self.tally.note("connections refused")
        return conn, shed

    def prove(self, conn: Conn) -> None:
        """The connection showed the Godfather's session or a seat's claim: it is kept."""
        with self._lock:
            if conn.open and not conn.proven:
                conn.proven = True
                self._unproven -= 1

    def release(self, conn: Conn) -> None:
        """The connection has closed (twice is once)."""
        with self._lock:
            self._drop(conn)

    @property
    def count(self) -> int:
        with self._lock:
            return len(self._conns)

    def _oldest_idle(self, fits: Callable[[Conn], bool]) -> list[Conn]:
        for conn in self._conns:
            if conn.idle and not conn.proven and fits(conn):
                return [conn]
        return []

    def _drop(self, conn: Conn) -> None:
        if not conn.open:
            return
        conn.open = False
        del self._conns[conn]
        self._per_address[conn.address] -= 1
        if not self._per_address[conn.address]:
            del self._per_address[conn.address]
        if not conn.proven:
            self._unproven -= 1
