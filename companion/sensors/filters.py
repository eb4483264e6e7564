"""Turning raw, noisy switch readings into facts; pure state machines fed with timestamps.

Each filter is fed `(value, t_ms)` as readings arrive and polled with the current time;
it calls `emit(value, t_ms)` when a reading counts, stamped with the time the new state
*began*, so waiting for stability delays a fact but never changes when it happened.
`next_deadline()` tells the scheduler when polling can next change anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

Emit = Callable[[Any, float], None]


class Filter(Protocol):
    def feed(self, value: Any, t_ms: float) -> None: ...
    def poll(self, now_ms: float) -> None: ...
    def next_deadline(self) -> float | None: ...


class Debouncer:
    """A switch's new state counts once it has held for `hold_ms`; shorter ones are bounces."""

    def __init__(self, hold_ms: float, emit: Emit) -> None:
        self.hold_ms, self._emit = hold_ms, emit
        self.stable: bool | None = None
        self.bounces = 0
        self._candidate: bool | None = None
        self._since = 0.0

    def set(self, value: bool, t_ms: float) -> None:
        """Take a state as already settled (a reading at start-up) and emit it."""
        self.stable = self._candidate = value
        self._since = t_ms
        self._emit(value, t_ms)

    def feed(self, value: bool, t_ms: float) -> None:
        if value == self._candidate:
            return
        if self._candidate != self.stable:
            self.bounces += 1  # the previous change did not hold
        self._candidate, self._since = value, t_ms

    def poll(self, now_ms: float) -> None:
        if self._candidate != self.stable and now_ms - self._since >= self.hold_ms:
            self.stable = self._candidate
            self._emit(self.stable, self._since)

    def next_deadline(self) -> float | None:
        if self._candidate == self.stable:
            return None
        return self._since + self.hold_ms
