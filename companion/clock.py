"""Time for everything that stamps or waits: one seam, so tests can stop time.

`now_ms()` is milliseconds on the Unix epoch scale that never jumps backwards: a
monotonic clock anchored to the wall clock once, at start. Facts stamped with it can be
compared across programs (within NTP accuracy) and ordered safely inside one.
"""

from __future__ import annotations

import threading
import time
from collections import deque
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


class BoardClock:
    """A board's millisecond clock mapped onto the companion's.

    `arrival - T` is the offset plus the transport delay; its minimum over a sliding
    window is the offset with the least delay, so `T + offset` is when the event happened,
    within the USB latency. T wraps at `wrap` and is unwrapped against the previous value.
    """

    def __init__(self, wrap: int, window_ms: float = 5000.0) -> None:
        self.wrap, self.window_ms = wrap, window_ms
        self.reset()

    def reset(self) -> None:
        """A board rebooted (new HELLO with a smaller T): start the mapping afresh."""
        self._last_raw: int | None = None
        self._unwrapped = 0
        self._samples: deque[tuple[float, float]] = deque()  # (arrival, offset) ascending offset

    def to_local(self, t_raw: int, arrival_ms: float) -> float:
        """The board time `t_raw` on the companion's clock, learning from this arrival."""
        if self._last_raw is not None:
            step = (t_raw - self._last_raw) % self.wrap
            if step > self.wrap // 2:  # went backwards a little: late line, not a wrap
                step -= self.wrap
            self._unwrapped += step
        else:
            self._unwrapped = t_raw
        self._last_raw = t_raw
        offset = arrival_ms - self._unwrapped
        samples = self._samples
        while samples and samples[-1][1] >= offset:  # a monotonic deque of minima
            samples.pop()
        samples.append((arrival_ms, offset))
        while samples[0][0] < arrival_ms - self.window_ms:
            samples.popleft()
        return self._unwrapped + samples[0][1]
