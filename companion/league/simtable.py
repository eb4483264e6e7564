"""Tables without a table: whole games by the random bot, as a table would report them.

For the league's bench and tests: a game played by the engine in a few milliseconds,
journaled (in memory) as the referee journals it, exported as `companion export` does, its
public states as the referee publishes them after each action, and its result message.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from companion.bots.random_bot import PlayedGame, play, random_setup
from companion.league.result import result_message
from companion.referee.export import export_scenario
from companion.referee.game import Game
from companion.referee.journal import Journal
from companion.referee.readings import Readings
from companion.referee.stage import Stage
from companion.referee.view_model import as_json
from companion.referee.views import Snapshot, public
from companion.rules import apply_in_place, new_game

NAMES = ("Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal")


@dataclass
class SimGame:
    played: PlayedGame
    record: dict[str, Any]  # the journal's record of its setup
    game_id: int
    scenario: str

    def result(self, table: str, tag: str, ended_ms: float) -> dict[str, Any]:
        return result_message(table, tag, self.game(), self.scenario, ended_ms)

    def game(self) -> Game:
        return Game(self.game_id, self.record, self.played.state, dict(self.record["seats"]),
                    actions=list(self.played.actions))

    def states(self, table: str) -> Iterator[dict[str, Any]]:
        """The public state after each action, as `game/state` carries it."""
        setup = self.played.setup
        s = new_game(setup)
        seats = dict(self.record["seats"])
        game = Game(self.game_id, self.record, s, seats)
        no_sensors = Readings()  # a replayed game: every seat as a sensor reads at rest
        sensors = {seat: no_sensors.seat_now(seat, 0.0) for seat in seats.values()}
        for version, action in enumerate(self.played.actions, start=1):
            apply_in_place(s, action)
            game.actions.append(action)
            game.sources.append("sensor")  # (a sim game's actions are nobody's override)
            yield as_json(public(Snapshot(table, version, version, False, Stage(), 0.0, game,
                                  sensors=sensors)))


def sim_game(seed: int, players: int = 5, names: tuple[str, ...] = NAMES,
             journal: Journal | None = None) -> SimGame:
    """A whole random game with powers; its players named from `names`."""
    rnd = random.Random(seed)
    base = random_setup(rnd, players, seed, powers=True)
    rename = dict(zip(base.players, names[:players], strict=True))
    setup = type(base)(players=tuple(rename[n] for n in base.players),
                       powers={rename[n]: p for n, p in base.powers.items()}, seed=seed)
    played = play(setup, rnd)
    record = {"players": list(setup.players),
              "seats": {n: i + 1 for i, n in enumerate(setup.players)},
              "powers": dict(setup.powers), "seed": seed, "variant": {},
              "cards": "digital", "loot": "digital"}
    journal = journal or Journal(":memory:")
    game_id = journal.new_game(record, 0.0)
    for action in played.actions:
        journal.record(game_id, action, "tablet", 0.0)
    journal.finish(game_id)
    return SimGame(played, record, game_id, export_scenario(journal, game_id))
