"""What the engine keeps instead of rescanning, and the draw that does not list (issue 13).

The steps of everyone at once keep who they still wait for and how many actions those
have; the state notes the window it rests at; `draw_legal` draws what `random.choice` draws
from `legal_actions`, passing windows in place and putting them back. Each is checked here
against what it replaces, at every state of many random games.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import deal_due, mixed_games, states

from companion.bots.random_bot import deal_action, play, random_setup
from companion.rules import (
    GameState,
    LegalActions,
    apply,
    apply_in_place,
    draw_legal,
    legal_actions,
    new_game,
    phase_of,
    play_random,
    state_to_dict,
)
from companion.rules.cards import official_deck
from companion.rules.engine import pass_window
from companion.rules.legal import _pass_in_place, _put_back
from companion.rules.state import Player


def everything(s: GameState) -> dict[str, Any]:
    """Every field of the state and of its players, for exact comparisons."""
    out = {name: getattr(s, name) for name in GameState.__slots__ if name != "players"}
    out["players"] = [{name: getattr(p, name) for name in Player.__slots__} for p in s.players]
    return out


def check_draw(s: GameState, seed: int) -> None:
    """`draw_legal` draws what `rnd.choice(legal_actions(s))` draws, consumes the same
    random numbers, leaves `s` as it was, and hands a state the action applies to."""
    before = everything(s)
    listed, counting = random.Random(seed), random.Random(seed)
    legal = legal_actions(s)
    drawn = draw_legal(s, counting)
    assert everything(s) == before, "draw_legal left the state changed"
    if not legal:  # (a deal due, or the game over)
        assert drawn is None and (deal_due(s) or phase_of(s).then is None)
        return
    assert drawn is not None
    action, at = drawn
    assert action == listed.choice(legal)
    assert counting.getstate() == listed.getstate()
    expected = state_to_dict(apply(s, action)[0])
    assert state_to_dict(apply(at, action)[0]) == expected


def test_draw_legal_draws_what_choice_draws_from_the_list_in_hundreds_of_games():
    for k, s in enumerate(mixed_games(150)):
        check_draw(s, k)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(4, 8), powers=st.booleans(), seed=st.integers(0, 2**32),
       cards=st.sampled_from(["digital", "physical"]),
       loot_mode=st.sampled_from(["digital", "physical"]))
def test_draw_legal_draws_what_choice_draws(players, powers, seed, cards, loot_mode):
    for k, s in enumerate(states(seed, players, powers, cards, loot_mode)):
        check_draw(s, seed + k)


def test_the_random_bot_plays_the_games_it_played_when_it_listed_every_action():
    """Same seeds, same games: the bot's draws are `rnd.choice(legal_actions(s))`'s."""
    for i in range(60):
        setup = random_setup(random.Random(i), 4 + i % 5, i, powers=i % 2 == 0)
        rnd = random.Random(i)
        random_setup(rnd, 4 + i % 5, i, powers=i % 2 == 0)
        s = new_game(setup)
        deck = official_deck()
        rnd.shuffle(deck)
        listed = []
        while s.phase != "over":
            legal = legal_actions(s)
            action = rnd.choice(legal) if legal else deal_action(s, deck)
            apply_in_place(s, action)
            listed.append(action)
        rnd = random.Random(i)
        assert play(random_setup(rnd, 4 + i % 5, i, powers=i % 2 == 0), rnd).actions == listed


def test_the_counts_the_steps_of_everyone_keep_are_what_listing_finds():
    """`to_act` is whom the step waits for, `count` how many actions they have, and the
    state's `rests_at` is the window its holders say is open."""
    seen = set()
    for s in mixed_games(200):
        ph = phase_of(s)
        open_ = ph.resting_window(s)
        assert s.rests_at == (None if open_ is None else open_[0].name)
        assert bool(ph.busy(s)) == bool(ph.waiting(s))
        if ph.nth is not None and s.rests_at is None:
            seen.add(s.phase)
            assert s.to_act == [p.seat for p in ph.waiting(s)]
            assert ph.count is not None
            assert ph.count(s) == len(ph.actions(s)) == len(list(ph.actions(s)))
        elif ph.nth is not None:  # (a window of the step: everyone has acted)
            assert s.to_act == []
    assert seen == {"choose", "holdup", "courage"}


def test_legal_actions_counted_and_indexed_is_the_list():
    for s in mixed_games(40):
        legal = LegalActions(s)
        listed = list(legal)
        assert len(legal) == len(listed)
        assert [legal[i] for i in range(len(legal))] == listed
        assert legal[-1:] == listed[-1:]


def test_a_window_passed_in_place_and_put_back_leaves_the_state_as_it_was():
    """Passing a window in place (`legal._pass_in_place`) changes only what it puts back,
    and, when it may pass it so, ends where passing a copy ends."""
    passed_in_place = copied = 0
    for s in mixed_games(300):
        if s.rests_at is None:
            continue
        w = phase_of(s).window_named[s.rests_at]
        before = everything(s)
        reference = s.copy()
        pass_window(reference, w.name)
        moved = _pass_in_place(s, w)
        if moved is None:
            copied += 1
        else:
            passed_in_place += 1
            assert everything(s) == everything(reference)
            _put_back(s, moved)
        assert everything(s) == before
    assert passed_in_place and copied


def test_a_copy_holds_every_field_and_shares_nothing_that_changes():
    for k, s in enumerate(mixed_games(20)):
        if k % 7:
            continue
        c = s.copy()
        assert everything(c) == everything(s)
        assert c.players is not s.players and c.to_act is not s.to_act
        for mine, theirs in zip(c.players, s.players, strict=True):
            assert mine is not theirs and mine.loot is not theirs.loot
        for name in ("piles", "table", "out", "winners", "events"):
            assert getattr(c, name) is not getattr(s, name), name


def test_play_random_plays_what_choice_draws_from_the_list_whole_steps_or_a_few_actions():
    """`play_random` (a step of everyone or the split's takes in one call, windows passed in
    place and drawn among with the step past them) plays the actions and the state
    `rnd.choice(legal_actions(s))` plays, with the same random numbers, in games of every
    kind of table, asked for a few actions at a time; it never plays more than asked."""
    windows_drawn = steps_cut = 0
    for i in range(90):
        setup = random_setup(random.Random(i), 4 + i % 5, i, powers=i % 4 != 0,
                             cards="physical" if i % 3 == 0 else "digital",
                             loot_mode="physical" if i % 5 == 0 else "digital")
        deck = official_deck()
        random.Random(-i).shuffle(deck)
        listed, s, expected = random.Random(i), new_game(setup), []
        while phase_of(s).then is not None:
            legal = legal_actions(s)
            action = listed.choice(legal) if legal else deal_action(s, deck)
            apply_in_place(s, action)
            expected.append(action)
        counting, t, played = random.Random(i), new_game(setup), []
        asked = 1 + i % 7
        while phase_of(t).then is not None:
            before = len(played)
            t = play_random(t, counting, played, before + asked)
            assert len(played) <= before + asked
            if len(played) < before + asked and phase_of(t).then is not None:
                assert deal_due(t)  # (the one action it leaves to its caller)
                action = deal_action(t, deck)
                apply_in_place(t, action)
                played.append(action)
            steps_cut += len(played) == before + asked and t.to_act != []
        assert played == expected, i
        assert state_to_dict(t) == state_to_dict(s)
        assert counting.getstate() == listed.getstate()
        windows_drawn += sum(a.type in ("hustle", "swap", "privilege", "smart", "junk")
                             for a in expected)
    assert windows_drawn > 50 and steps_cut > 50
