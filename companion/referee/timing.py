"""When a sensed aim or posture counts: the snapshot rules, pure functions of timestamps.

Facts carry the time they *happened* (the source's clock mapped onto ours), so a
message that arrives late but happened before the cut-off still counts, and one that
happened after it never does, whatever order the messages arrive in.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    """The windows around "three" (milliseconds); defaults justified in docs/REFEREE.md."""

    beat_ms: float = 800.0  # between "one", "two" and "three"
    hold_ms: float = 250.0  # an aim counts once held this long
    late_ms: float = 700.0  # ... and begun no later than this after "three"
    too_slow_ms: float = 1000.0  # by then it must have been held: else too slow
    settle_ms: float = 150.0  # wait this long after the cut-off for late messages
    posture_ms: float = 700.0  # a standee counts as down if down this long after "three"


class Track:
    """One sensed value over time: (t, value) changes in time order, whatever the arrival order."""

    def __init__(self, initial: object = None) -> None:
        self.times: list[float] = []
        self.values: list[object] = []
        self.initial = initial

    def add(self, t: float, value: object) -> None:
        i = bisect.bisect_right(self.times, t)
        self.times.insert(i, t)
        self.values.insert(i, value)

    def at(self, t: float) -> object:
        """The value in force at time t (the last change at or before t)."""
        i = bisect.bisect_right(self.times, t)
        return self.values[i - 1] if i else self.initial

    def changes(self, until: float) -> list[tuple[float, object]]:
        i = bisect.bisect_right(self.times, until)
        return list(zip(self.times[:i], self.values[:i], strict=True))



def aim_intervals(aim: Track, raised: Track | None, until: float,
                  ) -> list[tuple[float, float | None, int]]:
    """(start, end or None if still held, target) while the gun is raised and on a target.

    A gun without a tilt sensor (`raised` None) counts as always raised.
    """
    changes = [(t, "aim", v) for t, v in aim.changes(until)]
    if raised is not None:
        changes += [(t, "raised", v) for t, v in raised.changes(until)]
    changes.sort(key=lambda c: c[0])
    target, up = aim.initial, True if raised is None else bool(raised.initial)
    out: list[tuple[float, float | None, int]] = []
    start: float | None = None
    if up and target is not None:  # held since before anything was sensed (an override)
        start = float("-inf")
        out.append((start, None, target))  # type: ignore[arg-type]
    for t, kind, value in changes:
        if kind == "aim":
            target = value
        else:
            up = bool(value)
        on = up and target is not None
        if start is not None and (not on or (out and out[-1][2] != target)):
            out[-1] = (out[-1][0], t, out[-1][2])
            start = None
        if on and start is None:
            start = t
            out.append((t, None, target))  # type: ignore[arg-type]
    return out


def aim_snapshot(aim: Track, raised: Track | None, three: float, timing: Timing,
                 valid: set[int]) -> int | None:
    """The target a gun held up at "three": begun by three + late, held for hold_ms by
    three + too_slow (an aim held since before "three" counts), on a valid seat; the
    latest such aim wins (a player may correct within the window). None: too slow."""
    decide = three + timing.too_slow_ms
    best: tuple[float, int] | None = None
    for start, end, target in aim_intervals(aim, raised, decide):
        stop = decide if end is None else min(end, decide)
        if (target in valid and start <= three + timing.late_ms and stop > three
                and stop - start >= timing.hold_ms and (best is None or start >= best[0])):
            best = (start, target)
    return None if best is None else best[1]


def new_aim(aim: Track, raised: Track | None, since: float, now: float, timing: Timing,
            valid: set[int]) -> int | None:
    """The first valid target held for hold_ms after `since` (an order).

    A gun already on an allowed target when the order comes counts once it has stayed there
    hold_ms more: the player obeys by keeping it there, as a player who was too slow would.
    """
    for start, end, target in aim_intervals(aim, raised, now):
        stop = now if end is None else end
        if target in valid and stop - max(start, since) >= timing.hold_ms:
            return target
    return None


def posture_snapshot(posture: Track, three: float, timing: Timing) -> bool:
    """True if the standee was down at three + posture_ms."""
    return posture.at(three + timing.posture_ms) == "down"
