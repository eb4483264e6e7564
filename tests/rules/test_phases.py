"""The phase table (issue 11): every step declared once, and what it says agrees with the rules.

`waiting_for`, `open_windows` and `countdown_step` are what the referee and the views read
instead of branching on phase names; here they are checked against `legal_actions` and
against what the referee accepts, over many random games.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import FOUR, deal_due, mixed_games, state_of, states
from still_to_act import StillToAct

from companion.rules import (
    TABLE,
    Action,
    GameState,
    apply,
    countdown_step,
    legal_actions,
    open_windows,
    phase_of,
    waiting,
    waiting_for,
)
from companion.rules.actions import FIELDS, Aim, Choose
from companion.rules.engine import window
from companion.rules.phases import (
    ACTION_TYPES,
    ALL,
    COUNTDOWN,
    GODFATHER,
    NOBODY,
    PHASE,
    TURN,
    describe,
)
from companion.rules.powers import KID, POWERS
from companion.rules.state import PHASES

# -- the table itself ----------------------------------------------------------------------


def test_the_table_names_every_phase_once_in_the_order_of_a_turn():
    assert tuple(ph.name for ph in TABLE) == PHASES
    assert list(PHASE) == list(PHASES)


def test_the_table_accepts_exactly_the_actions_of_the_language():
    assert set(FIELDS) == ACTION_TYPES
    for ph in TABLE:
        windows = {w.name for w in ph.windows}
        assert not windows & set(ph.handlers), ph.name
        assert set(ph.accepts) == set(ph.handlers) | windows


def test_who_acts_and_the_countdown_stages():
    acts = {ph.name: ph.acts for ph in TABLE}
    assert acts == {"loot": GODFATHER, "choose": ALL, "holdup": ALL, "privilege": GODFATHER,
                    "courage": ALL, "reveal": ALL, "split": TURN, "over": NOBODY}
    assert {ph.name for ph in TABLE if ph.stage == COUNTDOWN} == {"holdup", "courage"}
    assert all(ph.stage in (None, COUNTDOWN) for ph in TABLE)
    assert [ph.name for ph in TABLE if ph.then is None] == ["over"]


def test_the_optional_windows():
    windows = {ph.name: [(w.name, w.power, w.rests) for w in ph.windows] for ph in TABLE}
    assert windows == {
        "loot": [("hustle", "hustler", True)],
        "choose": [],
        "holdup": [("swap", "cunning", True)],
        "privilege": [("privilege", None, True)],
        "courage": [("smart", "smart", True)],
        "reveal": [],
        "split": [("forbid", "dictator", False), ("junk", "junk_dealer", True)],
        "over": [],
    }
    for ph in TABLE:
        for w in ph.windows:
            assert w.power is None or w.power in POWERS
            assert (w.close is not None) == w.rests, w.name


def test_every_phase_of_the_table_is_reached_and_every_resting_state_is_in_it():
    seen = set()
    for s in mixed_games(120):
        assert s.phase in PHASE
        seen.add(s.phase)
        assert not phase_of(s).ends(s), f"the game rests where nobody can act: {s.phase}"
    assert seen == set(PHASES)


# -- "waiting for" agrees with legal_actions -----------------------------------------------


def check_waiting(s: GameState) -> None:
    ph = phase_of(s)
    who = waiting_for(s)
    key, players = waiting(s)
    assert players == who
    assert len(set(who)) == len(who)
    legal = legal_actions(s)
    if deal_due(s):  # the one action legal_actions cannot list: the Godfather's deal
        assert legal == []
        assert (key, who) == ("deal", (s.players[s.godfather].name,))
        return
    if ph.then is None:
        assert legal == [] and who == () and open_windows(s) == ()
        return
    w = window(s)
    if w is not None:  # resting at an optional step: its holder, alone, is waited for
        own = [a for a in legal if a.type == w]
        assert key == w
        assert {a.player for a in own} == set(who) and len(who) == 1
        assert (w, who[0]) in open_windows(s)
        return
    # the step's own actions come from exactly those waited for; optional ones alongside
    duty = [a for a in legal if a.type in ph.handlers]
    assert key == ph.duty
    assert who, f"the game rests at {s.phase} waiting for nobody"
    assert {a.player for a in duty} == set(who), (s.phase, who)
    beside = {(a.type, a.player) for a in legal if a.type not in ph.handlers}
    assert beside == set(open_windows(s))  # (the Dictator's, beside the turn)
    assert all(a.type in ph.accepts for a in legal), "no later step's action to pass to"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(4, 8), powers=st.booleans(), seed=st.integers(0, 2**32),
       cards=st.sampled_from(["digital", "physical"]),
       loot_mode=st.sampled_from(["digital", "physical"]))
def test_waiting_for_agrees_with_legal_actions(players, powers, seed, cards, loot_mode):
    for s in states(seed, players, powers, cards, loot_mode):
        check_waiting(s)


def test_waiting_for_agrees_with_legal_actions_in_hundreds_of_games():
    for s in mixed_games(300):
        check_waiting(s)


def test_the_kid_is_waited_for_only_once_every_other_living_player_has_aimed():
    saw_kid_alone = saw_kid_waiting = 0
    for i in range(400):
        for s in states(i, 4 + i % 5, powers=True):
            kid = s.holder(KID)
            if s.phase != "holdup" or kid is None or kid.aimed:
                continue
            others = [p.name for p in s.living() if not p.aimed and p is not kid]
            if others:
                assert waiting_for(s) == tuple(others)
                saw_kid_waiting += 1
            else:
                assert waiting_for(s) == (kid.name,)
                saw_kid_alone += 1
    assert saw_kid_alone and saw_kid_waiting


# -- the countdown: what the rules say -----------------------------------------------------


def test_countdown_step_follows_the_rules_over_many_games():
    """R3 and R25, told from the actions played, not from the state's flags: everyone aims
    at once on "three" (the Kid after every other living player), then everyone decides at
    once whether to lie down. So the hold-up has a countdown while a living player has not
    aimed in it, the courage step while one has not decided, and the count reads those
    players (only the Kid, once the Kid alone has still to aim)."""
    played: list[Action] = []
    turn, seen, counted = StillToAct(), 0, 0
    for s in mixed_games(300, played):
        for a in played[seen:]:
            turn.played(a)
        seen = len(played)
        left = turn.left(s)
        expected = s.phase if left else None
        assert countdown_step(s) == expected
        if expected is None:
            continue
        counted += 1
        kid_alone = s.phase == "holdup" and all(p.power == KID for p in left)
        assert list(waiting_for(s)) == [p.name for p in left if s.phase == "courage"
                                        or (p.power == KID) == kid_alone]
        assert phase_of(s).stage == COUNTDOWN
    assert counted > 1000


KID_TABLE = FOUR + "powers: {Dee: kid}\n"


def play(s: GameState, *actions: Action) -> GameState:
    for a in actions:
        s, _ = apply(s, a)
    return s


CHOSEN = [Choose(n, card="click") for n in ("Ana", "Bob", "Cyd", "Dee")]


def test_a_countdown_for_the_kid_alone_once_the_others_have_aimed():
    """R25: the Kid aims after every other living player, so once only the Kid is left the
    hold-up still has a countdown, for the Kid alone (the referee accepts it; the pages
    refused it)."""
    s = play(state_of(KID_TABLE), *CHOSEN)
    assert countdown_step(s) == "holdup"
    assert waiting_for(s) == ("Ana", "Bob", "Cyd")
    s = play(s, Aim("Ana", target="Bob"), Aim("Bob", target=None))
    assert waiting_for(s) == ("Cyd",)
    s = play(s, Aim("Cyd", target="Ana"))
    assert countdown_step(s) == "holdup"
    assert waiting(s) == ("holdup", ("Dee",))
    assert [str(a) for a in legal_actions(s)][:1] == ["{type: aim, player: Dee, target: null}"]
    s = play(s, Aim("Dee", target="Ana"))
    assert countdown_step(s) is None
    assert waiting(s) == ("privilege", ("Ana",))


def test_no_countdown_once_everyone_has_acted_even_with_a_window_open():
    header = FOUR + "powers: {Bob: cunning}\n"
    s = play(state_of(header), *CHOSEN, *[Aim(n, target=t) for n, t in
                                          (("Ana", "Bob"), ("Bob", "Cyd"), ("Cyd", "Dee"),
                                           ("Dee", "Ana"))])
    assert s.phase == "holdup"
    assert countdown_step(s) is None
    assert waiting(s) == ("swap", ("Bob",))
    assert open_windows(s) == (("swap", "Bob"),)


# -- the words -----------------------------------------------------------------------------


def test_the_words_name_whom_the_table_waits_for():
    s = play(state_of(KID_TABLE), *CHOSEN[:2])
    assert describe(s) == "the game is at the bullet choice step, waiting for Cyd, Dee to " \
                          "choose a card"
    s = play(s, *CHOSEN[2:])
    assert describe(s) == "the game is at the hold-up step, waiting for aims from Ana, Bob, Cyd"
    for s in mixed_games(40):
        text = describe(s)
        assert text.startswith(f"the game is at the {phase_of(s).words} step")
        assert all(name in text for name in waiting_for(s))
