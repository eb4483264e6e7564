"""What comes from outside is checked before anything is kept: a table's `league:` section,
a result message, the public state the venue page summarises."""

from __future__ import annotations

import json

import pytest

from companion.config import ConfigError, parse
from companion.league.live import summarise
from companion.league.result import MAX_BYTES, ResultError, parse_claim
from companion.league.simtable import sim_game

GOOD = sim_game(2, 4).result("cafe-1", "00000000abcd", 1.7e12)


@pytest.mark.parametrize(("yaml", "message"), [
    ("league: {venue: 'http://venue:80'}", "must be mqtt://host:1883"),
    ("league: {venue: 'mqtt://venue', ca_file: /ca.crt}", "only applies to mqtts://"),
    ("league: {venue: 'mqtts://venue', cert_file: /c.crt}", "go together"),
    ("league: {venue: shared, password: x}", "only applies with venue: URL"),
    ("league: {tables: [cafe-1, Cafe-2]}", "item 1: a table id"),
    ("league: {tables: [cafe-1, cafe-1]}", "listed twice"),
    ("league: {database: 'mysql://x/y'}", "does not match"),
    ("league: {pin: 1234}", "quoted"),
    ("league: {venu: shared}", "unknown key"),
])
def test_a_wrong_league_section_is_named_with_its_line(yaml, message):
    with pytest.raises(ConfigError, match=message) as caught:
        parse(f"table: cafe-1\n{yaml}\n", "table.yaml")
    assert str(caught.value).startswith("table.yaml:2: league")


def test_a_table_in_a_league():
    league = parse("table: cafe-1\nleague:\n  venue: mqtts://u:p%40ss@venue.local\n"
                   "  ca_file: /ca.crt\n", "t.yaml")["league"]
    assert league.reports and not league.shared
    assert (league.venue.host, league.venue.port, league.venue.tls) == ("venue.local", 8883, True)
    assert (league.venue.username, league.venue.password) == ("u", "p@ss")
    assert not parse("table: cafe-1\n", "t.yaml")["league"].reports


def changed(**fields) -> bytes:
    return json.dumps({**GOOD, **fields}).encode()


@pytest.mark.parametrize(("payload", "message"), [
    (b"not json", "not JSON"),
    (b"[1]", "a JSON object"),
    (changed(v=2), "version"),
    (changed(extra=1), "unknown \\['extra'\\]"),
    (changed(table="cafe-2"), "table: the result names 'cafe-2' but came on the topic of "
                              "'cafe-1'"),
    (changed(uid="cafe-2.00000000abcd.1"), "uid: 'cafe-2.00000000abcd.1' names the table "
                                           "'cafe-2', but the result came from 'cafe-1'"),
    (changed(uid="cafe-1.xyz.1"), "uid"),
    (changed(game=2), "game number the uid ends with"),
    (changed(ended_ms=float("inf")), "not valid JSON|ended_ms"),
    (changed(players=GOOD["players"][:3]), "4 to 8 players"),
    (changed(players=[{**GOOD["players"][0], "score": -1}, *GOOD["players"][1:]]),
     "players\\[0\\].score"),
    (changed(players=[{**GOOD["players"][0], "name": "x" * 25}, *GOOD["players"][1:]]),
     "players\\[0\\].name"),
    (changed(winners=["Zed"]), "winners"),
    (changed(scenario=None), "scenario"),
    (b" " * (MAX_BYTES + 1), "over the"),
])
def test_a_result_that_is_not_one_is_refused_with_a_sentence(payload, message):
    with pytest.raises(ResultError, match=message):
        parse_claim(payload, "cafe-1")


def test_a_good_result_passes():
    claim = parse_claim(json.dumps(GOOD).encode(), "cafe-1")
    assert claim.uid == "cafe-1.00000000abcd.1" and len(claim.players) == 4


def test_the_venue_summary_takes_only_a_public_state():
    state = next(iter(sim_game(2, 4).states("cafe-1")))
    summary = summarise(json.dumps(state).encode())
    assert summary["round"] == 1 and [p["name"] for p in summary["players"]] == \
        ["Ana", "Bob", "Cyd", "Dee"]
    state["players"][0]["name"] = 7
    assert summarise(json.dumps(state).encode()) is None
    assert summarise(b"{") is None
    assert summarise(json.dumps({"game": None, "players": []}).encode())["game"] is None


def test_the_example_venue_config_is_a_league():
    from companion.config import DEFAULT_FILE, load

    config = load(DEFAULT_FILE.parent / "venue.yaml")
    assert config["league"].tables == ("cafe-1", "cafe-2", "cafe-3")
    assert config["league"].database.startswith("sqlite:///") and config.mqtt.embedded
