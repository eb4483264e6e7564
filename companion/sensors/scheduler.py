"""One thread that polls everything timed (switch debouncers, the simulated hub's slots)
when its deadline comes, under one lock.

Readings arrive on many threads (gpiozero's, the serial port's); feeding them through
here serialises them, so facts leave in the order they were decided. Tests with a
FakeClock call `run_due()` after moving the clock.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from companion.clock import Clock
from companion.sensors.filters import Filter


class Timed(Protocol):
    """Anything the scheduler polls at its deadline (a Filter, the simulated hub)."""

    def poll(self, now_ms: float) -> None: ...
    def next_deadline(self) -> float | None: ...


class Scheduler:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.lock = threading.RLock()
        self._wake = threading.Condition(self.lock)
        self._filters: list[Timed] = []
        self._running = False
        self._thread: threading.Thread | None = None

    def add(self, flt: Timed) -> Timed:
        with self.lock:
            self._filters.append(flt)
        return flt

    def feed(self, flt: Filter, value: Any, t_ms: float) -> None:
        with self.lock:
            flt.feed(value, t_ms)
            flt.poll(self.clock.now_ms())
            self._wake.notify()

    def run_due(self) -> None:
        with self.lock:
            now = self.clock.now_ms()
            for flt in self._filters:
                flt.poll(now)

    def start(self) -> None:
        self._running = True
        self._thread = threading.Thread(target=self._loop, name="sensor-filters", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self.lock:
            self._running = False
            self._wake.notify()
        if self._thread:
            self._thread.join(2)

    def _loop(self) -> None:
        with self.lock:
            while self._running:
                self.run_due()
                deadlines = [d for f in self._filters if (d := f.next_deadline()) is not None]
                timeout = None
                if deadlines:
                    timeout = max(0.0, (min(deadlines) - self.clock.now_ms()) / 1000) + 0.0002
                self._wake.wait(timeout)
