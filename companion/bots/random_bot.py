"""A player that picks uniformly among the legal actions: a fair fuzzer for the rules."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.rules import Action, GameState, Setup, apply_in_place, legal_actions, new_game
from companion.rules.powers import POWERS

NAMES = ("Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal")


@dataclass
class PlayedGame:
    setup: Setup
    state: GameState
    actions: list[Action] = field(default_factory=list)


def random_setup(rnd: random.Random, players: int, seed: int, powers: bool,
                 cards: str = "digital") -> Setup:
    names = NAMES[:players]
    dealt = dict(zip(names, rnd.sample(POWERS, players), strict=True)) if powers else {}
    return Setup(players=names, powers=dealt, seed=seed, cards=cards)


def play(setup: Setup, rnd: random.Random, max_actions: int = 10_000) -> PlayedGame:
    """Play a whole game with random legal actions; the state is owned, so applied in place."""
    game = PlayedGame(setup, new_game(setup))
    s = game.state
    while s.phase != "over":
        if len(game.actions) >= max_actions:
            raise RuntimeError(f"game did not end after {max_actions} actions")
        action = rnd.choice(legal_actions(s))
        apply_in_place(s, action)
        game.actions.append(action)
    return game
