"""One schema per shape: the same rules and the same answers from every entry point.

A setup reads the same from a scenario file and from the API's new_game; an action survives
encode (to_dict, as the journal and the API write it) and decode (the schema) from JSON and
from YAML alike; a sensor reading typed on the tablet obeys the codec's fact schema.
"""

import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import schema
from companion.referee.commands import CommandError
from companion.referee.game import engine_setup
from companion.referee.setup import check_setup
from companion.rules.actions import ACTIONS, FIELDS, Action
from companion.rules.cards import BULLETS, KINDS, LOOT_KIND, ROUNDS, TOKEN
from companion.rules.powers import POWERS
from companion.rules.setup import VARIANTS
from companion.scenario.load import parse_scenario
from companion.yamlfile import FieldError, YamlError, load_yaml

NAMES = ("Ana", "Bob", "Cyd", "Dee", "Eve")
LOOT = sorted(LOOT_KIND)

# -- actions -------------------------------------------------------------------------------

players = st.sampled_from(NAMES)
maybe_player = st.one_of(st.none(), players)
bullets = st.sampled_from(BULLETS)
loot_ids = st.sampled_from(LOOT)
FIELD_VALUES = {
    "card": bullets, "give": bullets, "discard": bullets,
    "target": maybe_player, "victim": maybe_player, "order": maybe_player,
    "down": st.booleans(), "keep": st.just(True), "kind": st.sampled_from(KINDS),
    "pile": st.integers(1, ROUNDS),
    "got": loot_ids,
    "loot": st.one_of(st.none(), st.sampled_from([*LOOT, TOKEN]),
                      st.lists(st.sampled_from([*LOOT, TOKEN]), min_size=2, max_size=2)
                      .map(tuple)),
}
HIDDEN = schema.HIDDEN_CARD_FIELDS


@st.composite
def actions(draw, physical: bool) -> Action:
    kind = draw(st.sampled_from(sorted(FIELDS)))
    fields = {}
    for name, required in FIELDS[kind].items():
        if name == HIDDEN.get(kind):
            continue
        if required or draw(st.booleans()):
            value = (draw(st.lists(loot_ids, min_size=1, max_size=8).map(tuple))
                     if kind == "deal" else draw(FIELD_VALUES[name]))
            fields[name] = value
    hidden = HIDDEN.get(kind)
    if hidden and not physical and not (kind == "hustle" and fields["victim"] is None):
        fields[hidden] = draw(bullets)
    return ACTIONS[kind](draw(players), **fields)


@settings(max_examples=300)
@given(st.booleans().flatmap(lambda physical: st.tuples(st.just(physical), actions(physical))))
def test_an_action_makes_the_round_trip_through_json_and_yaml(case):
    physical, action = case
    encoded = action.to_dict()
    as_json = json.loads(json.dumps(encoded))
    assert schema.parse_action(as_json, NAMES, physical) == action
    doc = load_yaml(yaml.safe_dump({"a": encoded}), "steps.yaml")
    assert schema.Checker(doc, NAMES).action(doc.data["a"], ("a",), physical) == action


@pytest.mark.parametrize(("data", "path", "words"), [
    ({"type": "aim", "player": "Zed", "target": "Bob"}, "action.player", "unknown player"),
    ({"type": "aim", "player": "Ana", "target": "Zed"}, "action.target", "unknown player"),
    ({"type": "take", "player": "Ana", "loot": ["clip"]}, "action.loot", "exactly two"),
    ({"type": "deal", "player": "Ana", "loot": ["gold"]}, "action.loot[0]", "unknown loot id"),
    ({"type": "courage", "player": "Ana", "down": 1}, "action.down", "true or false"),
])
def test_a_json_action_error_names_the_field_path(data, path, words):
    with pytest.raises(FieldError) as e:
        schema.parse_action(data, NAMES, False)
    assert e.value.key == path and words in e.value.message
    assert str(e.value).startswith(f"{path}: ")


def test_a_yaml_action_error_names_file_line_and_key():
    doc = load_yaml("actions:\n  - {type: aim, player: Ana}\n  - {type: aim, player: Zed}\n",
                    "s.yaml")
    with pytest.raises(YamlError) as e:
        schema.Checker(doc, NAMES).action(doc.data["actions"][1], ("actions", 1), False)
    assert str(e.value).startswith("s.yaml:3: actions[1].player: unknown player 'Zed'")


# -- the setup -----------------------------------------------------------------------------

names = st.text("abcdefghijklmnopqrstuvwxyz ABC", min_size=1, max_size=schema.MAX_NAME).filter(
    str.strip)


@st.composite
def new_games(draw) -> dict:
    n = draw(st.integers(4, 8))
    who = draw(st.lists(names, min_size=n, max_size=n, unique=True))
    seats = sorted(draw(st.lists(st.integers(1, 8), min_size=n, max_size=n, unique=True)))
    first = draw(st.integers(0, n - 1))
    seats = seats[first:] + seats[:first]  # clockwise from the Godfather's desk
    dealt = draw(st.lists(st.sampled_from(POWERS), max_size=n, unique=True))
    return {
        "players": [{"name": w, "seat": s} for w, s in zip(who, seats, strict=True)],
        "powers": dict(zip(who, dealt, strict=False)),
        "seed": draw(st.integers(schema.SEED_MIN, schema.SEED_MAX)),
        "variant": draw(st.dictionaries(st.just("unclaimed_loot"),
                                        st.sampled_from(VARIANTS["unclaimed_loot"]))),
        "cards": draw(st.sampled_from(schema.CARD_MODES)),
        "loot": draw(st.sampled_from(schema.CARD_MODES)),
    }


@settings(max_examples=150)
@given(new_games())
def test_a_setup_reads_the_same_from_the_api_and_from_a_scenario_file(cmd):
    record = check_setup(cmd)
    again = {**record, "players": [{"name": n, "seat": record["seats"][n]}
                                   for n in record["players"]]}
    again.pop("seats")
    assert check_setup(json.loads(json.dumps(again))) == record  # the journal's record
    text = yaml.safe_dump({"players": record["players"], "powers": record["powers"],
                           "seed": record["seed"], "variant": record["variant"],
                           "cards": record["cards"], "loot_mode": record["loot"],
                           "actions": []})
    assert parse_scenario(load_yaml(text, "s.yaml")).setup == engine_setup(record)


def _scenario_error(players: list) -> str:
    with pytest.raises(YamlError) as e:
        parse_scenario(load_yaml(yaml.safe_dump({"players": players, "actions": []}), "s.yaml"))
    return e.value.message


def _api_error(players: list) -> str:
    with pytest.raises(CommandError) as e:
        check_setup({"players": players})
    assert e.value.kind == "invalid"
    return e.value.message


@pytest.mark.parametrize("bad", ["x" * (schema.MAX_NAME + 1), "  ", "", 7])
def test_one_name_rule_for_files_and_the_api(bad):
    players = ["Ana", "Bob", "Cyd", bad]
    assert _scenario_error(players) == _api_error(players).split(": ", 1)[1]
    assert "players[3]" in _api_error(players)


def test_the_longest_name_is_taken_by_both():
    players = ["Ana", "Bob", "Cyd", "x" * schema.MAX_NAME]
    assert check_setup({"players": players})["players"] == players
    doc = load_yaml(yaml.safe_dump({"players": players, "actions": []}), "s.yaml")
    assert parse_scenario(doc).setup.players == tuple(players)


@pytest.mark.parametrize(("powers", "path", "words"), [
    ({"Ana": "kid", "Bob": "kid"}, "powers.Bob", "dealt twice"),
    ({"Ana": "wizard"}, "powers.Ana", "unknown power"),
    ({"Zed": "kid"}, "powers.Zed", "unknown field"),
])
def test_powers_obey_one_rule_with_its_path(powers, path, words):
    players = ["Ana", "Bob", "Cyd", "Dee"]
    api = _api_error_with(players, powers=powers)
    assert api.startswith(f"{path}: ") and words in api
    with pytest.raises(YamlError) as e:
        parse_scenario(load_yaml(yaml.safe_dump(
            {"players": players, "powers": powers, "actions": []}), "s.yaml"))
    assert e.value.key == path and words in e.value.message


def _api_error_with(players: list, **more) -> str:
    with pytest.raises(CommandError) as e:
        check_setup({"players": players, **more})
    return e.value.message


def test_the_api_keeps_its_own_seat_rules():
    four = [{"name": n, "seat": s} for n, s in zip("ABCD", (1, 3, 2, 4), strict=True)]
    assert "clockwise" in _api_error(four)
    twice = [{"name": n, "seat": s} for n, s in zip("ABCD", (1, 2, 2, 4), strict=True)]
    assert _api_error(twice).startswith("players[2].seat: seat 2 is given twice")


# -- sensor facts --------------------------------------------------------------------------

@given(st.sampled_from(["aim", "raised", "posture"]), st.integers(1, 8),
       st.one_of(st.none(), st.booleans(), st.integers(-1, 10), st.sampled_from(["up", "down"]),
                 st.tuples(st.integers(1, 8), st.integers(1, 8))))
def test_an_override_obeys_the_fact_schema_and_never_aims_at_its_own_seat(kind, seat, value):
    problem = schema.reading_problem(kind, seat, value)
    if schema.value_problem(kind, value) is not None:
        assert problem is not None  # nothing the wire would refuse is taken by hand
    elif kind == "aim" and (value == seat or isinstance(value, tuple)):
        assert problem is not None
    else:
        assert problem is None
