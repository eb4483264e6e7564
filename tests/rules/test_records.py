"""The engine's records: one class per kind of action and of event, immutable values that
read and write the JSON of the scenario format, the journal and the API unchanged."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random

import pytest

from companion.bots.random_bot import play, random_setup
from companion.rules.actions import ACTIONS, FIELDS, Action, Aim, Take, action_from_dict
from companion.rules.events import EVENTS, Event, Wounded, event_from_dict
from companion.rules.phases import PHASE, waiting
from companion.rules.setup import Setup, StartPlayer, new_game


def test_an_action_is_a_value_with_one_spelling_of_its_loot():
    a = Take("Ana", loot=["bill5000", "clip"])  # type: ignore[arg-type]  # (a list, sorted)
    b = Take(player="Ana", loot=("clip", "bill5000"))
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert a.loot == ("bill5000", "clip")
    assert a != Take("Bob", loot=("clip", "bill5000"))
    assert a != ("take", "Ana")
    assert repr(Aim("Ana", target="Bob")) == "Aim(player='Ana', target='Bob')"


def test_records_cannot_be_changed_nor_built_with_fields_they_lack():
    a = Aim("Ana", target="Bob")
    with pytest.raises(AttributeError, match="target"):
        a.target = "Cyd"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="target"):
        del a.target  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        a.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        PHASE["choose"].words = "x"  # type: ignore[misc]
    with pytest.raises(TypeError, match="card"):
        Aim("Ana", target="Bob", card="bang")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="target"):
        Aim("Ana")  # type: ignore[call-arg]
    assert a.target == "Bob"


def test_an_event_sets_each_field_it_is_given_and_stays_frozen():
    for cls in EVENTS.values():
        names = [f.name for f in dataclasses.fields(cls)]
        values = {name: f"v{k}" for k, name in enumerate(names)}
        event = cls(**values)
        assert [getattr(event, name) for name in names] == list(values.values())
        assert cls(*values.values()) == event
        with pytest.raises(AttributeError):
            setattr(event, names[-1], "changed")
        with pytest.raises(TypeError):
            cls(**{k: v for k, v in values.items() if k != names[-1]})
    with pytest.raises(TypeError, match="extra"):
        Wounded(2, player="Ana", by=("Bob",), wounds=1, extra=0)  # type: ignore[call-arg]


def test_records_survive_pickling_and_copying():
    setup = Setup(("Ana", "Bob", "Cyd", "Dee"), seed=3,
                  start_players={"Ana": StartPlayer(wounds=1)})
    wounded = Wounded(2, player="Ana", by=("Bob",), wounds=1)
    for record in (Take("Ana", loot=("clip",)), setup, setup.start_players["Ana"], wounded):
        assert pickle.loads(pickle.dumps(record)) == record
        assert copy.copy(record) == record == copy.deepcopy(record)


def test_setup_defaults_are_fresh_and_the_wait_is_a_named_pair():
    one, two = Setup(("Ana", "Bob", "Cyd", "Dee")), Setup(("Ana", "Bob", "Cyd", "Dee"))
    assert one.powers == {} and one.powers is not two.powers
    assert (one.seed, one.cards, one.start_round, one.start_discard) == (0, "digital", 1, (0, 0))
    key, players = wait = waiting(new_game(one))
    assert (wait.key, wait.players) == (key, players) == ("choose", ("Ana", "Bob", "Cyd", "Dee"))


def test_each_kind_has_its_class_and_the_fields_of_the_scenario_format():
    """The action table of docs/spec (scenario-format.md): each kind's fields, required or
    not, in the order they are written."""
    assert FIELDS == {
        "hustle": {"victim": True, "give": False}, "choose": {"card": False},
        "aim": {"target": True}, "swap": {"card": False}, "privilege": {"order": True},
        "courage": {"down": True}, "smart": {"discard": False, "keep": False},
        "reveal": {"card": True},
        "take": {"loot": True}, "forbid": {"target": True, "kind": True},
        "junk": {"pile": False, "got": False}, "deal": {"loot": True},
    }
    for base, table in ((Action, ACTIONS), (Event, EVENTS)):  # (by name: a slotted
        kinds = {cls.__name__ for cls in base.__subclasses__()}  # dataclass is made twice)
        assert kinds == {cls.__name__ for cls in table.values()}
    assert all(cls.type == kind for kind, cls in {**ACTIONS, **EVENTS}.items())


def test_actions_and_events_read_back_what_they_write():
    """Whole random games of every kind of table: every action and event written as JSON
    and read back is the same record; an event's JSON begins with its round and type."""
    kinds = set()
    for seed in range(40):
        rnd = random.Random(seed)
        setup = random_setup(rnd, 4 + seed % 5, seed, powers=True,
                             cards="physical" if seed % 3 == 1 else "digital",
                             loot_mode="physical" if seed % 4 == 2 else "digital")
        game = play(setup, rnd)
        for a in game.actions:
            assert action_from_dict(json.loads(json.dumps(a.to_dict()))) == a
        for e in game.state.events:
            data = json.loads(json.dumps(e.to_dict()))
            assert list(data)[:2] == ["round", "type"] and data["type"] == e.type
            assert list(data)[2:] == [f.name for f in dataclasses.fields(e)][1:]
            assert event_from_dict(data) == e
            kinds.add(e.type)
    assert len(kinds) >= 20  # (most kinds were seen)


def test_a_journal_line_of_any_spelling_reads_as_before():
    """Journals written before the action classes hold these lines."""
    assert action_from_dict({"type": "aim", "player": "Ana", "target": None}) == Aim("Ana", None)
    assert action_from_dict({"type": "take", "player": "Ana", "loot": ["clip", "bill5000"]}) \
        == Take("Ana", ("bill5000", "clip"))
    assert str(Take("Ana", ("bill5000", "clip"))) == \
        "{type: take, player: Ana, loot: [bill5000, clip]}"
