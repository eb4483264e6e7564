"""Turning raw, noisy readings into facts; pure state machines fed with timestamps.

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


class AimFilter:
    """Which seat a gun aims at, from the receiver's raw, flickering target.

    A seat counts once it is seen for `acquire_ms`; gaps in sight shorter than
    `release_ms` are bridged, so a brief dropout neither clears a target nor restarts its
    acquisition. A gap that lasts `release_ms` clears the aim, stamped at the gap's start.
    A different seat replaces the current one once it has been seen for `acquire_ms`.
    """

    def __init__(self, acquire_ms: float, release_ms: float, emit: Emit) -> None:
        self.acquire_ms, self.release_ms, self._emit = acquire_ms, release_ms, emit
        self.target: int | None = None  # what counts now
        self.known = False  # whether `target` was ever emitted
        self.dropouts = 0  # gaps bridged
        self._seen: int | None = None  # seat in sight, gaps bridged
        self._seen_since = 0.0
        self._gap_since: float | None = None
        self._fed = False

    def reset(self) -> None:
        """Forget everything (the board went away); the next reading starts afresh."""
        self.target, self.known, self._seen, self._gap_since = None, False, None, None
        self._fed = False

    def feed(self, value: int | None, t_ms: float) -> None:
        if not self._fed:
            self._fed, self._seen_since = True, t_ms
        if value is None:
            if self._seen is not None and self._gap_since is None:
                self._gap_since = t_ms
            return
        if value == self._seen:
            if self._gap_since is not None:
                self.dropouts += 1
            self._gap_since = None
            return
        self._seen, self._seen_since, self._gap_since = value, t_ms, None

    def poll(self, now_ms: float) -> None:
        if not self._fed:
            return
        if self._gap_since is not None and now_ms - self._gap_since >= self.release_ms:
            self._seen, self._seen_since, self._gap_since = None, self._gap_since, None
        if self._seen is None:
            if self.target is not None or not self.known:
                self._set(None, self._seen_since)
        elif (self._seen != self.target and self._gap_since is None
              and now_ms - self._seen_since >= self.acquire_ms):
            self._set(self._seen, self._seen_since)

    def next_deadline(self) -> float | None:
        if self._gap_since is not None:
            return self._gap_since + self.release_ms
        if self._seen is not None and self._seen != self.target:
            return self._seen_since + self.acquire_ms
        return None

    def _set(self, target: int | None, t_ms: float) -> None:
        self.target, self.known = target, True
        self._emit(target, t_ms)
