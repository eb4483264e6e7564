"""The engine's records (`Frozen`) behave as the frozen dataclasses they replace did:
immutable, equal and hashed by value, readable, and carried to a lab's processes."""

from __future__ import annotations

import copy
import pickle

import pytest

from companion.rules.actions import Action
from companion.rules.phases import PHASE, waiting
from companion.rules.setup import Setup, StartPlayer, new_game


def test_an_action_is_a_value_with_one_spelling_of_its_loot():
    a = Action("take", "Ana", loot=["bill5000", "clip"])
    b = Action(type="take", player="Ana", loot=("clip", "bill5000"))
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert a.loot == ("bill5000", "clip")
    assert a != Action("take", "Bob", loot=("clip", "bill5000"))
    assert a != ("take", "Ana")
    assert repr(Action("aim", "Ana", target="Bob")).startswith(
        "Action(type='aim', player='Ana', card=None, target='Bob', ")


def test_records_cannot_be_changed():
    a = Action("aim", "Ana", target="Bob")
    with pytest.raises(AttributeError, match="target"):
        a.target = "Cyd"
    with pytest.raises(AttributeError, match="target"):
        del a.target
    with pytest.raises(AttributeError):
        a.extra = 1
    with pytest.raises(AttributeError):
        PHASE["choose"].words = "x"
    assert a.target == "Bob"


def test_records_survive_pickling_and_copying():
    setup = Setup(("Ana", "Bob", "Cyd", "Dee"), seed=3,
                  start_players={"Ana": StartPlayer(wounds=1)})
    for record in (Action("take", "Ana", loot=("clip",)), setup, setup.start_players["Ana"]):
        assert pickle.loads(pickle.dumps(record)) == record
        assert copy.copy(record) == record == copy.deepcopy(record)


def test_setup_defaults_are_fresh_and_the_wait_is_a_named_pair():
    one, two = Setup(("Ana", "Bob", "Cyd", "Dee")), Setup(("Ana", "Bob", "Cyd", "Dee"))
    assert one.powers == {} and one.powers is not two.powers
    assert (one.seed, one.cards, one.start_round, one.start_discard) == (0, "digital", 1, (0, 0))
    key, players = wait = waiting(new_game(one))
    assert (wait.key, wait.players) == (key, players) == ("choose", ("Ana", "Bob", "Cyd", "Dee"))
