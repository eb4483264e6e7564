"""Every gun's looks, round by round, from the hub's `SEEN` and `HB` lines, into facts.

The hub reports only rounds in which some gun saw something (and the first empty round
after them); every other round saw nothing. `HB` gives the round in progress, so rounds
that passed unreported are fed as empty looks too, timed from the slot schedule. Each gun
has one `aimrule.AimTracker`, the rule the hub's lock LED and the referee use as well,
and the aimer's indicator is `aimrule.lock` of its last looks, reported on change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from companion.wire import aimrule
from companion.wire.linecodec import ROUND_WRAP

Emit = Callable[[str, int, Any, float], None]  # (kind, seat, value, t_ms)


def seats_of(mask: int) -> tuple[int, ...]:
    return tuple(s for s in range(1, 9) if mask >> (s - 1) & 1)


class HubLooks:
    """One slot schedule's looks. `start_ms`: when the schedule was announced, when every gun
    aims at nobody. A round that ended before it may be reported after it (a hub answers
    `WHO` before it reports the rounds it was running); what such looks begin is dated from
    the announcement, so the facts keep the order they arrive in."""

    def __init__(self, slot_us: int, seats: tuple[int, ...], hold_ms: float, emit: Emit,
                 start_ms: float = float("-inf")) -> None:
        self.slot_us, self.seats, self._emit, self.start_ms = slot_us, seats, emit, start_ms
        round_us = (len(seats) + 1) * slot_us
        self.round_ms = round_us / 1000
        self.window = int(aimrule.window_rounds(int(hold_ms), round_us))
        self._trackers = {s: aimrule.AimTracker(self.window) for s in seats}
        self._recent = {s: deque([0] * aimrule.LOCK_LOOKS, aimrule.LOCK_LOOKS) for s in seats}
        self.locks = dict.fromkeys(seats, 0)
        self.looks = 0  # rounds fed, reported or not
        self.saw = dict.fromkeys(seats, 0)  # per gun: looks that saw some badge
        self._last: int | None = None  # the last round fed
        self._quiet = 0  # empty rounds in a row: past window + lock, more change nothing
        self._settle = self.window + aimrule.LOCK_LOOKS + 2

    def seen(self, rnd: int, t_ms: float, masks: tuple[int, ...], moving: int = 0) -> bool:
        """A `SEEN` round ending at `t_ms` (`moving`: the guns whose looks count for
        nothing, bit s-1); False when it is stale (already passed)."""
        if len(masks) != len(self.seats) or not self._catch_up(rnd - 1, t_ms - self.round_ms):
            return False  # the hub's schedule is not the one we know, or a stale round
        self._look(rnd, t_ms, masks, moving)
        return True

    def passed(self, in_progress: int, t_ms: float) -> None:
        """`HB`: the rounds before `in_progress`, unreported, saw nothing."""
        self._catch_up(in_progress - 1, t_ms)

    def _catch_up(self, upto: int, t_end_ms: float) -> bool:
        """Empty looks for the rounds after the last one fed up to `upto` (ending at t)."""
        upto %= ROUND_WRAP
        if self._last is None:
            self._last = upto
            return True
        gap = (upto - self._last) % ROUND_WRAP
        if gap >= ROUND_WRAP // 2:
            return False  # `upto` has passed already: a stale or repeated round
        empty = (0,) * len(self.seats)
        fed = min(gap, max(0, self._settle - self._quiet))  # later empty looks change nothing
        for k in range(1, fed + 1):
            self._look(None, t_end_ms - (gap - k) * self.round_ms, empty)
        self.looks += gap - fed
        self._quiet += gap - fed
        self._last = upto
        return True

    def _look(self, rnd: int | None, t_ms: float, masks: tuple[int, ...], moving: int = 0
              ) -> None:
        self.looks += 1
        if rnd is not None:
            self._last = rnd % ROUND_WRAP
        self._quiet = 0 if any(masks) else self._quiet + 1
        for seat, mask in zip(self.seats, masks, strict=True):
            if mask:
                self.saw[seat] += 1
            mask = aimrule.still_look(mask, not moving >> (seat - 1) & 1)
            change = self._trackers[seat].look(t_ms, mask)
            if change is not None:
                state, value, since = change
                self._emit("aim", seat, _aim_value(state, value), max(since, self.start_ms))
            recent = self._recent[seat]
            recent.append(mask)
            lock = aimrule.lock(list(recent))
            if lock != self.locks[seat]:
                self.locks[seat] = lock
                self._emit("lock", seat, lock, max(t_ms, self.start_ms))


def _aim_value(state: Any, value: int) -> int | tuple[int, ...] | None:
    if state == aimrule.HELD:
        return value
    if state == aimrule.AMBIGUOUS:
        return seats_of(value)
    return None
