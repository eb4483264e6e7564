"""R28 at a table: the Smart whose target lay down takes the card back or passes, and the
story says which. With physical cards the pass is an action of its own (`keep: true`):
the live table rests at the Smart's step until something moves it."""

from __future__ import annotations

import pytest
from rules_helpers import aims, chooses, courage, last_round, lines, ok, player, refused, run

from companion.rules import RuleError, apply, legal_actions
from companion.rules.actions import Smart
from companion.scenario import parse_scenario
from companion.yamlfile import FieldError, load_yaml

PHYSICAL = """players: [Ana, Bob, Cyd, Dee]
cards: physical
powers: {Ana: smart}
start: {round: 8}
loot:
  - [bill5000, bill10000, painting]
"""
HIDDEN = "\n".join(f"{{type: choose, player: {n}}}" for n in ("Ana", "Bob", "Cyd", "Dee"))
RING = aims(Ana="Bob", Bob="Cyd", Cyd="Dee", Dee="Ana")
BOB_LIES_DOWN = lines(HIDDEN, RING, courage(down=("Bob",)))  # Ana's target lay down


def smart_events(out: dict) -> list[str]:
    return [e["type"] for e in out["events"] if e["type"].startswith("smart")]


def test_physical_cards_the_smart_may_take_back_or_pass_and_the_table_rests_for_it():
    assert ok(PHYSICAL, BOB_LIES_DOWN)["phase"] == "courage"  # (R28: before the effects)
    s = run(PHYSICAL, BOB_LIES_DOWN).state
    ana_may = [a.to_dict() for a in legal_actions(s) if a.player == "Ana" and a.type == "smart"]
    assert ana_may == [{"type": "smart", "player": "Ana"},
                       {"type": "smart", "player": "Ana", "keep": True}]


def test_physical_cards_the_smarts_pass_is_told_and_her_card_stays_down():
    passed = ok(PHYSICAL, lines(BOB_LIES_DOWN, "{type: smart, player: Ana, keep: true}"))
    took = ok(PHYSICAL, lines(BOB_LIES_DOWN, "{type: smart, player: Ana}"))
    assert smart_events(passed) == ["smart_pass"] and smart_events(took) == ["smart"]
    # Cyd and Dee stood at standing targets: their cards count (R7). Ana's card, kept down
    # at a target who lay down, is never asked for.
    assert passed["phase"] == took["phase"] == "reveal"
    after = ok(PHYSICAL, lines(BOB_LIES_DOWN, "{type: smart, player: Ana, keep: true}",
                               "{type: reveal, player: Cyd, card: click}",
                               "{type: reveal, player: Dee, card: bang}"))
    assert after["phase"] == "split" and player(after, "Ana")["wounds"] == 1
    refused(PHYSICAL, lines(BOB_LIES_DOWN, "{type: smart, player: Ana, keep: true}",
                            "{type: reveal, player: Ana, card: bang}"), "R7")


def test_the_pass_is_refused_outside_the_smarts_step():
    everyone_stands = lines(HIDDEN, RING, courage())  # Ana's target stood: no Smart's step
    refused(PHYSICAL, lines(everyone_stands, "{type: smart, player: Ana, keep: true}"), "R3")
    before_all_chose = lines(HIDDEN, RING, courage(("Ana", "Bob", "Cyd"), down=("Bob",)))
    refused(PHYSICAL, lines(before_all_chose, "{type: smart, player: Ana, keep: true}"), "R28")
    refused(PHYSICAL, lines(BOB_LIES_DOWN, "{type: smart, player: Bob, keep: true}"), "R28")
    twice = lines(BOB_LIES_DOWN, "{type: smart, player: Ana, keep: true}")
    refused(PHYSICAL, lines(twice, "{type: smart, player: Ana, keep: true}"), "R3")


def test_a_file_that_writes_keep_false_is_told_what_keep_takes():
    text = PHYSICAL + "actions:\n  - {type: smart, player: Ana, keep: false}\n"
    with pytest.raises(FieldError, match=r"actions\[0\]\.keep: keep: true"):
        parse_scenario(load_yaml(text, "t.yaml"))


DIGITAL = last_round() + "powers: {Ana: smart}\n"
LAID = lines(chooses(Ana="bang", Bob="click", Cyd="click", Dee="click"), RING,
             courage(down=("Bob",)))


def test_digital_cards_discarding_the_card_played_is_told_as_a_pass():
    passed = ok(DIGITAL, lines(LAID, "{type: smart, player: Ana, discard: bang}"))
    took = ok(DIGITAL, lines(LAID, "{type: smart, player: Ana, discard: click}"))
    assert smart_events(passed) == ["smart_pass"] and smart_events(took) == ["smart"]
    assert player(passed, "Ana")["hand"] == {"bang": 0, "click": 1}  # as played
    assert player(took, "Ana")["hand"] == {"bang": 1, "click": 0}


def test_digital_cards_the_smart_passes_by_the_card_played_not_by_keep():
    s = run(DIGITAL, LAID).state
    offered = [a.to_dict() for a in legal_actions(s) if a.type == "smart"]
    assert offered == [{"type": "smart", "player": "Ana", "discard": k} for k in ("bang", "click")]
    with pytest.raises(RuleError, match="not None"):
        apply(s, Smart("Ana", keep=True))
    with pytest.raises(RuleError, match="passes by discarding the card played"):
        apply(s, Smart("Ana", discard="bang", keep=True))
    with pytest.raises(FieldError, match="needs the field 'discard'"):  # (a file, the API)
        run(DIGITAL, lines(LAID, "{type: smart, player: Ana, keep: true}"))
