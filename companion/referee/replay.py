"""Show me: what a countdown read, kept for disputes.

When a countdown is settled, the readings the referee used are turned into a timeline per
player, from a second before "three" to the cutoff: when each aim began and ended, its
hold, the gun lowered, the standee down, the sweeps the aim rule never held, and why each
counted or did not, in words. Built from the same classification the snapshot uses
(`timing.aim_spans`, `timing.posture_snapshot`), so the replay and the decision cannot
disagree. Times are milliseconds from "three".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from companion.referee.board import Text, text
from companion.referee.game import Game
from companion.referee.readings import Readings
from companion.referee.stage import Stage, valid_targets
from companion.referee.timing import AimSpan, Timing, Track, aim_spans, posture_snapshot
from companion.rules import waiting_for
from companion.rules.phases import reads_postures, still_counting
from companion.rules.state import Player

WINDOW_MS = 1000.0  # a replay starts this long before "three"


def record(game: Game, stage: Stage, readings: Readings, timing: Timing,
           number: int) -> dict[str, Any] | None:
    """The replay of the countdown `stage` settles now (before its actions are applied):
    None if taps moved the game on during the count (it read nothing)."""
    s = game.state
    if not still_counting(s, stage.step):
        return None
    who = [s.players[s.index[name]] for name in waiting_for(s)]
    courage = reads_postures(stage.step)
    cutoff = timing.posture_ms if courage else timing.too_slow_ms
    rows = [courage_row(game, p, readings, stage.three_ms, timing) if courage
            else aim_row(game, p, readings, stage.three_ms, timing) for p in who]
    return {"id": number, "round": s.round, "step": stage.step, "kid": stage.name == "kid",
            "from_ms": -WINDOW_MS, "cutoff_ms": cutoff, "hold_ms": timing.hold_ms,
            "beats_ms": [round(b - stage.three_ms) for b in stage.beats_ms
                         if b - stage.three_ms >= -WINDOW_MS],
            "rows": rows}


def when(ms: float) -> Text:
    """A moment said from "three": "120 ms after three", "at three"."""
    if round(ms) == 0:
        return text("when.at")
    return text("when.after" if ms > 0 else "when.before", ms=abs(round(ms)))


def clip(ms: float, lo: float, hi: float) -> int:
    return round(min(max(ms, lo), hi))


def aim_row(game: Game, p: Player, readings: Readings, three: float,
            timing: Timing) -> dict[str, Any]:
    seat = game.seat_of[p.name]
    aim, raised = readings.aim_tracks(seat)
    decide, start = three + timing.too_slow_ms, three - WINDOW_MS

    def rel(t: float) -> int:
        return clip(t - three, -WINDOW_MS, timing.too_slow_ms)

    def named(seen: int | tuple[int, ...]) -> list[str]:
        seats = seen if isinstance(seen, tuple) else (seen,)
        return [game.player_at.get(x, f"#{x}") for x in seats]

    spans = [sp for sp in aim_spans(aim, raised, three, timing, valid_targets(game, p.name))
             if (decide if sp.end is None else sp.end) > start]
    bars, reasons = [], []
    for sp in spans:
        stop = decide if sp.end is None else sp.end
        bars.append({"from": rel(sp.start), "to": rel(stop), "why": sp.why,
                     "target": named(sp.seen), "hold_to": rel(sp.start + timing.hold_ms)})
        reasons.append(aim_reason(sp, named(sp.seen), raised, three, stop, timing))
    for first, last, badge in readings.matrix.sightings(seat, start, decide):
        if badge != seat and not any(held_at(sp, badge, first, last) for sp in spans):
            bars.append({"from": rel(first), "to": rel(last), "why": "swept",
                         "target": named(badge)})
            reasons.append(text("why.swept", target=named(badge)[0],
                                seen=round(last - first), hold=round(timing.hold_ms)))
    counted = next((sp for sp in spans if sp.why == "counted"), None)
    unclear = next((sp for sp in spans if sp.why == "two"), None)
    if not reasons:  # no aim, no sweep: the gun never held anyone
        reasons.append(text("why.nothing"))
    if counted is not None and isinstance(counted.aim, int):
        value: dict[str, Any] = {"target": named(counted.aim)[0]}
        verdict = text("verdict.aims_at", target=value["target"])
    elif unclear is not None and isinstance(unclear.aim, tuple):
        value = {"unclear": named(unclear.aim)}
        verdict = text("verdict.unclear", names=value["unclear"])
    else:
        value, verdict = {"target": None}, text("verdict.too_slow")
    return {"player": p.name, "seat": seat, "verdict": verdict, "reasons": reasons,
            "bars": bars + gun_down(raised, start, decide, rel), "counted": value}


def held_at(sp: AimSpan, badge: int, first: float, last: float) -> bool:
    """The aim span covers that sighting of the badge: it was an aim, not a sweep."""
    seen = sp.seen if isinstance(sp.seen, tuple) else (sp.seen,)
    end = math.inf if sp.end is None else sp.end
    return badge in seen and sp.start <= last and first <= end


def aim_reason(sp: AimSpan, names: list[str], raised: Track | None, three: float,
               stop: float, timing: Timing) -> Text:
    target = names[0]
    if sp.why in ("counted", "replaced") and sp.start == -math.inf:
        return text(f"why.{sp.why}_by_hand", target=target)
    if sp.why in ("counted", "replaced"):
        held = round(min(stop, three + timing.too_slow_ms) - sp.start)
        return text(f"why.{sp.why}", target=target, held=held)
    if sp.why == "dropped":
        lowered = raised is not None and raised.at(stop) is False
        return text("why.lowered" if lowered else "why.dropped", target=target,
                    when=when(stop - three))
    if sp.why == "two":
        return text("why.two", names=names)
    if sp.why == "late":
        return text("why.late", target=target, when=when(sp.start - three),
                    hold=round(timing.hold_ms))
    return text("why.not_target", target=target)


def gun_down(raised: Track | None, start: float, decide: float,
             rel: Callable[[float], int]) -> list[dict[str, Any]]:
    """The spans of the window the gun was down (a gun without a tilt switch is up)."""
    if raised is None:
        return []
    return [{"from": rel(a), "to": rel(b), "why": "gun_down", "target": []}
            for a, b in spans_of(raised, lambda v: v is False, start, decide)]


def spans_of(track: Track, match: Callable[[object], bool], start: float,
             end: float) -> list[tuple[float, float]]:
    """The spans between start and end in which the track's value matches."""
    out: list[tuple[float, float]] = []
    since = start if match(track.at(start)) else None
    for t, value in track.changes(end):
        if t <= start:
            continue
        if match(value) and since is None:
            since = t
        elif not match(value) and since is not None:
            out.append((since, t))
            since = None
    return out + ([(since, end)] if since is not None else [])


def courage_row(game: Game, p: Player, readings: Readings, three: float,
                timing: Timing) -> dict[str, Any]:
    seat = game.seat_of[p.name]
    posture = readings.track(seat, "posture")
    cutoff, start = three + timing.posture_ms, three - WINDOW_MS
    decide = cutoff + timing.settle_ms

    def rel(t: float) -> int:
        return clip(t - three, -WINDOW_MS, timing.posture_ms)

    down = posture is not None and posture_snapshot(posture, three, timing)
    lying = [] if posture is None else spans_of(posture, lambda v: v == "down", start, decide)
    bars = [{"from": rel(a), "to": rel(b), "why": "down", "target": []} for a, b in lying]
    reason = courage_reason(posture, lying, down, three, cutoff, start, timing)
    return {"player": p.name, "seat": seat, "bars": bars, "reasons": [reason],
            "verdict": text("verdict.down" if down else "verdict.up"),
            "counted": {"down": down}}


def courage_reason(posture: Track | None, lying: list[tuple[float, float]], down: bool,
                   three: float, cutoff: float, start: float, timing: Timing) -> Text:
    limit = round(timing.posture_ms)
    if posture is None:
        return text("why.no_standee")
    if down:
        went = max((a for a, _b in lying if a <= cutoff), default=start)
        return text("why.lying") if went <= start else text(
            "why.lay_down", when=when(went - three), cutoff=limit)
    if lying and lying[0][0] > cutoff:
        return text("why.down_late", when=when(lying[0][0] - three), cutoff=limit)
    if lying:
        return text("why.up_again", when=when(lying[0][0] - three),
                    again=when(lying[0][1] - three))
    return text("why.stood")
