"""The lean random game plays the engine's games (issue 27: the lab at the engine's speed).

`random_game.play` is checked game for game against random bots in the arena, which plays
through `engine.apply` and the fast path (`fastplay.by_seat`): the same final state, the
same state of the game's generator and of every seat's, and the tally equal to what the
engine's events say. And the lab's records, lean, equal those of the arena asked through
`legal_actions` alone (`Plan.checked`); with physical cards the lab plays the arena.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.bots import lab
from companion.bots.arena import Arena
from companion.bots.random_bot import random_setup
from companion.bots.styles import RandomBot
from companion.rules import GameState, random_game, state_to_dict
from companion.rules.powers import POWERS

GAMES = 500  # at each table size: 3,000 games in all


def without_story(s: GameState) -> dict[str, object]:
    """The final state, every field the lean game keeps (it builds no events)."""
    out = state_to_dict(s)
    del out["events"]
    out.update(piles=s.piles, out=s.out, rng=s.rng, godfather_seat=s.godfather,
               discards=(s.discard_bang, s.discard_click))
    return out


def both_ways(players: int, seed: int, powers: bool):
    rnd = random.Random(f"lean:{players}:{seed}")
    setup = random_setup(rnd, players, rnd.getrandbits(63), powers)
    seeds = [rnd.getrandbits(63) for _ in range(players)]
    rnds = [random.Random(x) for x in seeds]
    lean, tally = random_game.play(setup, rnds)
    bots = {name: RandomBot(x) for name, x in zip(setup.players, seeds, strict=True)}
    arena = Arena(setup, bots)
    engine = arena.play()
    return (lean, tally, rnds), (engine, lab.tally(engine.events, arena.actions), bots)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_the_lean_game_is_the_engines_game_for_the_same_seeds(players):
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        (lean, tally, rnds), (engine, counted, bots) = both_ways(players, seed, seed % 5 != 0)
        assert engine.over and lean.over
        assert without_story(lean) == without_story(engine), (players, seed)
        assert tally == counted, (players, seed)
        assert [r.getstate() for r in rnds] == [b.rnd.getstate() for b in bots.values()]
        seen.update(type(e).__name__ for e in engine.events)
    if players >= 5:  # (every power's effect met, so the lean game's each was compared)
        for kind in ("Hustled", "Swapped", "Ordered", "SmartTookBack", "SmartPassed",
                     "Forbade", "JunkSwapped", "Clipped", "GoodFriend", "VultureTook",
                     "ProfessionalStole", "CuteTook", "StealthyTook", "Healed", "Lucky",
                     "FirstAid", "Eliminated", "Unclaimed"):
            assert seen[kind] > 0, (players, kind)


def test_every_power_sits_at_the_tables_compared():
    dealt = Counter()
    for seed in range(200):
        rnd = random.Random(f"lean:8:{seed}")
        dealt.update(random_setup(rnd, 8, rnd.getrandbits(63), True).powers.values())
    assert set(dealt) == set(POWERS)


@pytest.mark.parametrize("players", [4, 6, 8])
def test_the_labs_lean_records_are_those_of_the_arena_asked_through_the_legal_actions(players):
    lean = lab.Plan(games=60, players=players, styles=("random",), seed=3)
    asked = lab.Plan(games=60, players=players, styles=("random",), seed=3, checked=True)
    for i in range(lean.games):
        assert lab.play_game(lean, i) == lab.play_game(asked, i), (players, i)


def test_physical_cards_and_other_styles_play_through_the_arena():
    rnd = random.Random(1)
    assert not random_game.plays(random_setup(rnd, 6, 1, True, cards="physical"))
    assert random_game.plays(random_setup(rnd, 6, 1, True))
    for cards, styles in (("physical", ("random",)), ("digital", ("random", "cautious"))):
        plan = lab.Plan(games=6, players=6, styles=styles, seed=4, cards=cards)
        for i in range(plan.games):
            rnd = random.Random(f"lab:{plan.seed}:{i}")
            setup = random_setup(rnd, 6, rnd.getrandbits(63), True, cards)
            bots = {name: lab.make_bot(style, rnd.getrandbits(63))
                    for name, style in zip(setup.players, plan.styles_of(i), strict=True)}
            arena = Arena(setup, bots)
            s = arena.play()
            expected = lab.record(s, lab.tally(s.events, arena.actions), plan.styles_of(i))
            assert lab.play_game(plan, i) == expected, (cards, styles, i)


@pytest.mark.parametrize(("players", "seed"), [(4, 159), (5, 856), (6, 943), (7, 622), (8, 678)])
def test_a_take_of_nothing_after_the_dictators_ban_is_the_engines_too(players, seed):
    """Nothing left to take but the kind the Dictator forbade: the taker passes (R19), a
    rare turn (found among these seeds by playing them in the arena)."""
    (lean, tally, rnds), (engine, counted, bots) = both_ways(players, seed, True)
    assert any(type(e).__name__ == "Passed" for e in engine.events)
    assert without_story(lean) == without_story(engine)
    assert tally == counted
    assert [r.getstate() for r in rnds] == [b.rnd.getstate() for b in bots.values()]
