"""When a sensed aim or posture counts: the snapshot rules, pure functions of timestamps.

Facts carry the time they *happened* (the source's clock mapped onto ours), so a
message that arrives late but happened before the cut-off still counts, and one that
happened after it never does, whatever order the messages arrive in.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Timing:
    """The windows around "three" (milliseconds); defaults justified in docs/REFEREE.md."""

    beat_ms: float = 800.0  # between "one", "two" and "three"
    hold_ms: float = 500.0  # the aim rule's hold (sensors.filters.hold_ms): an aim is held
    too_slow_ms: float = 1000.0  # by then it must have been held: else too slow
    settle_ms: float = 150.0  # wait this long after the cut-off for late messages
    posture_ms: float = 700.0  # a standee counts as down if down this long after "three"


Aim = int | tuple[int, ...] | None  # a held seat, the seats of an ambiguous aim, or none


HORIZON_MS = 60_000.0  # a track forgets changes older than this before its newest one


class Track:
    """One sensed value over time: (t, value) changes in time order, whatever the arrival order.

    Bounded: changes more than `HORIZON_MS` older than the newest fold into `initial`, the
    value in force since "forever", which is all a countdown or an order looks back to.
    """

    def __init__(self, initial: object = None) -> None:
        self.times: list[float] = []
        self.values: list[object] = []
        self.initial = initial

    def add(self, t: float, value: object) -> None:
        i = bisect.bisect_right(self.times, t)
        self.times.insert(i, t)
        self.values.insert(i, value)
        oldest = self.times[-1] - HORIZON_MS
        if self.times[0] < oldest:
            i = bisect.bisect_left(self.times, oldest)
            self.initial = self.values[i - 1]
            del self.times[:i], self.values[:i]

    def at(self, t: float) -> object:
        """The value in force at time t (the last change at or before t)."""
        i = bisect.bisect_right(self.times, t)
        return self.values[i - 1] if i else self.initial

    def changes(self, until: float) -> list[tuple[float, object]]:
        i = bisect.bisect_right(self.times, until)
        return list(zip(self.times[:i], self.values[:i], strict=True))



def aim_intervals(aim: Track, raised: Track | None, until: float,
                  ) -> list[tuple[float, float | None, int | tuple[int, ...]]]:
    """(start, end or None if still held, aim) while the gun is raised and aims somewhere.

    `aim` is a seat or, when the gun saw two targets, the tuple of their seats. A gun
    without a tilt sensor (`raised` None) counts as always raised.
    """
    changes: list[tuple[float, str, object]] = [(t, "aim", v) for t, v in aim.changes(until)]
    if raised is not None:
        changes += [(t, "raised", v) for t, v in raised.changes(until)]
    changes.sort(key=lambda c: c[0])
    target, up = aim.initial, True if raised is None else bool(raised.initial)
    out: list[tuple[float, float | None, Any]] = []
    if up and target is not None:  # held since before anything was sensed (an override)
        out.append((float("-inf"), None, target))
    for t, kind, value in changes:
        if kind == "aim":
            target = value
        else:
            up = bool(value)
        held = target if up else None
        current = out[-1][2] if out and out[-1][1] is None else None
        if held == current:
            continue
        if current is not None:
            out[-1] = (out[-1][0], t, current)
        if held is not None:
            out.append((t, None, held))
    return out


def among(aim: int | tuple[int, ...], valid: set[int]) -> Aim:
    """An aim as the rules can take it: an ambiguous aim whose other seats are not valid
    targets (out of the game, the aimer) is an aim at the one valid seat."""
    seats = [s for s in (aim if isinstance(aim, tuple) else (aim,)) if s in valid]
    if not seats:
        return None
    return seats[0] if len(seats) == 1 else tuple(seats)


@dataclass(frozen=True)
class AimSpan:
    """One span of a gun held up on someone, and what the snapshot made of it (`why`):
    "counted"; "replaced" (a later aim counted); "dropped" (let go before "three");
    "two" (the gun saw two players); "late" (begun too late to be held by the cutoff);
    "not_target" (oneself, or a player out of the game)."""

    start: float
    end: float | None  # None: still held at the cutoff
    seen: int | tuple[int, ...]  # what the gun reported: a seat, or the seats of an ambiguous aim
    aim: Aim  # as the rules can take it (`among`)
    why: str


def aim_spans(aim: Track, raised: Track | None, three: float, timing: Timing,
              valid: set[int]) -> list[AimSpan]:
    """Every span a countdown reads, each with why it counted or did not.

    The sensors report an aim only once it has been held `hold_ms`, stamped when it began,
    so an aim counts if it began by three + too_slow - hold (held, then, by the too-slow
    limit) and was not dropped before "three"; the latest such aim wins (a player may
    correct).
    """
    decide = three + timing.too_slow_ms
    spans: list[AimSpan] = []
    for start, end, value in aim_intervals(aim, raised, decide):
        stop = decide if end is None else min(end, decide)
        counted = among(value, valid)
        why = ("not_target" if counted is None else "dropped" if stop <= three
               else "two" if isinstance(counted, tuple)
               else "late" if start > decide - timing.hold_ms else "held")
        spans.append(AimSpan(start, None if end is None or end > decide else end, value,
                             counted, why))
    held = [i for i, s in enumerate(spans) if s.why == "held"]
    best = max(held, key=lambda i: (spans[i].start, i), default=None)
    return [replace(s, why="counted" if i == best else "replaced") if s.why == "held" else s
            for i, s in enumerate(spans)]


def aim_snapshot(aim: Track, raised: Track | None, three: float, timing: Timing,
                 valid: set[int]) -> Aim:
    """The aim a gun held up at "three" (see `aim_spans`). Failing a counted one, a gun
    that saw two players in that span is ambiguous (a tuple: the Godfather decides); a
    clear aim held at "three" stands even if the gun wavered after it. None: too slow."""
    spans = aim_spans(aim, raised, three, timing, valid)
    chosen = next((s for s in spans if s.why == "counted"), None) or next(
        (s for s in spans if s.why == "two"), None)
    return None if chosen is None else chosen.aim


def new_aim(aim: Track, raised: Track | None, since: float, now: float, timing: Timing,
            valid: set[int]) -> int | None:
    """The first valid target held for hold_ms after `since` (an order).

    A gun already on an allowed target when the order comes counts once it has stayed there
    hold_ms more: the player obeys by keeping it there, as a player who was too slow would.
    An ambiguous aim waits (for a clear one, or the Godfather).
    """
    for start, end, value in aim_intervals(aim, raised, now):
        stop = now if end is None else end
        target = among(value, valid)
        if isinstance(target, int) and stop - max(start, since) >= timing.hold_ms:
            return target
    return None


def posture_snapshot(posture: Track, three: float, timing: Timing) -> bool:
    """True if the standee was down at three + posture_ms."""
    return posture.at(three + timing.posture_ms) == "down"
