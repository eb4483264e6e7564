"""The referee's stage inside a rules step, and what it reads from the sensors: pure
functions of (game, stage, readings, now) that return stages and actions, never apply them.

A countdown counts "one, two, three", then, once late messages have had time to arrive,
reads each gun's aim or each standee's posture by when it happened; the Kid aims in a
window of its own; after a privilege order the ordered gun's new target is watched for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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
from companion.referee.view_model import StageView
from companion.rules import Action, GameState, countdown_step, waiting_for
from companion.rules.actions import Aim, Courage
from companion.rules.events import RoundBegun, Wounded
from companion.rules.phases import reads_aims, reads_postures, still_counting
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

    def public(self) -> StageView:
        if self.name in ("countdown", "kid"):
            return {"name": self.name, "step": self.step, "beat": self.beat,
                    "beats_ms": list(self.beats_ms), "cutoff_ms": self.three_ms,
                    "decide_ms": self.decide_ms}
        return {"name": self.name}


@dataclass(frozen=True)
class Sensed:
    """An action read from the sensors, with the seat and the readings it came from."""

    action: Action
    seat: int
    kinds: tuple[str, ...]


def countdown(state: GameState, stage: Stage, paused: bool, now: float,
              timing: Timing) -> Stage:
    """The countdown started now, or a CommandError saying why there is none."""
    step = countdown_allowed(state, stage, paused)
    if step is None:
        raise CommandError("rule", "no countdown now: the hold-up and courage steps have one, "
                                   "once every card is down", rule="R3")
    beats = tuple(now + i * timing.beat_ms for i in range(3))
    wait = timing.posture_ms if reads_postures(step) else timing.too_slow_ms
    return Stage("countdown", step, beats, beats[-1], beats[-1] + wait + timing.settle_ms,
                 beat=1)


def countdown_allowed(state: GameState, stage: Stage, paused: bool) -> str | None:
    """The step a countdown would count now (the rules' `countdown_step`), if the referee
    is free to run one: idle and not paused. What `countdown` accepts; the views offer it."""
    if paused or stage.name != "idle":
        return None
    return countdown_step(state)


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
    if not still_counting(s, stage.step):  # taps moved the game on during the count
        return [], {}
    who = [s.players[s.index[name]] for name in waiting_for(s)]  # (the Kid only once alone)
    if reads_postures(stage.step):
        out = []
        for p in who:
            seat = game.seat_of[p.name]
            posture = readings.track(seat, "posture")
            down = posture is not None and posture_snapshot(posture, stage.three_ms, timing)
            out.append(Sensed(Courage(p.name, down=down), seat, POSTURE_KINDS))
        return out, {}
    aims, ambiguous = [], {}
    for p in who:
        seat = game.seat_of[p.name]
        aim, raised = readings.aim_tracks(seat)
        target = aim_snapshot(aim, raised, stage.three_ms, timing, valid_targets(game, p.name))
        if isinstance(target, tuple):  # the gun saw two players: not ours to guess
            ambiguous[p.name] = list(target)
            continue
        action = Aim(p.name, target=game.player_at[target] if target else None)
        aims.append(Sensed(action, seat, AIM_KINDS))
    return aims, ambiguous


def after_snapshot(state: GameState, now: float, timing: Timing) -> Stage:
    """The Kid's own window once the others' aims are known, else idle: once the hold-up
    waits for the Kid alone (an aim left to the Godfather first waits for his tap, then
    the countdown is offered for the Kid alone)."""
    who, step = waiting_for(state), countdown_step(state)
    if step is None or not reads_aims(step) or not who or any(
            state.players[state.index[name]].power != KID for name in who):
        return Stage()
    return Stage("kid", step, (now,), now, now + timing.too_slow_ms + timing.settle_ms,
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
    return Sensed(Aim(name, target=game.player_at[target]), seat, AIM_KINDS)


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


def lay_down_requests(game: Game, asked: dict[str, float], readings: Readings,
                      now: float) -> dict[str, float]:
    """The players this round wounded, asked again to lie down (a restart, an undo).

    A request already made keeps its time; a recalled one is met by any standee read
    down, since when it went down was lost with the power.
    """
    wounded: set[str] = set()
    for e in reversed(game.state.events):
        if isinstance(e, RoundBegun):
            break
        if isinstance(e, Wounded):
            wounded.add(e.player)
    return {name: asked.get(name, float("-inf")) for name in wounded
            if name in asked or readings.now(game.seat_of[name], "posture", now) != "down"}
