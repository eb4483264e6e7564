"""The seats deciding at one moment decide from one reading of it, each view renewed and
handed straight to its bot's rule (`Arena.decide_together`): each such view offers its
seat exactly what a view of its own, made as it decides and sharing no figure with another
seat's, offers; and games played so make every decision the plain path makes (each seat
asked in turn through `Arena.ask`, its view renewed as it is asked), at tables of 4 to 8,
with and without powers, with digital and physical cards."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from test_style_view import BY_NAME, CALLED, READ, plain

from companion.bots.arena import Arena
from companion.bots.lab import make_bot
from companion.bots.random_bot import random_setup
from companion.bots.styles import Bot, Option, Rule
from companion.bots.view import SeatView
from companion.rules import state_to_dict

STYLES = ("cautious", "aggressive", "greedy", "vengeful", "random")


def offered(view: SeatView) -> dict[str, Any]:
    """Every part `view` offers, each read in turn."""
    out = {name: plain(getattr(view, name)) for name in READ}
    out |= {name: plain(getattr(view, name)()) for name in CALLED}
    return out | {f"{name}({p.name})": plain(getattr(view, name)(p.name))
                  for name in BY_NAME for p in view.players}


class Logged(Arena):
    """An arena writing down each decision where its bot's rule is called (whichever path
    called it): who, among which options, what."""

    def __init__(self, setup: Any, bots: dict[str, Bot]) -> None:
        super().__init__(setup, bots)
        self.log: list[tuple[str, list[Option], Option]] = []
        for name, bot in bots.items():
            bot.rules = {kind: self.logged(name, rule) for kind, rule in bot.rules.items()}

    def logged(self, name: str, rule: Rule) -> Rule:
        def call(view: SeatView | None, options: Sequence[Option]) -> Option:
            self.seen(name, view)
            choice = rule(view, options)
            self.log.append((name, [*options], choice))
            return choice

        return call

    def seen(self, name: str, view: SeatView | None) -> None:
        """`name`'s rule is handed `view`."""


class Plain(Logged):
    """Each seat of a moment asked in turn (`Arena.ask`), its view renewed as it is asked:
    no view made ready for a moment."""

    def decide_together(self, asked: list[tuple[str, list[Option]]]) -> list[Option]:
        return [self.ask(name, options) for name, options in asked]


class Compared(Logged):
    """Each view made ready for a moment compared, as its seat's rule gets it, with a view
    of its own made then, sharing nothing."""

    def __init__(self, setup: Any, bots: dict[str, Bot]) -> None:
        super().__init__(setup, bots)
        self.compared = 0
        self.at_moment = False

    def decide_together(self, asked: list[tuple[str, list[Option]]]) -> list[Option]:
        self.at_moment = True
        try:
            return super().decide_together(asked)
        finally:
            self.at_moment = False

    def seen(self, name: str, view: SeatView | None) -> None:
        if self.at_moment and view is not None:
            s = self.state
            alone = SeatView(s, name, self.story.memory_of(name, s.events),
                             hand=None if self.hands is None else self.hands.hand_of(name))
            assert offered(view) == offered(alone), (name, s.phase, s.round)
            self.compared += 1


def games(n: int) -> list[tuple[Any, dict[str, str], int]]:
    rnd = random.Random(65)
    out = []
    for game in range(n):
        setup = random_setup(rnd, 4 + game % 5, rnd.getrandbits(32), powers=game % 3 != 0,
                             cards="physical" if game % 4 == 3 else "digital")
        styles = {name: STYLES[(game + i) % 5] for i, name in enumerate(setup.players)}
        out.append((setup, styles, rnd.getrandbits(32)))
    return out


def play(kind: type[Logged], setup: Any, styles: dict[str, str], seed: int) -> Logged:
    bots = {name: make_bot(style, seed + i) for i, (name, style) in enumerate(styles.items())}
    arena = kind(setup, bots)
    assert arena.play().over
    return arena


def test_a_view_made_ready_for_a_moment_offers_what_a_view_read_alone_offers():
    compared = 0
    for setup, styles, seed in games(8):
        compared += play(Compared, setup, styles, seed).compared  # type: ignore[attr-defined]
    assert compared > 500


def test_views_made_ready_for_a_moment_make_the_decisions_of_the_plain_path():
    decisions = 0
    for setup, styles, seed in games(20):
        fast, slow = play(Logged, setup, styles, seed), play(Plain, setup, styles, seed)
        assert fast.log == slow.log
        assert state_to_dict(fast.state) == state_to_dict(slow.state)
        decisions += len(fast.log)
    assert decisions > 2000
