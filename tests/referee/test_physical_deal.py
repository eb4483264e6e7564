"""A physical loot deal no real deck can give is refused with a sentence, changing nothing
(the official deck: one $10,000 diamond, three $5,000 ones, ... rules/cards.py)."""

from __future__ import annotations

import pytest

from companion.clock import SYSTEM_CLOCK
from companion.referee.commands import Auth, CommandError
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table

NAMES = ["Ana", "Bob", "Cyd", "Dee"]


@pytest.fixture
def table(tmp_path):
    t = Table("deal", RefereeSettings(pin="1357"), Journal(tmp_path / "j.sqlite3"), SYSTEM_CLOCK)
    t.command({"type": "new_game", "version": t.version, "players": NAMES, "powers": "random",
               "loot": "physical"}, Auth(control=True))
    yield t
    t.journal.close()


def deal(table: Table, pile: list[str]) -> dict:
    state = table.control_state()
    return table.command({"type": "action", "version": table.version, "action": {
        "type": "deal", "player": state["godfather"], "loot": pile}}, Auth(control=True))


@pytest.mark.parametrize(("pile", "sentence"), [
    (["diamond10000"] * 8, "the deck has 1 diamond10000, the pile 8"),
    (["first_aid"] * 3 + ["bill5000"], "the deck has 2 first_aid, the pile 3"),
])
def test_a_pile_no_deck_can_give_is_refused_with_a_sentence(table, pile, sentence):
    before = table.version
    with pytest.raises(CommandError) as refused:
        deal(table, pile)
    assert sentence in refused.value.message and "no deck holds that" in refused.value.message
    assert table.version == before


def test_a_pile_a_deck_can_give_is_dealt(table):
    deal(table, ["diamond10000", "diamond5000", "diamond5000", "bill5000", "painting",
                 "painting", "clip", "first_aid"])
    assert sorted(table.control_state()["table"]["loot"]) == sorted(
        ["diamond10000", "diamond5000", "diamond5000", "bill5000", "painting", "painting",
         "clip", "first_aid"])
