"""The referee's new_game refuses the seats the seating check refuses, and those it warns
of unless the Godfather confirms them, whatever page or script sends it (docs/API.md)."""

from __future__ import annotations

import pytest

from companion.clock import SYSTEM_CLOCK
from companion.dashboard.app import create_app
from companion.dashboard.settings import DashboardSettings, TableTop
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table

PIN = "1357"
SIX = [{"name": name, "seat": seat} for seat, name in
       enumerate(("Ana", "Bob", "Cyd", "Dee", "Eve", "Fay"), start=1)]


@pytest.fixture
def table(tmp_path):
    t = Table("unit", RefereeSettings(pin=PIN), Journal(tmp_path / "j.sqlite3"), SYSTEM_CLOCK)
    yield t
    t.journal.close()


def godfather(table: Table, top: TableTop | None):
    client = create_app(table, DashboardSettings(table=top)).test_client()
    csrf = client.post("/api/login", json={"pin": PIN}).json["csrf"]

    def new_game(**more):
        return client.post("/api/command", headers={"X-CSRF-Token": csrf}, json={
            "type": "new_game", "version": table.version, "players": SIX, **more})
    return new_game


def test_seats_the_tables_grip_fails_seated_are_refused_even_confirmed(table):
    """3+3 on a 1.6 m rectangle, guns at the chest: the bench's 73.5 to 86 % correct."""
    new_game = godfather(table, TableTop("rect", 1.6, "3+3", "at the chest"))
    for more in ({}, {"confirm_seating": True}, {"seating": {"verdict": "ok"}}):
        r = new_game(**more)
        assert r.status_code == 422, more
        assert r.json["code"] == "seating_refuse" and r.json["verdict"] == "refuse"
        assert r.json["error"].startswith("The seating check refuses seats 1, 2, 3, 4, 5, 6 "
                                          "at this 1.6 m rectangle seated 3+3, played with "
                                          "the gun held at the chest: from seat ")
        assert "° apart (needs 16°)" in r.json["error"]
        assert "seat 2+2+1+1" in r.json["error"]  # what works, said
    assert table.game is None


def test_a_grip_that_covers_the_badges_is_refused_on_a_round_table(table):
    new_game = godfather(table, TableTop("round", 1.2, None, "two-handed sternum"))
    r = new_game(confirm_seating=True)
    assert r.status_code == 422 and r.json["code"] == "seating_refuse"
    assert "covers each holder's own badge" in r.json["error"]
    assert table.game is None


def test_seats_warned_of_start_only_once_the_godfather_confirms_them(table):
    """3+3 on 1.6 m from the shoulder fails only half standing: warned, not refused."""
    new_game = godfather(table, TableTop("rect", 1.6, "3+3", "from the shoulder"))
    r = new_game()
    assert r.status_code == 422 and r.json["code"] == "seating_warn"
    assert r.json["error"].startswith("The seating check warns of seats 1, 2, 3, 4, 5, 6 ")
    assert "half standing" in r.json["error"] and "confirm_seating" in r.json["error"]
    assert table.game is None
    assert new_game(confirm_seating="yes").status_code == 400
    r = new_game(confirm_seating=True)
    assert r.status_code == 200 and table.game is not None
    assert table.game.setup["players"] == [p["name"] for p in SIX]


def test_seats_that_pass_or_a_table_of_unknown_shape_start_unconfirmed(table, tmp_path):
    assert godfather(table, TableTop("round", 1.2, None, "arm extended"))().status_code == 200
    other = Table("other", RefereeSettings(pin=PIN), Journal(tmp_path / "o.sqlite3"),
                  SYSTEM_CLOCK)
    try:
        assert godfather(other, None)().status_code == 200  # no geometry: nothing to judge
    finally:
        other.journal.close()


def test_a_game_started_on_a_warning_confirmed_is_back_after_a_restart(table, tmp_path):
    godfather(table, TableTop("rect", 1.6, "3+3", "from the shoulder"))(confirm_seating=True)
    table.journal.close()
    again = Table("unit", RefereeSettings(pin=PIN), Journal(tmp_path / "j.sqlite3"),
                  SYSTEM_CLOCK)  # restarted with no table top: the game is there
    try:
        assert again.game is not None and again.game.setup["players"] == [p["name"] for p in SIX]
    finally:
        again.journal.close()
