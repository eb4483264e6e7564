"""Time for everything that stamps or waits: one seam, so tests can stop time.

`now_ms()` is milliseconds on the Unix epoch scale that never jumps backwards: a
monotonic clock anchored to the wall clock once, at start. Facts stamped with it can be
compared across programs (within NTP accuracy) and ordered safely inside one.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> float: ...


class MonotonicClock:
    """The real clock: `time.monotonic_ns` shifted onto the epoch at construction."""

    def __init__(self) -> None:
        self._anchor_ns = time.time_ns() - time.monotonic_ns()

    def now_ms(self) -> float:
        return (time.monotonic_ns() + self._anchor_ns) / 1e6


class FakeClock:
    """A clock that moves only when told to; thread-safe."""

    def __init__(self, start_ms: float = 1_700_000_000_000.0) -> None:
        self._now = start_ms
        self._lock = threading.Lock()

    def now_ms(self) -> float:
        with self._lock:
            return self._now

    def advance(self, ms: float) -> float:
        if ms < 0:
            raise ValueError("a clock cannot go backwards")
        with self._lock:
            self._now += ms
            return self._now


SYSTEM_CLOCK = MonotonicClock()
