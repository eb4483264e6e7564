"""The strong bot: repeatable from its seed, and bounded by its time limit at a live table."""

from __future__ import annotations

import random
import time

from companion.bots.arena import Arena
from companion.bots.lab import make_bot
from companion.bots.random_bot import random_setup
from companion.bots.strong import StrongBot
from companion.bots.view import SeatView, seat_view
from companion.rules import Action, apply_in_place, legal_actions


def decision(seed: int, round_: int, phase: str) -> tuple[SeatView, list[Action]]:
    """Ana's view and options when a game of greedy bots reaches `phase` of `round_`."""
    setup = random_setup(random.Random(seed), 5, seed, powers=False)
    arena = Arena(setup, {n: make_bot("greedy", i) for i, n in enumerate(setup.players)})
    s = arena.state
    while not (s.round == round_ and s.phase == phase):
        for a in arena.next_actions():
            apply_in_place(s, a)
    kind = legal_actions(s)[0].type
    options = arena.options_of(legal_actions(s), kind, "Ana")
    return seat_view(s, "Ana", arena.memories["Ana"], masked=True), options


def test_the_same_seed_makes_the_same_decision():
    view, options = decision(3, 2, "holdup")
    first = StrongBot(42, playouts=24).decide(view, options)
    assert StrongBot(42, playouts=24).decide(view, options) == first
    assert first in options and first.target is not None  # never too slow on purpose


def test_a_time_limit_bounds_a_decision():
    view, options = decision(4, 3, "choose")
    assert len(options) == 2
    bot = StrongBot(1, playouts=1_000_000, time_limit_s=0.3)
    start = time.monotonic()
    assert bot.decide(view, options) in options
    assert time.monotonic() - start < 10  # a million playouts would take hours
