"""Mapping a board's own millisecond clock onto the companion's (firmware/PROTOCOL.md).

`arrival - T` is the clock offset plus the transport delay; its minimum over a sliding
window is the offset with the least delay, so `T + offset` is when the event happened,
within the USB latency. T wraps at 2^30 and is unwrapped against the previous value.
"""

from __future__ import annotations

from collections import deque

from companion.sensors.protocol import T_WRAP


class BoardClock:
    def __init__(self, window_ms: float = 5000.0) -> None:
        self.window_ms = window_ms
        self.reset()

    def reset(self) -> None:
        """A board rebooted (new HELLO with a smaller T): start the mapping afresh."""
        self._last_raw: int | None = None
        self._unwrapped = 0
        self._samples: deque[tuple[float, float]] = deque()  # (arrival, offset) ascending offset

    def to_local(self, t_raw: int, arrival_ms: float) -> float:
        """The board time `t_raw` on the companion's clock, learning from this arrival."""
        if self._last_raw is not None:
            step = (t_raw - self._last_raw) % T_WRAP
            if step > T_WRAP // 2:  # went backwards a little: late line, not a wrap
                step -= T_WRAP
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
