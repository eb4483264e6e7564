"""The arena's cheap paths play the very games of the plain one (issue 27).

Random bots go the engine's fast path (`fastplay.by_seat`): each seat draws among its own
options with its own generator, as its bot would when asked. Every bot is asked, at the
steps most decisions are made in, with its options built from the step's own
(`Arena.step_actions`), not picked out of the whole list of legal actions. Both are
checked against the arena that asks through `legal_actions` alone, and the fast path
against a scrambled game: a seat's draws never depend on what it cannot see.
"""

from __future__ import annotations

import random

import pytest
from scramble import hidden_differs, scramble

from companion.bots import lab
from companion.bots.arena import Arena
from companion.bots.random_bot import random_setup
from companion.rules import GameState, apply_in_place, state_to_dict
from companion.rules.engine import settle
from companion.rules.fastplay import by_seat


class Plain(Arena):
    """The arena as it was: every decision found among `legal_actions`, no fast path."""

    def step_actions(self):
        return None

    def window_actions(self, kind):
        return self.next_actions()

    def seat_generators(self):
        return None


def both_ways(setup, styles: list[str], seed: int) -> tuple[GameState, GameState]:
    games = []
    for arena in (Plain, Arena):
        rnd = random.Random(seed)
        bots = {n: lab.make_bot(s, rnd.getrandbits(32))
                for n, s in zip(setup.players, styles, strict=True)}
        games.append(arena(setup, bots).play())
    return games[0], games[1]


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_random_bots_on_the_fast_path_play_the_games_they_play_when_asked(players):
    rnd = random.Random(players)
    for game in range(40):
        setup = random_setup(rnd, players, rnd.getrandbits(32), powers=game % 4 != 0)
        plain, fast = both_ways(setup, ["random"] * players, game)
        assert fast.over and len(fast.events) > 50
        assert state_to_dict(fast) == state_to_dict(plain), (players, game)


@pytest.mark.parametrize("players", [4, 6, 8])
def test_style_bots_asked_at_the_steps_decide_as_when_asked_from_the_legal_actions(players):
    rnd = random.Random(100 + players)
    order = ["cautious", "aggressive", "greedy", "vengeful", "random"]
    for game in range(6):
        setup = random_setup(rnd, players, rnd.getrandbits(32), powers=True)
        styles = [order[(game + i) % len(order)] for i in range(players)]
        plain, fast = both_ways(setup, styles, game)
        assert state_to_dict(fast) == state_to_dict(plain), (players, game)


def copied(rnds: list[random.Random]) -> list[random.Random]:
    out = []
    for r in rnds:
        c = random.Random()
        c.setstate(r.getstate())
        out.append(c)
    return out


@pytest.mark.parametrize("players", [4, 6, 8])
def test_a_seat_draws_the_same_on_the_fast_path_whatever_it_cannot_see(players):
    """At every step the fast path plays, one seat's actions are the same on the real
    game and on a copy whose hidden parts (other hands, face-down cards, loot, piles,
    the generator, the story's secrets) are scrambled."""
    rnd = random.Random(players)
    steps: set[str] = set()
    for _ in range(8):
        setup = random_setup(rnd, players, rnd.getrandbits(32), powers=True)
        arena = Arena(setup, {n: lab.make_bot("random", rnd.getrandbits(32))
                              for n in setup.players})
        s, rnds = arena.state, arena.seat_generators()
        assert rnds is not None
        while not s.over:
            if by_seat(s.copy(), copied(rnds), []):
                me = rnd.choice(s.living_names)
                fake = scramble(s, me, rnd)
                assert hidden_differs(s, fake, me)
                real_played: list = []
                fake_played: list = []
                by_seat(s.copy(), copied(rnds), real_played)
                by_seat(fake, copied(rnds), fake_played)
                mine = [a for a in real_played if a.player == me]
                assert mine == [a for a in fake_played if a.player == me], (s.phase, me)
                steps.add(s.phase)
                played: list = []
                by_seat(s, rnds, played)
                settle(s)
            else:
                actions = arena.step_actions()
                for a in arena.next_actions() if actions is None else actions:
                    apply_in_place(s, a)
    assert steps == {"choose", "holdup", "courage", "split"}
