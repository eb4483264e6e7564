"""Rulings R1 to R15: the table, the turn, the split and the score."""

from __future__ import annotations

from collections import Counter

import pytest
from rules_helpers import (
    FOUR,
    aims,
    chooses,
    courage,
    events,
    last_round,
    legal,
    lines,
    ok,
    player,
    refused,
    run,
    state_of,
    takes,
)

from companion.rules.cards import DECK_COUNTS
from companion.yamlfile import YamlError

CLICKS = chooses(Ana="click", Bob="click", Cyd="click", Dee="click")


def test_r1_fresh_players_and_the_godfathers_desk():
    out = ok(FOUR)
    assert out["godfather"] == "Ana"
    assert (out["round"], out["phase"]) == (1, "choose")
    for p in out["players"]:
        assert (p["hand"], p["wounds"], p["loot"], p["alive"]) == (
            {"bang": 3, "click": 5}, 0, [], True)
    assert [p["seat"] for p in out["players"]] == [1, 2, 3, 4]


@pytest.mark.parametrize("names", [["A", "B", "C"], [f"P{i}" for i in range(9)]])
def test_r1_four_to_eight_players(names):
    with pytest.raises(YamlError, match="players: must list 4 to 8"):
        run(f"players: {names}\n".replace("'", ""))


def test_r2_official_deck_in_eight_piles_of_eight():
    s = state_of(FOUR + "seed: 11\n")
    assert len(s.table) == 8 and s.token
    assert len(s.piles) == 7 and all(len(p) == 8 for p in s.piles)
    assert Counter(s.table + [c for p in s.piles for c in p]) == Counter(DECK_COUNTS)
    assert state_of(FOUR + "seed: 11\n").table == s.table
    assert state_of(FOUR + "seed: 12\n").piles != s.piles


def test_r3_steps_in_order():
    h = last_round()
    assert ok(h)["phase"] == "choose"
    assert ok(h, CLICKS)["phase"] == "holdup"
    after_aims = lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"))
    assert ok(h, after_aims)["phase"] == "privilege"
    passed = lines(after_aims, "{type: privilege, player: Ana, order: null}")
    assert ok(h, passed)["phase"] == "courage"
    assert ok(h, lines(passed, courage()))["phase"] == "split"
    refused(h, "{type: aim, player: Ana, target: Bob}", "R3")
    refused(h, lines(CLICKS, "{type: courage, player: Ana, down: true}"), "R3")
    refused(h, lines(after_aims, takes("Ana bill5000")), "R3")


def test_r4_too_slow_holds_nobody_up_but_can_be_shot_and_share():
    h = last_round()
    out = ok(h, lines(chooses(Ana="bang", Bob="bang", Cyd="click", Dee="click"),
                      aims(Ana=None, Bob="Cyd", Cyd="Dee", Dee="Ana"), courage()))
    assert [e["player"] for e in events(out, "too_slow")] == ["Ana"]
    assert player(out, "Cyd")["wounds"] == 1  # Bob's Bang!
    assert all(player(out, n)["wounds"] == 0 for n in ("Ana", "Bob", "Dee"))
    assert out["discard"] == {"bang": 2, "click": 2}  # Ana's Bang! discarded, no effect
    out = ok(h, lines(chooses(Ana="bang", Bob="bang", Cyd="click", Dee="click"),
                      aims(Ana=None, Bob="Ana", Cyd="Dee", Dee="Cyd"), courage()))
    assert player(out, "Ana")["wounds"] == 1
    out = ok(h, lines(CLICKS, aims(Ana=None, Bob="Cyd", Cyd="Dee", Dee="Bob"), courage(),
                      takes("Ana bill10000")))
    assert player(out, "Ana")["loot"] == ["bill10000"]


def test_r5_privilege_orders_a_new_target():
    h = last_round()
    held = lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee=None))
    order_bob = lines(held, "{type: privilege, player: Ana, order: Bob}")
    refused(h, lines(order_bob, "{type: aim, player: Bob, target: Cyd}"), "R5")  # old target
    refused(h, lines(order_bob, "{type: aim, player: Bob, target: Bob}"), "R5")  # oneself
    refused(h, lines(order_bob, "{type: aim, player: Bob, target: null}"), "R5")
    refused(h, lines(order_bob, "{type: aim, player: Cyd, target: Ana}"), "R5")  # not ordered
    refused(h, lines(order_bob, "{type: courage, player: Ana, down: true}"), "R3")  # not optional
    out = ok(h, lines(order_bob, "{type: aim, player: Bob, target: Ana}"))  # Godfather included
    assert out["phase"] == "courage"
    refused(h, lines(held, "{type: privilege, player: Ana, order: Ana}"), "R5")
    refused(h, lines(held, "{type: privilege, player: Bob, order: Cyd}"), "R5")
    # The too slow may be ordered and must then aim at someone.
    out = ok(h, lines(held, "{type: privilege, player: Ana, order: Dee}",
                      "{type: aim, player: Dee, target: Ana}",
                      courage(), ))
    assert [e["type"] for e in out["events"]].count("too_slow") == 0


def test_r5_an_order_that_leaves_no_target_is_refused():
    h = last_round(extra="") .replace(
        "    Cyd: {hand: {bang: 1, click: 1}}", "    Cyd: {alive: false}").replace(
        "    Dee: {hand: {bang: 1, click: 1}}", "    Dee: {alive: false}")
    held = lines(chooses(Ana="click", Bob="click"), aims(Ana="Bob", Bob="Ana"))
    s_actions = [a for a in legal(state_of(h))]
    assert not any("privilege" in a for a in s_actions)
    refused(h, lines(held, "{type: privilege, player: Ana, order: Bob}"), "R3")
    assert ok(h, held)["phase"] == "courage"  # no order is possible: the step is passed


def test_r6_lying_down_no_share_and_no_shooting_cowards():
    h = last_round()
    out = ok(h, lines(chooses(Ana="click", Bob="click", Cyd="bang", Dee="bang"),
                      aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"),
                      courage(down=("Dee",)),
                      takes("Ana bill5000", "Bob bill10000", "Cyd painting", "Ana godfather")))
    assert player(out, "Dee")["wounds"] == 0  # lay down: never wounded
    assert player(out, "Ana")["wounds"] == 0  # Dee's Bang! discarded face down
    assert player(out, "Dee")["loot"] == []
    assert out["phase"] == "over"
    refused(h, lines(chooses(Ana="click", Bob="click", Cyd="bang", Dee="bang"),
                     aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"),
                     courage(down=("Dee",)), takes("Ana bill5000", "Bob bill10000"),
                     takes("Cyd painting", "Dee godfather")), "R10")


def test_r7_effects_all_at_once_and_the_wounded_take_no_share():
    h = last_round()
    out = ok(h, lines(chooses(Ana="bang", Bob="bang", Cyd="click", Dee="click"),
                      aims(Ana="Bob", Bob="Ana", Cyd="Dee", Dee="Cyd"), courage()))
    assert player(out, "Ana")["wounds"] == player(out, "Bob")["wounds"] == 1
    assert out["phase"] == "split"
    r = run(h, lines(chooses(Ana="bang", Bob="bang", Cyd="click", Dee="click"),
                     aims(Ana="Bob", Bob="Ana", Cyd="Dee", Dee="Cyd"), courage(),
                     takes("Cyd bill5000", "Dee bill10000")))
    assert r.error is None  # Cyd, clockwise after the wounded Godfather and Bob, starts
    assert [e["loot"] for e in events(r.output, "took")] == ["bill5000", "bill10000"]
    assert out["discard"] == {"bang": 2, "click": 2}  # revealed cards go to the discard


def test_r8_death_at_three_wounds():
    h = (FOUR + "start:\n  round: 7\n  players:\n"
         "    Bob: {wounds: 2, loot: [painting, bill20000]}\n"
         "loot:\n  - [bill5000, bill10000]\n  - [bill5000]\n")
    r1 = lines(chooses(Ana="bang", Bob="click", Cyd="click", Dee="click"),
               aims(Ana="Bob", Bob="Ana", Cyd="Dee", Dee="Cyd"), courage())
    out = ok(h, r1)
    bob = player(out, "Bob")
    assert (bob["alive"], bob["wounds"], bob["hand"]) == (False, 3, {"bang": 0, "click": 0})
    assert bob["loot"] == ["painting", "bill20000"] and bob["score"]["total"] == 0
    assert out["discard"] == {"bang": 1, "click": 3}  # Bob's hand left the game
    assert [e["player"] for e in events(out, "eliminated")] == ["Bob"]
    r1 = lines(r1, takes("Ana bill5000", "Cyd bill10000", "Dee godfather"))
    r2 = chooses(Ana="click", Cyd="click", Dee="click")
    refused(h, lines(r1, "{type: choose, player: Bob, card: click}"), "R8")
    refused(h, lines(r1, r2, "{type: aim, player: Ana, target: Bob}"), "R8")


def test_r9_last_one_standing_wins_at_once():
    h = (FOUR + "start:\n  round: 7\n  players:\n    Ana: {wounds: 2}\n    Bob: {wounds: 2}\n"
         "    Cyd: {alive: false}\n    Dee: {alive: false}\n"
         "loot:\n  - [bill5000]\n  - [bill5000]\n")
    out = ok(h, lines(chooses(Ana="bang", Bob="click"), aims(Ana="Bob", Bob="Ana"),
                      courage(("Ana", "Bob"))))
    assert (out["phase"], out["round"], out["winners"]) == ("over", 7, ["Ana"])
    refused(h, lines(chooses(Ana="bang", Bob="click"), aims(Ana="Bob", Bob="Ana"),
                     courage(("Ana", "Bob")), takes("Ana bill5000")), "R9")
    out = ok(h, lines(chooses(Ana="bang", Bob="bang"), aims(Ana="Bob", Bob="Ana"),
                      courage(("Ana", "Bob"))))
    assert (out["phase"], out["winners"]) == ("over", [])


def test_r10_split_from_the_godfather_clockwise_round_and_round():
    h = last_round(loot="[bill5000, bill5000, bill5000, bill5000, bill5000]")
    held = lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"))
    out = ok(h, lines(held, courage(down=("Ana", "Cyd")),
                      takes("Bob bill5000", "Dee bill5000", "Bob bill5000", "Dee bill5000",
                            "Bob bill5000", "Dee godfather")))
    assert len(player(out, "Bob")["loot"]) == 3 and out["phase"] == "over"
    refused(h, lines(held, courage(down=("Ana",)), takes("Cyd bill5000")), "R10")
    refused(h, lines(held, courage(), takes("Ana painting")), "R10")  # not on the table


@pytest.mark.parametrize("variant,carried", [("carry_over", True), ("discard", False)])
def test_r11_unclaimed_loot(variant, carried):
    h = (FOUR + f"variant: {{unclaimed_loot: {variant}}}\n"
         "start:\n  round: 7\nloot:\n  - [painting, bill5000]\n  - [bill20000]\n")
    out = ok(h, lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"),
                      courage(down=("Ana", "Bob", "Cyd", "Dee"))))
    assert out["round"] == 8
    expected = ["painting", "bill5000", "bill20000"] if carried else ["bill20000"]
    assert sorted(out["table"]["loot"]) == sorted(expected)
    assert events(out, "unclaimed")[0]["carried"] is carried


def test_r11_leftovers_after_round_8_score_nothing():
    h = last_round()
    out = ok(h, lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"),
                      courage(down=("Ana", "Bob", "Cyd", "Dee"))))
    assert out["phase"] == "over" and out["table"]["loot"] == []
    assert all(p["score"]["total"] == 0 for p in out["players"])
    assert sorted(out["winners"]) == ["Ana", "Bob", "Cyd", "Dee"]  # all tied: shared


def test_r12_the_godfathers_desk():
    h = FOUR + "start:\n  round: 6\nloot:\n  - [bill5000]\n  - [bill5000]\n  - [bill5000]\n"
    held = lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"))
    out = ok(h, lines(held, courage(), takes("Ana bill5000", "Bob godfather")))
    assert (out["round"], out["godfather"]) == (7, "Bob")
    out = ok(h, lines(held, courage(down=("Ana", "Bob", "Cyd", "Dee"))))
    assert (out["round"], out["godfather"]) == (7, "Ana")  # nobody took it: it stays
    dead_gf = h.replace("start:\n  round: 6\n",
                        "start:\n  round: 6\n  players:\n    Ana: {wounds: 2}\n")
    out = ok(dead_gf, lines(chooses(Ana="bang", Bob="bang", Cyd="bang", Dee="bang"), aims(
        Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"), courage()))  # all wounded, Ana dies
    assert (out["round"], out["godfather"]) == (7, "Bob")  # dead Godfather: next living
    h8 = last_round()
    out = ok(h8, lines(held, courage(), takes("Ana bill5000", "Bob godfather", "Cyd painting",
                                              "Dee bill10000")))
    assert (out["phase"], out["godfather"]) == ("over", "Ana")  # no next round


def test_r13_first_aid_kit_heals_all_and_is_discarded():
    h = last_round(loot="[first_aid, bill5000]").replace(
        "    Ana: {hand: {bang: 1, click: 1}}", "    Ana: {wounds: 2, hand: {bang: 1, click: 1}}")
    held = lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"), courage())
    out = ok(h, lines(held, takes("Ana first_aid")))
    assert player(out, "Ana")["wounds"] == 0 and player(out, "Ana")["loot"] == []
    out = ok(h, lines(held, takes("Ana bill5000", "Bob first_aid")))
    assert player(out, "Bob")["loot"] == [] and "first_aid" not in out["table"]["loot"]


def test_r14_clip_brings_a_bang_back_for_a_click():
    h = last_round(hands="{bang: 1, click: 2}", loot="[clip, clip, bill5000]").replace(
        "round: 8\n", "round: 8\n  discard: {bang: 1}\n", 1)
    held = lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"), courage())
    out = ok(h, lines(held, takes("Ana clip")))
    assert player(out, "Ana")["hand"] == {"bang": 2, "click": 0}
    assert out["discard"] == {"bang": 0, "click": 5}
    assert player(out, "Ana")["loot"] == []  # the Clip is discarded
    out = ok(h, lines(held, takes("Ana clip", "Bob clip")))  # no Bang! left: nothing happens
    assert player(out, "Bob")["hand"] == {"bang": 1, "click": 1}
    assert [e["reloaded"] for e in events(out, "clip")] == [True, False]
    out = ok(h.replace("discard: {bang: 1}", "discard: {bang: 0}"), lines(held, takes("Ana clip")))
    assert player(out, "Ana")["hand"] == {"bang": 1, "click": 1}


def test_r14_clip_needs_a_click_in_hand():
    h = last_round(loot="[clip]").replace("round: 8\n", "round: 8\n  discard: {bang: 1}\n", 1)
    held = lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"), courage())
    out = ok(h, lines(held, takes("Ana clip")))  # Ana's only Click! is face down
    assert player(out, "Ana")["hand"] == {"bang": 1, "click": 0}
    assert out["discard"]["bang"] == 1


def test_r15_final_count_paintings_bonus_and_ties():
    h = (FOUR + "start:\n  round: 8\n  players:\n"
         "    Ana: {loot: [painting, painting, painting, diamond1000], hand: {bang: 0, click: 1}}\n"
         "    Bob: {wounds: 1, loot: [bill20000, bill10000, diamond1000], "
         "hand: {bang: 0, click: 1}}\n"
         "    Cyd: {loot: [bill20000, bill10000, bill5000], hand: {bang: 0, click: 1}}\n"
         "    Dee: {hand: {bang: 0, click: 1}}\n"
         "loot:\n  - []\n")
    out = ok(h, lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"), courage(),
                      takes("Ana godfather")))
    ana, bob = player(out, "Ana")["score"], player(out, "Bob")["score"]
    assert ana == {"bills": 0, "diamonds": 1000, "diamond_bonus": 0, "paintings": 30000,
                   "total": 31000}  # diamond tie: no bonus
    assert bob["total"] == 31000 and player(out, "Cyd")["score"]["total"] == 35000
    assert out["winners"] == ["Cyd"]
    tie = h.replace("bill20000, bill10000, bill5000", "bill20000, bill10000, diamond1000")
    out = ok(tie, lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"), courage(),
                        takes("Ana godfather")))
    assert out["winners"] == ["Bob"]  # 31000 each: the most wounds wins
    shared = tie.replace("wounds: 1, ", "")
    out = ok(shared, lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"), courage(),
                           takes("Ana godfather")))
    assert sorted(out["winners"]) == ["Ana", "Bob", "Cyd"]


@pytest.mark.parametrize("n,value", [(1, 4000), (2, 12000), (3, 30000), (4, 60000), (5, 100000),
                                     (6, 150000), (7, 200000), (8, 300000), (9, 400000),
                                     (10, 500000), (11, 500000)])
def test_r15_painting_sets(n, value):
    h = FOUR + (f"start:\n  round: 8\n  players:\n    Ana: {{loot: {['painting'] * n}}}\n"
                "loot:\n  - []\n").replace("'", "")
    assert player(ok(h), "Ana")["score"]["paintings"] == value


PHYSICAL_ROUND_7 = """players: [Ana, Bob, Cyd, Dee]
loot_mode: physical
powers: {Bob: junk_dealer}
start:
  round: 7
  players:
    Ana: {hand: {bang: 1, click: 1}}
    Bob: {hand: {bang: 1, click: 1}}
    Cyd: {hand: {bang: 1, click: 1}}
    Dee: {hand: {bang: 1, click: 1}}
"""
ROUND_7 = """
{type: deal, player: Ana, loot: [diamond10000, diamond5000, diamond5000]}
{type: choose, player: Ana, card: click}
{type: choose, player: Bob, card: click}
{type: choose, player: Cyd, card: click}
{type: choose, player: Dee, card: click}
{type: aim, player: Ana, target: Bob}
{type: aim, player: Bob, target: Cyd}
{type: aim, player: Cyd, target: Dee}
{type: aim, player: Dee, target: Ana}
{type: courage, player: Ana, down: false}
{type: courage, player: Bob, down: false}
{type: courage, player: Cyd, down: true}
{type: courage, player: Dee, down: true}
{type: take, player: Ana, loot: diamond10000}
{type: take, player: Bob, loot: diamond5000}
"""


def test_r2_a_pile_beyond_what_the_deck_has_left_is_refused():
    """The deck has one $10,000 diamond and three $5,000 ones (R2): once turned up, a later
    pile cannot hold them again, except a card the Junk Dealer put back into a later pile."""
    out = refused(PHYSICAL_ROUND_7, ROUND_7 + """
{type: junk, player: Bob, got: painting}
{type: take, player: Ana, loot: diamond5000}
{type: take, player: Bob, loot: godfather}
{type: deal, player: Bob, loot: [diamond10000, bill5000]}
""", "R2")
    assert "the deck has 1 diamond10000, 1 turned up before, the pile 1" in out["error"]["message"]
    assert out["round"] == 8 and out["table"]["loot"] == []  # (refused: nothing changed)
    refused(PHYSICAL_ROUND_7, ROUND_7 + """
{type: junk, player: Bob, got: painting}
{type: take, player: Ana, loot: diamond5000}
{type: take, player: Bob, loot: godfather}
{type: deal, player: Bob, loot: [diamond5000, diamond5000, diamond5000]}
""", "R2")
    # the $5,000 diamond Bob gave back lies in the later pile: turned up again, it is dealt
    after = ok(PHYSICAL_ROUND_7, ROUND_7 + """
{type: junk, player: Bob, got: painting}
{type: take, player: Ana, loot: diamond5000}
{type: take, player: Bob, loot: godfather}
{type: deal, player: Bob, loot: [diamond5000, diamond5000]}
""")
    assert sorted(after["table"]["loot"]) == ["diamond5000", "diamond5000"]
