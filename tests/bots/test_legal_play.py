"""Bots play only legal actions, whole games long, at every table size, powers or not."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from companion.bots.arena import Arena
from companion.bots.lab import STYLES, Plan, make_bot, run
from companion.bots.random_bot import random_setup
from companion.bots.styles import Bot, Option
from companion.bots.view import SeatView

STYLE_BOTS = [s for s in STYLES if s != "strong"]


class Checked(Bot):
    """A bot that must answer with one of its options; counts its decisions by kind."""

    def __init__(self, inner: Bot, kinds: Counter[str]) -> None:
        self.inner, self.kinds = inner, kinds
        self.needs_view, self.needs_state = inner.needs_view, inner.needs_state

    def decide(self, view: SeatView | None, options: list[Option]) -> Option:
        choice = self.inner.decide(view, options)
        assert choice in options, (choice, options)
        kind = next(a.type for a in options if a is not None)
        self.kinds[kind if choice is not None else f"{kind} passed"] += 1
        return choice


def play(games: int, styles: list[str], seed: int, playouts: int | None = None) -> Counter[str]:
    rnd = random.Random(seed)
    kinds: Counter[str] = Counter()
    for game in range(games):
        players = 4 + game % 5
        setup = random_setup(rnd, players, rnd.getrandbits(32), powers=game % 4 != 3)
        bots = {name: Checked(make_bot(styles[(game + i) % len(styles)], rnd.getrandbits(32),
                                       playouts), kinds)
                for i, name in enumerate(setup.players)}
        s = Arena(setup, bots, checked=True).play()  # checked: each action in legal_actions
        assert s.phase == "over" and s.round <= 8
    return kinds


def test_style_bots_play_legal_actions_only_and_meet_every_kind_of_decision():
    kinds = play(250, STYLE_BOTS, seed=1)
    for kind in ("choose", "aim", "courage", "take", "hustle", "swap", "swap passed",
                 "privilege", "smart", "junk", "junk passed", "forbid", "forbid passed"):
        assert kinds[kind] > 0, kind  # every kind of decision was met


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_style_bots_play_thousands_of_games_with_legal_actions_only():
    """On every core, through the lab: 3,000 games of 4 to 8 players, each action checked."""
    for players in range(4, 9):
        plan = Plan(games=600, players=players, styles=tuple(STYLE_BOTS), seed=players,
                    powers=players % 2 == 0, checked=True)
        records = run(plan, jobs=os.cpu_count() or 1)
        assert len(records) == 600 and all(r["rounds"] <= 8 for r in records)


def test_the_strong_bot_plays_legal_actions_only():
    kinds = play(5, ["strong", "greedy"], seed=2, playouts=4)
    assert kinds["aim"] and kinds["take"] and kinds["courage"]
