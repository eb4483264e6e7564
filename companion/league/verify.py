"""The league believes the engine, not the table: every result is replayed before it counts.

The scenario a table sends is loaded as `companion replay` loads a file and played through
the rules; the result is accepted only if the replay ends the game with the same winners
and the same score for every player. A scenario that starts mid-game or brings its own
piles is refused: a table's export never does, and either would let a table choose its
loot. What the replay gives also draws the game's end chart on the venue page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.league.result import Claim
from companion.referee.ending import history, tiebreak, winners_text
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

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(claim: Claim) -> Verdict:
    try:
        scenario = parse_scenario(load_yaml(claim.scenario, f"{claim.uid}.yaml"))
    except YamlError as exc:
        return Verdict((f"the scenario is not a valid scenario file: {exc}",), (), None)
    if problem := not_an_export(scenario.setup):
        return Verdict((problem,), (), None)
    played = replay(scenario)
    if played.error:
        return Verdict((f"the game does not replay: {played.error}",), (), None)
    s = played.state
    if not s.over:
        return Verdict((f"the game is not over: it stops in round {s.round}, {s.phase}",),
                       (), None)
    seats = {p.name: p.seat for p in claim.players}
    placings = _placings(s, seats)
    return Verdict(tuple(compare(claim, placings)), placings,
                   chart(s, scenario.setup, scenario.actions, seats))


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
    totals = scores(s)
    record = {"players": list(setup.players), "powers": setup.powers, "seed": setup.seed,
              "variant": setup.variant, "cards": setup.cards, "loot": setup.loot_mode}
    game = Game(0, record, s, {name: seats.get(name, i + 1)
                               for i, name in enumerate(setup.players)}, actions=list(actions))
    return {
        "players": [{"name": p.name, "power": p.power} for p in s.players],
        "winners": s.winners[:],
        "final": [{"name": p.name, "alive": p.alive, "wounds": p.wounds, "loot": p.loot[:],
                   "score": totals[p.seat]} for p in s.players],
        "result": {"winners": winners_text(s), "tiebreak": tiebreak(s)},
        "history": history(game),
    }
