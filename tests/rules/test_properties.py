"""Properties over many random legal games: conservation, limits, agreement, replay."""

from __future__ import annotations

import contextlib
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import deal_due

from companion.bots.random_bot import NAMES, deal_action, play, random_setup
from companion.rules import (
    Action,
    RuleError,
    apply,
    apply_in_place,
    legal_actions,
    new_game,
    state_to_dict,
)
from companion.rules.actions import ACTIONS, FIELDS
from companion.rules.cards import BULLETS, DECK_COUNTS, KINDS, LOOT_KIND, TOKEN, official_deck
from companion.rules.engine import pass_window, window
from companion.rules.events import Dealt, Event, GoodFriend, JunkSwapped, RoundBegun
from companion.rules.powers import wound_limit
from companion.rules.setup import Setup
from companion.rules.state import GameState

SHARES = (*LOOT_KIND, TOKEN)


def loot_in_play(s: GameState) -> Counter[str]:
    cards = s.table + s.out + [c for pile in s.piles for c in pile]
    return Counter(cards + [c for p in s.players for c in p.loot])


def check_invariants(s: GameState, new_events: list[Event], start_hand_extra: dict[str, int],
                     ) -> None:
    if not s.physical_loot:  # (real piles: the companion sees only what is dealt)
        assert loot_in_play(s) == Counter(DECK_COUNTS)
    for p in s.players:
        if p.alive:
            assert p.wounds < wound_limit(p.power), (p.name, p.wounds)
        else:
            assert p.bang == p.click == 0
    if s.physical:
        return
    if not any(not p.alive for p in s.players):
        held = sum(p.hand_size + (p.card is not None) for p in s.players)
        assert held + s.discard_bang + s.discard_click == 8 * len(s.players)
    if any(isinstance(e, RoundBegun) for e in new_events) and s.phase in ("loot", "choose"):
        for p in s.living():  # R1: one card a round; Clip and Hustler swap, Good Friend adds
            if p.card is None:  # (the action that began the round may be a choice in it)
                assert p.hand_size == 9 - s.round + start_hand_extra.get(p.name, 0), p.name


def random_action(rnd: random.Random, names: tuple[str, ...]) -> Action:
    """Any action of the language, legal or not, for the agreement check."""
    kind = rnd.choice(tuple(FIELDS))
    who = (None, *names)
    values = {
        "card": (None, *BULLETS), "give": (None, *BULLETS), "discard": (None, *BULLETS),
        "target": who, "victim": who, "got": (None, *LOOT_KIND),
        "order": who, "down": (True, False), "keep": (None, True, False), "kind": KINDS,
        "pile": (None, *range(1, 9)),
        "loot": (None, *SHARES, *[tuple(rnd.sample(SHARES, 2)) for _ in range(3)],
                 tuple(rnd.choices(tuple(LOOT_KIND), k=rnd.randint(1, 8)))),
    }
    fields = {f: rnd.choice(values[f]) for f in FIELDS[kind]}
    return ACTIONS[kind](rnd.choice(names), **fields)


def accepted(s: GameState, a: Action) -> bool:
    try:
        apply(s, a)
    except RuleError:
        return False
    return True


def dealable(s: GameState, a: Action) -> bool:
    """The one action `legal_actions` cannot list (any cards): accepted from the Godfather
    once the optional steps before the next deal are passed, as `apply` passes them."""
    t = s.copy()
    while (w := window(t)) is not None:
        pass_window(t, w)
    left = Counter(official_deck())  # R2's 64 cards, less the piles turned up before;
    for e in t.events:  # a card the Junk Dealer put into a later pile comes back with it
        if isinstance(e, Dealt):
            left.subtract(e.loot)
        elif isinstance(e, JunkSwapped) and e.pile is None:
            left[e.gave] += 1
    return (a.type == "deal" and deal_due(t) and a.player == t.players[t.godfather].name
            and isinstance(a.loot, tuple) and all(c in LOOT_KIND for c in a.loot)
            and all(a.loot.count(c) <= left[c] for c in a.loot))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(4, 8), powers=st.booleans(), seed=st.integers(0, 2**32),
       variant=st.sampled_from(["carry_over", "discard"]),
       cards=st.sampled_from(["digital", "physical"]),
       loot_mode=st.sampled_from(["digital", "physical"]))
def test_legal_actions_and_apply_agree_at_every_step(players, powers, seed, variant, cards,
                                                     loot_mode):
    rnd = random.Random(seed)
    setup = random_setup(rnd, players, seed, powers, cards, loot_mode)
    deck = official_deck()
    rnd.shuffle(deck)
    setup = Setup(setup.players, setup.powers, setup.seed, {"unclaimed_loot": variant},
                  cards=setup.cards, loot_mode=setup.loot_mode)
    s = new_game(setup)
    extra: dict[str, int] = Counter()
    names = NAMES[:players]
    shown = state_to_dict(s)  # made once a step: the events before a step are those after
    # the last, so trying actions (apply on refusals and on listed ones) changed none of them
    while s.phase != "over":
        legal = legal_actions(s)
        assert bool(legal) != deal_due(s), "only a deal (any cards) is not listed"
        if deal_due(s):
            for _ in range(6):
                a = random_action(rnd, names)
                assert accepted(s, a) == dealable(s, a), f"a deal only from the Godfather: {a}"
            s, events = apply(s, deal_action(s, deck))
            shown = state_to_dict(s)
            continue
        assert len(set(legal)) == len(legal), "no action listed twice"
        for a in rnd.sample(legal, min(len(legal), 6)):
            assert accepted(s, a), f"listed but refused: {a}"
        for _ in range(6):
            a = random_action(rnd, names)
            expected = dealable(s, a) if a.type == "deal" else a in legal
            assert accepted(s, a) == expected, f"apply and legal_actions disagree on {a}"
        s, events = apply(s, rnd.choice(legal))
        extra.update(e.player for e in events if isinstance(e, GoodFriend))
        check_invariants(s, events, extra)
        before, shown = shown, state_to_dict(s)
        assert before["events"] == shown["events"][: len(before["events"])]
    assert s.round == 8 or len(s.living()) <= 1


def test_thousands_of_random_games_hold_the_invariants_and_replay_identically():
    for i in range(1500):
        rnd = random.Random(i)
        players = 4 + i % 5
        cards = "physical" if i % 7 == 0 else "digital"
        loot_mode = "physical" if i % 11 == 0 else "digital"
        game = play(random_setup(rnd, players, i, powers=i % 3 != 0, cards=cards,
                                 loot_mode=loot_mode), rnd)
        s = game.state
        assert s.phase == "over"
        assert s.physical_loot or loot_in_play(s) == Counter(DECK_COUNTS)
        assert all(p.wounds < wound_limit(p.power) for p in s.living())
        assert set(s.winners) <= {p.name for p in s.living()}
        if i % 10 == 0:  # replaying the log from the seed gives the same game
            again = new_game(game.setup)
            extra: dict[str, int] = Counter()
            for a in game.actions:
                n = len(again.events)
                apply_in_place(again, a)
                new = again.events[n:]
                extra.update(e.player for e in new if isinstance(e, GoodFriend))
                check_invariants(again, new, extra)
            assert state_to_dict(again) == state_to_dict(s)


def test_a_refused_action_changes_nothing():
    rnd = random.Random(5)
    game = play(random_setup(rnd, 6, 5, powers=True), rnd)
    s = new_game(game.setup)
    for a in game.actions[:120]:
        before = state_to_dict(s)
        for _ in range(5):
            bad = random_action(rnd, game.setup.players)
            with contextlib.suppress(RuleError):
                apply(s, bad)
            assert state_to_dict(s) == before
        s, _ = apply(s, a)
