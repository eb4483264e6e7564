"""A seat's view, read part by part as a style bot asks, offers only what the seat can know:
at hundreds of moments of style-bot games, every part a view offers is the same for the real
game and for a copy whose hidden parts are scrambled (the other hands, face-down cards and
loot, the piles, the generator, the story's secret fields); and it offers no other part."""

from __future__ import annotations

import random
from typing import Any

from scramble import hidden_differs, scramble

from companion.bots.arena import Arena
from companion.bots.lab import make_bot
from companion.bots.memory import Bullets, Memory
from companion.bots.random_bot import random_setup
from companion.bots.styles import Option
from companion.bots.view import SeatView, seat_view
from companion.rules import GameState

READ = ("me", "bang", "click", "card", "loot", "power", "wounds", "wound_limit", "target",
        "round", "phase", "godfather", "table", "token", "turn", "forbidden", "discards", "out",
        "piles", "state", "players", "me_seen")
CALLED = ("living_others", "living_names", "aimers", "aimed_by", "living_loot", "standing",
          "taking")
BY_NAME = ("seat_of", "loot_seen")
MEMORY = ("me", "seen", "maybe", "bullets", "shot_by", "shots", "diamonds")


def plain(value: Any) -> Any:
    """`value` with each `Bullets` as its two counts (they compare by identity)."""
    if isinstance(value, Bullets):
        return (value.bang, value.click)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def parts(s: GameState, me: str) -> dict[str, Any]:
    """Every part a fresh view of `s` offers to `me`, each read in turn."""
    view = seat_view(s, me, Memory(me, tuple(p.name for p in s.players)))
    out = {name: plain(getattr(view, name)) for name in READ}
    out |= {name: plain(getattr(view, name)()) for name in CALLED}
    out |= {f"{name}({p.name})": plain(getattr(view, name)(p.name))
            for name in BY_NAME for p in s.players}
    out |= {f"memory.{name}": plain(getattr(view.memory, name)) for name in MEMORY}
    return out


class Probe(Arena):
    """An arena that, at some decisions, compares the deciding seat's view of the game with
    its view of a scrambled copy."""

    def __init__(self, setup: Any, bots: Any, rnd: random.Random) -> None:
        super().__init__(setup, bots)
        self.rnd, self.checked_at = rnd, 0

    def ask(self, name: str, options: list[Option]) -> Option:
        self.decides(name, options)
        return super().ask(name, options)

    def decide_together(self, asked: list[tuple[str, list[Option]]]) -> list[Option]:
        for name, options in asked:  # (the seats deciding at one moment, not through `ask`)
            self.decides(name, options)
        return super().decide_together(asked)

    def decides(self, name: str, options: list[Option]) -> None:
        """`name` is about to decide among `options`: sometimes checked."""
        if len(options) > 1 and self.rnd.random() < 0.2:
            fake = scramble(self.state, name, self.rnd)
            assert hidden_differs(self.state, fake, name)
            assert parts(fake, name) == parts(self.state, name), (name, self.state.phase)
            self.checked_at += 1


def test_a_view_offers_exactly_the_parts_checked_here():
    offered = {n for n in dir(SeatView) if not n.startswith("_")} - {"memo", "shared", "renew"}
    assert offered == {*READ, *CALLED, *BY_NAME, "memory"}


def test_every_part_of_a_view_is_the_same_in_a_scrambled_game():
    rnd = random.Random(27)
    styles = ("cautious", "aggressive", "greedy", "vengeful")
    checked = 0
    for game in range(4):
        setup = random_setup(rnd, 8 - game, rnd.getrandbits(32), powers=True)
        bots = {n: make_bot(styles[(game + i) % 4], rnd.getrandbits(32))
                for i, n in enumerate(setup.players)}
        probe = Probe(setup, bots, rnd)
        probe.play()
        checked += probe.checked_at
    assert checked > 100
