"""The referee's state: everything it decides from, where a session starts, and a game's
actions played again (a resumed game, an undo, a recount). Changed only by the core's step
(core.py), which the commands (core_commands.py) share."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from companion.referee import ending, equipment
from companion.referee import stage as stages
from companion.referee.game import Game, engine_setup
from companion.referee.inputs import Boot
from companion.referee.journal import Entry
from companion.referee.links import Links
from companion.referee.readings import Readings
from companion.referee.stage import Stage
from companion.referee.timing import Timing
from companion.referee.watermarks import Watermarks
from companion.rules import apply_in_place, new_game

OVERRIDE, SENSOR = "override", "sensor"  # the journal's sources of what the sensors read


@dataclass
class State:
    """Everything the referee decides from; changed only by `reduce`."""

    table: str
    timing: Timing
    version: int  # bumped by every change to the game or the referee's stage
    last_game: int  # the highest game number given
    now_ms: float  # the time of the last input
    revision: int = 0  # bumped by every change at all, sensor readings included
    readings: Readings = field(default_factory=Readings)
    links: Links = field(default_factory=Links)  # the referee never decides blind
    marks: Watermarks = field(default_factory=Watermarks)  # how far each source was heard
    game: Game | None = None
    stage: Stage = field(default_factory=Stage)
    paused: bool = False
    lay_down: dict[str, float] = field(default_factory=dict)  # wounded asked to lie, since
    ambiguous: dict[str, list[int]] = field(default_factory=dict)  # aims the Godfather decides
    voided: str | None = None  # why the last countdown was called off
    voided_text: dict[str, Any] | None = None  # the same, in the pages' words (labels.voided)
    journal_error: str | None = None  # why play is paused: the journal failed
    replays: tuple[dict[str, Any], ...] = ()  # this round's countdowns, as read
    claims: dict[int, str] = field(default_factory=dict)  # seat -> its phone's claim digest
    phones: dict[str, str] = field(default_factory=dict)  # player -> their phone's, all games
    stand_ins: dict[int, str] = field(default_factory=dict)  # seat -> the bot playing it
    step_key: tuple[Any, ...] = ()  # the step commands are made about (see `step`)
    step_version: int = 0  # the version that step began at
    configured: equipment.Kit = field(default_factory=equipment.Kit)  # the sensors' config

    def kit(self) -> equipment.Kit:
        """The seats whose sensors speak for them: configured, or heard (docs/REFEREE.md)."""
        return self.configured | self.readings.kit()

    def fork(self) -> State:
        """A copy to decide on: what a command changes is its own, the rest shared."""
        game = self.game
        if game is not None:
            game = replace(game, actions=list(game.actions), sources=list(game.sources),
                           seqs=list(game.seqs), times=list(game.times))
        return replace(self, readings=self.readings.fork(), links=self.links.copy(),
                       marks=self.marks.copy(),
                       game=game, lay_down=dict(self.lay_down),
                       ambiguous=dict(self.ambiguous), claims=dict(self.claims),
                       phones=dict(self.phones), stand_ins=dict(self.stand_ins))


def start(boot: Boot) -> State:
    """The first state of a session: the game the journal resumes, where it left off."""
    state = State(boot.table, boot.timing, boot.version, boot.last_game, boot.at_ms,
                  configured=equipment.Kit(*(frozenset(boot.sensored.get(part, ()))
                                             for part in ("ir", "tilt", "standee"))))
    if boot.game is not None:
        r = boot.game
        load(state, r.id, r.setup, list(r.entries), r.last_seq)
        state.claims = dict(r.claims)
        state.phones = dict(r.phones)
        state.replays = r.replays
    state.step_key, state.step_version = step(state), state.version
    return state


def load(s: State, game_id: int, setup: dict[str, Any], entries: list[Entry],
         last_seq: int) -> None:
    """Play a game's journaled actions again (accepted once: the rules accept them again)."""
    state = new_game(engine_setup(setup))
    game = Game(game_id, setup, state, {n: int(seat) for n, seat in setup["seats"].items()},
                last_seq=last_seq)
    for entry in entries:
        apply_in_place(state, entry.action)
        game.actions.append(entry.action)
        game.sources.append(entry.source)
        game.seqs.append(entry.seq)
        game.times.append(entry.at_ms)
    if state.over:
        game.history = ending.history(game)
    s.game, s.stage, s.ambiguous = game, Stage(), {}
    if state.ordered is not None:  # an order awaited (an undo, a restart)
        s.stage = Stage("reaim", since_ms=s.now_ms)
    s.lay_down = stages.lay_down_requests(game, s.lay_down, s.readings, s.now_ms)


def step(s: State) -> tuple[Any, ...]:
    """What a command was made about: the rules step, whose turn, the referee's stage."""
    if s.game is None:
        return ()
    g = s.game.state
    return (s.game.id, g.round, g.phase, g.turn, g.ordered, g.junk_card, g.done,
            s.stage.name, s.paused)
