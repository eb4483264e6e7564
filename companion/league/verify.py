"""The league believes the engine, not the table: every result is replayed before it counts.

The scenario a table sends is loaded as `companion replay` loads a file and played through
the rules; the result is accepted only if the replay ends the game with the same winners
and the same score for every player. A scenario that starts mid-game or brings its own
piles is refused: a table's export never does, and either would let a table choose its
loot. What the replay gives also draws the game's end chart on the venue page.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from companion.league.result import Claim
from companion.referee.ending import final, history
from companion.referee.game import Game
from companion.rules import GameState
from companion.rules.scoring import scores
from companion.rules.setup import Setup
from companion.scenario.load import parse_scenario
from companion.scenario.replay import replay
from companion.yamlfile import YamlError, load_yaml


@dataclass(frozen=True)
class Placing:
    """One player's end of a replayed game: what the league stores and rates."""

    name: str
    seat: int
    power: str | None
    alive: bool
    wounds: int
    score: int
    winner: bool


@dataclass(frozen=True)
class Verdict:
    problems: tuple[str, ...]  # why the claim and the replay differ; none: accepted
    placings: tuple[Placing, ...]  # the replay's, in seating order; empty if it broke
    chart: dict[str, Any] | None  # the end chart's data (the tablet's final panel)
    content: str  # what the game is, whatever it is called: `content_key`

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(claim: Claim) -> Verdict:
    try:
        scenario = parse_scenario(load_yaml(claim.scenario, f"{claim.uid}.yaml"))
    except YamlError as exc:
        return Verdict((f"the scenario is not a valid scenario file: {exc}",), (), None,
                       _digest(claim.scenario))
    content = content_key(scenario.setup, scenario.actions)
    if problem := not_an_export(scenario.setup):
        return Verdict((problem,), (), None, content)
    played = replay(scenario)
    if played.error:
        return Verdict((f"the game does not replay: {played.error}",), (), None, content)
    s = played.state
    if not s.over:
        return Verdict((f"the game is not over: it stops in round {s.round}, {s.phase}",),
                       (), None, content)
    seats = {p.name: p.seat for p in claim.players}
    placings = _placings(s, seats)
    return Verdict(tuple(compare(claim, placings)), placings,
                   chart(s, scenario.setup, scenario.actions, seats), content)


def stored_content(text: str, uid: str) -> str:
    """The content key of a game stored as scenario `text` (a league's older rows)."""
    try:
        scenario = parse_scenario(load_yaml(text, f"{uid}.yaml"))
    except YamlError:
        return _digest(text)
    return content_key(scenario.setup, scenario.actions)


def content_key(setup: Setup, actions: Any) -> str:
    """A game by what it replays to: its players, powers, seed, variant and modes, and
    every action; not its number, journal tag or table, which a copy may change."""
    return _digest(json.dumps({
        "players": list(setup.players), "powers": setup.powers, "seed": setup.seed,
        "variant": setup.variant, "cards": setup.cards, "loot": setup.loot_mode,
        "actions": [a.to_dict() for a in actions]}, sort_keys=True, default=str))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def not_an_export(setup: Setup) -> str | None:
    if setup.start_round != 1 or setup.start_players or setup.start_godfather:
        return "the scenario starts mid-game (start:): a table's game starts at round 1"
    if setup.loot is not None:
        return "the scenario brings its own piles (loot:): a table's deal comes from its seed"
    return None


def compare(claim: Claim, placings: tuple[Placing, ...]) -> list[str]:
    claimed = [p.name for p in claim.players]
    replayed = [p.name for p in placings]
    if claimed != replayed:
        return [f"the players differ: claimed {claimed}, replayed {replayed}"]
    problems = []
    winners = sorted(p.name for p in placings if p.winner)
    if sorted(claim.winners) != winners:
        problems.append(f"winners: claimed {sorted(claim.winners)}, replayed {winners}")
    for c, r in zip(claim.players, placings, strict=True):
        if c.score != r.score:
            problems.append(f"{c.name}'s score: claimed {c.score}, replayed {r.score}")
        if c.alive != r.alive:
            problems.append(f"{c.name}: claimed {'alive' if c.alive else 'out'}, replayed "
                            f"{'alive' if r.alive else 'out'}")
    return problems


def _placings(s: GameState, seats: dict[str, int]) -> tuple[Placing, ...]:
    totals = scores(s)
    return tuple(Placing(p.name, seats.get(p.name, p.seat + 1), p.power, p.alive, p.wounds,
                         totals[p.seat]["total"], p.name in s.winners) for p in s.players)


def chart(s: GameState, setup: Setup, actions: Any, seats: dict[str, int]) -> dict[str, Any]:
    """What the tablet's end panel draws (web/static/js/final.js), from the replay."""
    record = {"players": list(setup.players), "powers": setup.powers, "seed": setup.seed,
              "variant": setup.variant, "cards": setup.cards, "loot": setup.loot_mode}
    game = Game(0, record, s, {name: seats.get(name, i + 1)
                               for i, name in enumerate(setup.players)}, actions=list(actions))
    return {  # the count with the diamond cards and the bonus, as the tablet shows it
        "players": [{"name": p.name, "power": p.power} for p in s.players],
        "winners": s.winners[:], **final(s, scores(s)), "history": history(game),
    }
