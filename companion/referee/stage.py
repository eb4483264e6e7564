"""The referee's stage inside a rules step, and what it reads from the sensors: pure
functions of (game, stage, readings, now) that return stages and actions, never apply them.

A countdown counts "one, two, three", then, once late messages have had time to arrive,
reads each gun's aim or each standee's posture by when it happened; the Kid aims in a
window of its own; after a privilege order the ordered gun's new target is watched for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.referee.commands import CommandError
from companion.referee.game import Game
from companion.referee.readings import Readings
from companion.referee.timing import (
    Timing,
    aim_intervals,
    aim_snapshot,
    among,
    new_aim,
    posture_snapshot,
)
from companion.rules import Action, GameState
from companion.rules.powers import KID

AIM_KINDS = ("aim", "raised")
POSTURE_KINDS = ("posture",)


@dataclass(frozen=True)
class Stage:
    """What the referee is timing or watching: idle, countdown, kid or reaim."""

    name: str = "idle"
    step: str | None = None  # holdup or courage, for a countdown
    beats_ms: tuple[float, ...] = ()
    three_ms: float = 0.0
    decide_ms: float = 0.0
    since_ms: float = 0.0  # reaim: when the order was given
    beat: int = 0  # beats announced so far

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.name in ("countdown", "kid"):
            out.update(step=self.step, beat=self.beat, beats_ms=list(self.beats_ms),
                       cutoff_ms=self.three_ms, decide_ms=self.decide_ms)
        return out


@dataclass(frozen=True)
class Sensed:
    """An action read from the sensors, with the seat and the readings it came from."""

    action: Action
    seat: int
    kinds: tuple[str, ...]


def countdown(state: GameState, stage: Stage, paused: bool, now: float,
              timing: Timing) -> Stage:
    """The countdown started now, or a CommandError saying why there is none."""
    step = None
    if state.phase == "holdup" and any(not p.aimed for p in state.living()):
        step = "holdup"
    elif state.phase == "courage" and any(p.down is None for p in state.living()):
        step = "courage"
    if step is None or stage.name != "idle" or paused:
        raise CommandError(422, "no countdown now: the hold-up and courage steps have one, "
                                "once every card is down", rule="R3")
    beats = tuple(now + i * timing.beat_ms for i in range(3))
    wait = timing.too_slow_ms if step == "holdup" else timing.posture_ms
    return Stage("countdown", step, beats, beats[-1], beats[-1] + wait + timing.settle_ms,
                 beat=1)


def beat(stage: Stage, now: float) -> Stage:
    """The stage with every beat due by now announced."""
    if stage.name != "countdown" or stage.beat >= 3 or now < stage.beats_ms[stage.beat]:
        return stage
    return replace(stage, beat=sum(1 for b in stage.beats_ms if now >= b))


def valid_targets(game: Game, name: str) -> set[int]:
    return {game.seat_of[p.name] for p in game.state.living() if p.name != name}


def snapshot(game: Game, stage: Stage, readings: Readings,
             timing: Timing) -> tuple[list[Sensed], dict[str, list[int]]]:
    """What the countdown read: the actions to apply, and the ambiguous aims (player ->
    the seats the gun saw) that the Godfather decides."""
    s = game.state
    if stage.step == "courage":
        out = []
        for p in [p for p in s.living() if p.down is None]:
            seat = game.seat_of[p.name]
            posture = readings.track(seat, "posture")
            down = posture is not None and posture_snapshot(posture, stage.three_ms, timing)
            out.append(Sensed(Action("courage", p.name, down=down), seat, POSTURE_KINDS))
        return out, {}
    waiting = [p for p in s.living() if not p.aimed]
    kid_turn = stage.name == "kid" or all(p.power == KID for p in waiting)
    aims, ambiguous = [], {}
    for p in [p for p in waiting if (p.power == KID) == kid_turn]:
        seat = game.seat_of[p.name]
        aim, raised = readings.aim_tracks(seat)
        target = aim_snapshot(aim, raised, stage.three_ms, timing, valid_targets(game, p.name))
        if isinstance(target, tuple):  # the gun saw two players: not ours to guess
            ambiguous[p.name] = list(target)
            continue
        action = Action("aim", p.name, target=game.player_at[target] if target else None)
        aims.append(Sensed(action, seat, AIM_KINDS))
    return aims, ambiguous


def after_snapshot(state: GameState, now: float, timing: Timing) -> Stage:
    """The Kid's own window once the others' aims are known, else idle."""
    kid = next((p for p in state.living() if p.power == KID and not p.aimed), None)
    if kid is None or state.phase != "holdup":
        return Stage()
    return Stage("kid", "holdup", (now,), now, now + timing.too_slow_ms + timing.settle_ms,
                 beat=3)


def reaim_targets(game: Game) -> tuple[int, set[int]]:
    """The ordered gun's seat, and the seats it may turn to (not its old target)."""
    s = game.state
    assert s.ordered is not None
    p = s.players[s.ordered]
    old = {game.seat_of[s.players[p.target].name]} if p.target is not None else set()
    return game.seat_of[p.name], valid_targets(game, p.name) - old


def reaim(game: Game, stage: Stage, readings: Readings, now: float,
          timing: Timing) -> Sensed | None:
    """The ordered gun's new aim, once an allowed target has been held after the order."""
    s = game.state
    assert s.ordered is not None
    seat, allowed = reaim_targets(game)
    aim, raised = readings.aim_tracks(seat)
    target = new_aim(aim, raised, stage.since_ms, now, timing, allowed)
    if target is None:
        return None
    name = s.players[s.ordered].name
    return Sensed(Action("aim", name, target=game.player_at[target]), seat, AIM_KINDS)


def reaim_deadline(game: Game, stage: Stage, readings: Readings, now: float,
                   timing: Timing) -> float | None:
    """When the ordered gun's current aim, if it is an allowed one, will have been held."""
    seat, allowed = reaim_targets(game)
    aim, raised = readings.aim_tracks(seat)
    intervals = aim_intervals(aim, raised, now)
    if not intervals or intervals[-1][1] is not None:
        return None
    start, _end, value = intervals[-1]
    if not isinstance(among(value, allowed), int):
        return None
    return max(start, stage.since_ms) + timing.hold_ms


def next_deadline(game: Game | None, stage: Stage, paused: bool, readings: Readings,
                  now: float, timing: Timing) -> float | None:
    """When the stage next has something to do; None: only a fact or a command can."""
    if paused or game is None or stage.name == "idle":
        return None
    if stage.name == "countdown" and stage.beat < 3:
        return stage.beats_ms[stage.beat]
    if stage.name in ("countdown", "kid"):
        return stage.decide_ms
    if game.state.ordered is None:
        return now  # nothing left to watch: the stage ends
    return reaim_deadline(game, stage, readings, now, timing)
