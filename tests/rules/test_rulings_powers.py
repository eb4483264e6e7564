"""Rulings R16 to R31: the sixteen powers."""

from __future__ import annotations

from rules_helpers import (
    FOUR,
    aims,
    chooses,
    courage,
    events,
    last_round,
    lines,
    ok,
    player,
    refused,
    takes,
)

CLICKS = chooses(Ana="click", Bob="click", Cyd="click", Dee="click")
RING = aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana")


def with_powers(header: str, **powers: str) -> str:
    return header + "powers: {" + ", ".join(f"{n}: {p}" for n, p in powers.items()) + "}\n"


def with_player(header: str, name: str, entry: str) -> str:
    """Replace a player's start entry in a `last_round` header."""
    old = f"    {name}: {{hand: {{bang: 1, click: 1}}}}\n"
    assert old in header
    return header.replace(old, f"    {name}: {entry}\n")


def test_r16_collector_counts_as_one_more_painting():
    h = with_powers(with_player(last_round(loot="[]"), "Ana",
                                "{loot: [painting, painting], hand: {bang: 1, click: 1}}"),
                    Ana="collector", Bob="kid")
    out = ok(h)
    assert player(out, "Ana")["score"]["paintings"] == 30000
    h = with_powers(last_round(loot="[]"), Bob="collector")
    assert player(ok(h), "Bob")["score"]["paintings"] == 4000


def test_r17_cunning_swaps_after_all_aims_kid_included():
    h = with_powers(last_round(), Bob="cunning", Dee="kid")
    refused(h, lines(CLICKS, aims(Ana="Bob", Bob="Cyd", Cyd="Dee"),
                     "{type: swap, player: Bob, card: bang}"), "R17")  # the Kid has not aimed
    out = ok(h, lines(CLICKS, RING, "{type: swap, player: Bob, card: bang}", courage()))
    assert player(out, "Bob")["hand"] == {"bang": 0, "click": 1}
    assert player(out, "Cyd")["wounds"] == 1
    refused(h, lines(CLICKS, RING, "{type: swap, player: Ana, card: bang}"), "R17")


def test_r18_cute_takes_a_5k_bill_before_the_first_share():
    h = with_powers(last_round(), Cyd="cute", Bob="dictator")
    out = ok(h, lines(CLICKS, RING, courage()))
    assert player(out, "Cyd")["loot"] == ["bill5000"]
    assert sorted(out["table"]["loot"]) == ["bill10000", "painting"]
    assert [e["type"] for e in out["events"]][-1] == "cute"
    out = ok(h, lines(CLICKS, RING, courage(down=("Cyd",))))
    assert player(out, "Cyd")["loot"] == []  # not standing: no bill


def test_r19_dictator_forbids_one_kind_once_a_round():
    h = with_powers(last_round(), Bob="dictator")
    split = lines(CLICKS, RING, courage())
    forbid = "{type: forbid, player: Bob, target: Ana, kind: bill}"
    refused(h, lines(split, forbid, takes("Ana bill5000")), "R19")
    out = ok(h, lines(split, forbid, takes("Ana painting", "Bob bill5000", "Cyd bill10000")))
    assert player(out, "Cyd")["loot"] == ["bill10000"]  # the ban held for Ana's take only
    refused(h, lines(split, forbid, takes("Ana painting", "Bob bill5000"),
                     "{type: forbid, player: Bob, target: Cyd, kind: bill}"), "R19")
    refused(h, lines(split, "{type: forbid, player: Bob, target: Bob, kind: bill}"), "R19")
    refused(h, lines(split, "{type: forbid, player: Bob, target: Cyd, kind: bill}"), "R19")
    ok(h, lines(split, "{type: forbid, player: Bob, target: Ana, kind: clip}"))  # not on table
    refused(h, lines(CLICKS, RING, courage(down=("Bob",)), forbid), "R19")  # not standing


def test_r19_nothing_legal_passes_by_taking_nothing():
    h = with_powers(last_round(loot="[bill5000, bill10000]"), Bob="dictator")
    split = lines(CLICKS, RING, courage(), takes("Ana godfather", "Bob bill10000"),
                  "{type: forbid, player: Bob, target: Cyd, kind: bill}")
    out = ok(h, lines(split, "{type: take, player: Cyd, loot: null}", takes("Dee bill5000")))
    assert player(out, "Dee")["loot"] == ["bill5000"] and out["phase"] == "over"
    refused(h, lines(CLICKS, RING, courage(), "{type: take, player: Ana, loot: null}"), "R19")


def test_r19_dictator_on_the_greedy_covers_both_shares():
    h = with_powers(last_round(), Bob="dictator", Ana="greedy")
    split = lines(CLICKS, RING, courage(), "{type: forbid, player: Bob, target: Ana, kind: bill}")
    refused(h, lines(split, "{type: take, player: Ana, loot: [bill5000, painting]}"), "R19")
    out = ok(h, lines(split, "{type: take, player: Ana, loot: [godfather, painting]}"))
    assert player(out, "Ana")["loot"] == ["painting"]


def test_r20_doctor_heals_one_wound_lying_down():
    h = with_powers(with_player(last_round(), "Ana", "{wounds: 2, hand: {bang: 1, click: 1}}"),
                    Ana="doctor")
    out = ok(h, lines(CLICKS, RING, courage(down=("Ana",))))
    assert player(out, "Ana")["wounds"] == 1
    out = ok(h, lines(chooses(Ana="click", Bob="click", Cyd="click", Dee="bang"), RING, courage()))
    assert player(out, "Ana")["wounds"] == 3 - 0 and not player(out, "Ana")["alive"]


def test_r21_good_friend_reloads_after_anothers_clip():
    h = with_powers(last_round(hands="{bang: 1, click: 2}", loot="[clip, clip]"), Dee="good_friend")
    h = h.replace("round: 8\n", "round: 8\n  discard: {bang: 2}\n", 1)
    split = lines(CLICKS, RING, courage(down=("Dee",)))
    out = ok(h, lines(split, takes("Ana clip")))
    assert player(out, "Ana")["hand"] == {"bang": 2, "click": 0}
    assert player(out, "Dee")["hand"] == {"bang": 2, "click": 1}  # lying down still counts
    assert out["discard"]["bang"] == 0
    h1 = h.replace("discard: {bang: 2}", "discard: {bang: 1}")
    out = ok(h1, lines(split, takes("Ana clip")))
    assert player(out, "Dee")["hand"] == {"bang": 1, "click": 1}  # no Bang! left for him
    h4 = h.replace("discard: {bang: 2}", "discard: {bang: 4}")
    out = ok(h4, lines(CLICKS, RING, courage(down=("Ana",)), takes("Bob clip", "Cyd clip")))
    assert [e["type"] for e in out["events"]].count("good_friend") == 2
    own = ok(h, lines(CLICKS, RING, courage(down=("Ana", "Bob", "Cyd")), takes("Dee clip")))
    assert player(own, "Dee")["hand"] == {"bang": 2, "click": 0}  # own Clip: no extra
    assert own["discard"]["bang"] == 1


def test_r22_greedy_takes_two_then_leaves_the_split():
    h = with_powers(last_round(loot="[bill5000, bill10000, painting, bill20000, bill5000]"),
                    Bob="greedy")
    split = lines(CLICKS, RING, courage())
    out = ok(h, lines(split, takes("Ana bill5000"),
                      "{type: take, player: Bob, loot: [bill20000, godfather]}",
                      takes("Cyd bill10000", "Dee painting", "Ana bill5000")))
    assert sorted(player(out, "Bob")["loot"]) == ["bill20000"]
    assert out["phase"] == "over" and player(out, "Ana")["loot"] == ["bill5000", "bill5000"]
    refused(h, lines(split, takes("Ana bill5000"),
                     "{type: take, player: Bob, loot: [bill20000, godfather]}",
                     takes("Cyd bill10000", "Dee painting", "Bob bill5000")), "R10")
    refused(h, lines(CLICKS, RING, courage(down=("Ana",)),
                     takes("Bob bill20000", "Cyd bill10000", "Dee godfather"),
                     "{type: take, player: Bob, loot: [painting, bill5000]}"), "R22")
    refused(h, lines(split, "{type: take, player: Ana, loot: [bill5000, painting]}"), "R22")


def test_r22_a_passed_turn_uses_the_greedys_first_turn():
    h = with_powers(last_round(loot="[bill5000, bill10000, bill20000, bill5000, bill10000]"),
                    Bob="greedy", Dee="dictator")
    split = lines(CLICKS, RING, courage(), takes("Ana godfather"),
                  "{type: forbid, player: Dee, target: Bob, kind: bill}",
                  "{type: take, player: Bob, loot: null}",
                  takes("Cyd bill5000", "Dee bill10000", "Ana bill20000"))
    refused(h, lines(split, "{type: take, player: Bob, loot: [bill5000, bill10000]}"), "R22")
    out = ok(h, lines(split, takes("Bob bill5000")))
    assert player(out, "Bob")["loot"] == ["bill5000"]


def test_r23_hustler_draws_at_random_and_gives_back():
    h = with_powers(with_player(with_player(last_round(), "Ana", "{hand: {bang: 0, click: 2}}"),
                                "Bob", "{hand: {bang: 2, click: 0}}"), Ana="hustler")
    out = ok(h)
    assert out["phase"] == "loot"
    out = ok(h, "{type: hustle, player: Ana, victim: Bob, give: click}")
    assert player(out, "Ana")["hand"] == {"bang": 1, "click": 1}
    assert player(out, "Bob")["hand"] == {"bang": 1, "click": 1}
    assert out["phase"] == "choose"
    refused(h, "{type: hustle, player: Ana, victim: Cyd, give: bang}", "R23")  # Ana has no Bang!
    refused(h, "{type: hustle, player: Ana, victim: Ana, give: click}", "R23")
    refused(h, "{type: hustle, player: Bob, victim: Ana, give: click}", "R23")
    out = ok(h, "{type: choose, player: Ana, card: click}")  # a later step passes the hustle
    assert player(out, "Bob")["hand"] == {"bang": 2, "click": 0}
    refused(h, lines("{type: choose, player: Ana, card: click}",
                     "{type: hustle, player: Ana, victim: Bob, give: click}"), "R3")


def test_r23_hustle_is_random_from_the_seed():
    h = FOUR + "powers: {Ana: hustler}\n"
    draws = set()
    for seed in range(12):
        out = ok(h + f"seed: {seed}\n", "{type: hustle, player: Ana, victim: Bob, give: bang}")
        draws.add(player(out, "Ana")["hand"]["bang"])
        again = ok(h + f"seed: {seed}\n", "{type: hustle, player: Ana, victim: Bob, give: bang}")
        assert again == out
    assert draws == {2, 3}  # drew a Click! (2 Bang! left) or a Bang! (3)


def test_r24_junk_dealer_swaps_with_a_later_pile():
    h = (FOUR + "powers: {Ana: junk_dealer}\nstart:\n  round: 7\n"
         "loot:\n  - [bill5000, bill10000]\n  - [painting]\n")
    split = lines(CLICKS, RING, courage(), takes("Ana bill5000"))
    out = ok(h, lines(split, "{type: junk, player: Ana}"))
    assert player(out, "Ana")["loot"] == ["painting"]
    assert events(out, "junk")[0] == {"round": 7, "type": "junk", "player": "Ana",
                                      "gave": "bill5000", "got": "painting", "pile": 8}
    out = ok(h, lines(split, "{type: junk, player: Ana}", takes("Bob bill10000", "Cyd godfather")))
    assert out["round"] == 8 and out["table"]["loot"] == ["bill5000"]  # it took its place
    refused(h, lines(split, "{type: junk, player: Ana}", "{type: junk, player: Ana}"), "R24")
    refused(h, lines(split, takes("Bob bill10000"), "{type: junk, player: Ana}"), "R24")
    refused(h, lines(CLICKS, RING, courage(), takes("Ana godfather"),
                     "{type: junk, player: Ana}"), "R24")
    h8 = with_powers(last_round(), Ana="junk_dealer")
    refused(h8, lines(CLICKS, RING, courage(), takes("Ana bill5000"),
                      "{type: junk, player: Ana}"), "R24")


def test_r24_a_clip_drawn_by_the_junk_dealer_takes_effect():
    h = (FOUR + "powers: {Ana: junk_dealer}\nstart:\n  round: 7\n  discard: {bang: 1}\n"
         "  players:\n    Ana: {hand: {bang: 1, click: 2}}\n"
         "loot:\n  - [bill5000, bill10000]\n  - [clip]\n")
    out = ok(h, lines(CLICKS, RING, courage(), takes("Ana bill5000"), "{type: junk, player: Ana}"))
    assert player(out, "Ana")["loot"] == []
    assert player(out, "Ana")["hand"] == {"bang": 2, "click": 0}


def test_r25_kid_aims_after_every_other_living_player():
    h = with_powers(last_round(), Ana="kid")
    refused(h, lines(CLICKS, "{type: aim, player: Ana, target: Bob}"), "R25")
    out = ok(h, lines(CLICKS, aims(Bob="Cyd", Cyd="Dee", Dee="Ana", Ana="Bob")))
    assert out["phase"] == "privilege"


def test_r26_lucky_man_two_hits_no_wound():
    h = with_powers(last_round(), Cyd="lucky_man")
    out = ok(h, lines(chooses(Ana="click", Bob="bang", Cyd="click", Dee="bang"),
                      aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Cyd"), courage(),
                      takes("Ana bill5000", "Bob bill10000", "Cyd painting")))
    assert player(out, "Cyd")["wounds"] == 0 and player(out, "Cyd")["loot"] == ["painting"]
    assert events(out, "lucky")[0]["by"] == ["Bob", "Dee"]


def test_r26_lucky_man_one_hit_takes_it():
    h = with_powers(last_round(), Cyd="lucky_man")
    out = ok(h, lines(chooses(Ana="click", Bob="bang", Cyd="click", Dee="click"),
                      aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Cyd"), courage()))
    assert player(out, "Cyd")["wounds"] == 1


def test_r27_professional_steals_from_a_coward():
    h = with_powers(with_player(last_round(), "Bob",
                                "{loot: [diamond5000], hand: {bang: 1, click: 1}}"),
                    Ana="professional")
    choose = chooses(Ana="bang", Bob="click", Cyd="click", Dee="click")
    out = ok(h, lines(choose, RING, courage(down=("Bob",))))
    assert player(out, "Ana")["loot"] == ["diamond5000"] and player(out, "Bob")["loot"] == []
    assert out["discard"]["bang"] == 1
    out = ok(h, lines(choose, RING, courage(down=("Ana", "Bob"))))  # did not stay standing
    assert player(out, "Bob")["loot"] == ["diamond5000"]
    out = ok(h, lines(CLICKS, RING, courage(down=("Bob",))))  # played a Click!
    assert player(out, "Bob")["loot"] == ["diamond5000"]


def test_r28_smart_takes_the_card_back_when_the_target_lies_down():
    h = with_powers(last_round(), Ana="smart")
    choose = chooses(Ana="bang", Bob="click", Cyd="click", Dee="click")
    laid = lines(choose, RING, courage(down=("Bob",)))
    assert ok(h, laid)["phase"] == "courage"  # rests while the Smart may act
    out = ok(h, lines(laid, "{type: smart, player: Ana, discard: click}"))
    assert player(out, "Ana")["hand"] == {"bang": 1, "click": 0}
    assert out["discard"] == {"bang": 0, "click": 4} and out["phase"] == "split"
    out = ok(h, lines(laid, takes("Ana bill5000")))  # a later step passes it
    assert player(out, "Ana")["hand"] == {"bang": 0, "click": 1}
    refused(h, lines(choose, RING, courage(), "{type: smart, player: Ana, discard: click}"), "R3")
    both_down = lines(choose, RING, courage(down=("Ana", "Bob")))
    out = ok(h, lines(both_down, "{type: smart, player: Ana, discard: bang}"))
    assert player(out, "Ana")["hand"] == {"bang": 0, "click": 1}


def test_r28_the_smart_passes_by_discarding_the_card_played():
    """"Discards one of their choice instead": the card played is one choice, and leaves
    the hand and the discard as if the power had not been used (a later step passing it)."""
    h = with_powers(last_round(), Ana="smart")
    laid = lines(chooses(Ana="bang", Bob="click", Cyd="click", Dee="click"), RING,
                 courage(down=("Bob",)))
    kept = ok(h, lines(laid, "{type: smart, player: Ana, discard: bang}"))
    passed = ok(h, lines(laid, takes("Ana bill5000")))
    assert kept["phase"] == "split"  # the Smart's step is over
    assert player(kept, "Ana")["hand"] == player(passed, "Ana")["hand"]
    assert kept["discard"] == passed["discard"]


def test_r29_stealthy_takes_a_10k_bill_lying_down():
    h = with_powers(last_round(), Dee="stealthy", Bob="dictator")
    out = ok(h, lines(CLICKS, RING, "{type: courage, player: Dee, down: true}"))
    assert player(out, "Dee")["loot"] == ["bill10000"] and out["phase"] == "courage"
    h2 = with_powers(last_round(loot="[bill5000]"), Dee="stealthy")
    out = ok(h2, lines(CLICKS, RING, courage(down=("Dee",))))
    assert player(out, "Dee")["loot"] == []


def test_r30_unbreakable_falls_at_the_fifth_wound():
    h = with_powers(with_player(last_round(), "Bob", "{wounds: 3, hand: {bang: 1, click: 1}}"),
                    Bob="unbreakable")
    out = ok(h, lines(chooses(Ana="bang", Bob="click", Cyd="click", Dee="click"), RING, courage()))
    assert player(out, "Bob")["alive"] and player(out, "Bob")["wounds"] == 4
    h = h.replace("wounds: 3", "wounds: 4")
    out = ok(h, lines(chooses(Ana="bang", Bob="click", Cyd="click", Dee="click"), RING, courage()))
    assert not player(out, "Bob")["alive"]


def test_r31_vulture_takes_two_random_cards_from_the_dead():
    bob = "{wounds: 2, loot: [painting, painting, painting], hand: {bang: 1, click: 1}}"
    dee = "{wounds: 2, loot: [bill5000], hand: {bang: 1, click: 1}}"
    h = with_powers(with_player(with_player(last_round(), "Bob", bob), "Dee", dee), Cyd="vulture")
    out = ok(h, lines(chooses(Ana="bang", Bob="click", Cyd="bang", Dee="click"),
                      aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"), courage()))
    assert sorted(player(out, "Cyd")["loot"]) == ["bill5000", "painting", "painting"]
    assert player(out, "Bob")["loot"] == ["painting"] and player(out, "Dee")["loot"] == []
    dead_vulture = h.replace("    Cyd: {hand: {bang: 1, click: 1}}\n",
                             "    Cyd: {wounds: 2, hand: {bang: 1, click: 1}}\n")
    out = ok(dead_vulture, lines(chooses(Ana="bang", Bob="bang", Cyd="click", Dee="click"),
                                 aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana"), courage()))
    assert player(out, "Cyd")["loot"] == [] and player(out, "Bob")["loot"] == ["painting"] * 3
