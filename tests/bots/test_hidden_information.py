"""Bots never see hidden information: a game whose hidden parts are scrambled (the other
hands, face-down cards and loot, the piles, the generator, the story's secret fields) gives
every bot the same view, the same options and the same decision.

The games are watched where the arena hands out decisions: one seat alone (`Arena.ask`)
and the seats deciding at one moment (`Arena.decide_together`, whose seats' rules are
called from one reading of the moment, not through `ask`); every decision passes through
exactly one of the two, at the state it is made from. A bot that peeks at another seat's
hand fails the check."""

from __future__ import annotations

import random
from typing import Any

import pytest
from scramble import hidden_differs, scramble

from companion.bots.arena import Arena
from companion.bots.lab import STYLES, make_bot
from companion.bots.memory import Memory
from companion.bots.random_bot import random_setup
from companion.bots.styles import CautiousBot, Option
from companion.bots.view import SeatView, masked_state, my_options, seat_view
from companion.rules import GameState, legal_actions


def dump(s: GameState) -> dict[str, Any]:
    """Every field of a state and of its players, for comparing two states."""
    def fields(obj: Any) -> dict[str, Any]:
        names = getattr(type(obj), "__slots__", None) or vars(obj)
        return {n: getattr(obj, n) for n in names if hasattr(obj, n)}
    out = fields(s)
    out["players"] = [fields(p) for p in s.players]
    return out


def decision(state: GameState, name: str, style: str, seed: int, options: list[Option]) -> Option:
    bot = Peeker(seed) if style == "peeker" else make_bot(style, seed, playouts=4)
    view = seat_view(state, name, Memory(name, tuple(p.name for p in state.players)),
                     masked=bot.needs_state)
    return bot.decide(view, options)


def options_seen(state: GameState, name: str, kind: str) -> list[Option]:
    p = state.players[state.index[name]]
    return list(my_options([a for a in legal_actions(state) if a.type == kind], name,
                           p.bang, p.click))


class Probe(Arena):
    """An arena that, at some decisions, asks the same bot again on a scrambled game."""

    def __init__(self, setup, bots, styles: dict[str, str], rnd: random.Random) -> None:
        super().__init__(setup, bots)
        self.styles, self.rnd, self.kinds = styles, rnd, set()

    def ask(self, name: str, options: list[Option]) -> Option:
        self.decides(name, options)
        return super().ask(name, options)

    def decide_together(self, asked: list[tuple[str, list[Option]]]) -> list[Option]:
        for name, options in asked:  # (nothing applied until all decided: one state)
            self.decides(name, options)
        return super().decide_together(asked)

    def decides(self, name: str, options: list[Option]) -> None:
        """`name` is about to decide among `options`: sometimes checked."""
        if len(options) > 1 and self.rnd.random() < 0.25:
            self.check(name, options)

    def check(self, name: str, options: list[Option]) -> None:
        real = self.state
        fake = scramble(real, name, self.rnd)
        assert hidden_differs(real, fake, name)
        kind = next(a.type for a in options if a is not None)
        assert options_seen(fake, name, kind) == options_seen(real, name, kind)
        assert dump(masked_state(fake, name)) == dump(masked_state(real, name))
        style, seed = self.styles[name], self.rnd.getrandbits(32)
        assert (decision(fake, name, style, seed, options)
                == decision(real, name, style, seed, options)), (style, kind, real.round)
        self.kinds.add((style, kind))


@pytest.mark.parametrize("players", [4, 6, 8])
def test_a_scrambled_game_changes_no_decision_of_any_bot(players):
    rnd = random.Random(players)
    styles_seen, kinds_seen = set(), set()
    for game in range(3):
        setup = random_setup(rnd, players, rnd.getrandbits(32), powers=True)
        order = list(STYLES)
        styles = {name: order[(game + i) % len(order)] for i, name in enumerate(setup.players)}
        bots = {n: make_bot(s, rnd.getrandbits(32), playouts=2) for n, s in styles.items()}
        probe = Probe(setup, bots, styles, rnd)
        probe.play()
        styles_seen |= {s for s, _ in probe.kinds}
        kinds_seen |= {k for _, k in probe.kinds}
    assert styles_seen == set(STYLES)  # every style was checked, the planner included
    assert {"choose", "aim", "courage", "take"} <= kinds_seen


class Peeker(CautiousBot):
    """A bot that puts a Bang! down when the next seat holds more of them than Click!
    cards: it reads a hidden hand."""

    style = "peeker"

    def wants_bang(self, view: SeatView) -> bool:
        s = view._s  # (what no view offers: the whole game)
        following = s.players[(s.index[view.me] + 1) % len(s.players)]
        return following.bang > following.click


def test_a_bot_peeking_at_another_hand_is_caught():
    rnd = random.Random(3)
    setup = random_setup(rnd, 6, rnd.getrandbits(32), powers=True)
    styles = {name: "peeker" if i % 2 else "cautious" for i, name in enumerate(setup.players)}
    bots = {n: Peeker(rnd.getrandbits(32)) if s == "peeker" else make_bot(s, rnd.getrandbits(32))
            for n, s in styles.items()}
    with pytest.raises(AssertionError, match="'peeker', 'choose'"):  # (a moment's)
        Probe(setup, bots, styles, rnd).play()


def test_the_masked_game_keeps_what_the_table_sees():
    rnd = random.Random(5)
    setup = random_setup(rnd, 6, 11, powers=True)
    arena = Arena(setup, {n: make_bot("greedy", i) for i, n in enumerate(setup.players)})
    s = arena.state
    while s.round < 4 or s.phase != "courage":
        for a in arena.next_actions():
            from companion.rules import apply_in_place
            apply_in_place(s, a)
    m = masked_state(s, "Ana")
    me, other = m.players[0], m.players[1]
    assert (me.bang, me.click, me.card, me.loot) == (s.players[0].bang, s.players[0].click,
                                                   s.players[0].card, s.players[0].loot)
    assert other.hand_size == s.players[1].hand_size and other.loot == []
    assert (other.card is None) == (s.players[1].card is None)
    assert [len(p) for p in m.piles] == [len(p) for p in s.piles]
    assert m.discard_bang + m.discard_click == s.discard_bang + s.discard_click
    assert m.events == [] and m.rng == 0
    assert legal_actions(m) and s.phase == m.phase
