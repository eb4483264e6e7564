"""A player that picks uniformly among the legal actions: a fair fuzzer for the rules."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.rules import Action, GameState, Setup, apply_in_place, new_game, play_random
from companion.rules.actions import Deal
from companion.rules.cards import PILE_SIZE, official_deck
from companion.rules.powers import POWERS

NAMES = ("Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal")


@dataclass
class PlayedGame:
    setup: Setup
    state: GameState
    actions: list[Action] = field(default_factory=list)


def random_setup(rnd: random.Random, players: int, seed: int, powers: bool,
                 cards: str = "digital", loot_mode: str = "digital") -> Setup:
    names = NAMES[:players]
    dealt = dict(zip(names, rnd.sample(POWERS, players), strict=True)) if powers else {}
    return Setup(players=names, powers=dealt, seed=seed, cards=cards, loot_mode=loot_mode)


def deal_action(s: GameState, deck: list[str]) -> Deal:
    """Physical loot: the Godfather enters the next 8 cards of a deck shuffled by the bot."""
    pile = deck[(s.round - 1) * PILE_SIZE : s.round * PILE_SIZE]
    return Deal(s.players[s.godfather].name, loot=tuple(pile))


def play(setup: Setup, rnd: random.Random, max_actions: int = 10_000) -> PlayedGame:
    """Play a whole game with random legal actions; the state is owned, so applied in place."""
    game = PlayedGame(setup, new_game(setup))
    s = game.state
    deck = official_deck()
    rnd.shuffle(deck)
    actions = game.actions
    while True:  # each action as `rnd.choice(legal_actions(s))`, without the list
        s = play_random(s, rnd, actions, max_actions)
        if s.over:
            break
        if len(actions) >= max_actions:
            raise RuntimeError(f"game did not end after {max_actions} actions")
        action = deal_action(s, deck)  # (only a physical deal stopped it)
        apply_in_place(s, action)
        actions.append(action)
    game.state = s
    return game
