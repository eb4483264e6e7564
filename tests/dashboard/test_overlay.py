"""The stream overlay's delay, kept by the server on the table's clock (a FakeClock here):
no hidden value is served before its time plus the Godfather's delay, and each is after."""

from __future__ import annotations

import json

import pytest

from companion.clock import FakeClock
from companion.dashboard.app import create_app
from companion.dashboard.overlay import Tape
from companion.dashboard.settings import DashboardSettings
from companion.referee.commands import Auth
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table

PIN = "1357"
NAMES = ["Ana", "Bob", "Cyd", "Dee"]
CARDS = {"Ana": "bang", "Bob": "click", "Cyd": "bang", "Dee": "click"}


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def table(tmp_path, clock):
    t = Table("unit", RefereeSettings(pin=PIN), Journal(tmp_path / "j.sqlite3"), clock)
    t.command({"type": "new_game", "version": t.version, "players": NAMES, "powers": "none"},
              Auth(control=True))
    assert t.settled()
    yield t
    t.journal.close()


def godfather(table: Table):
    client = create_app(table, DashboardSettings()).test_client()
    csrf = client.post("/api/login", json={"pin": PIN}).json["csrf"]
    return client, {"X-CSRF-Token": csrf}


def choose_cards(table: Table) -> None:
    """Each player puts their card down on their own phone."""
    for name, card in CARDS.items():
        table.command({"type": "action", "version": table.version, "action": {
            "type": "choose", "player": name, "card": card}}, Auth(seat=table.game.seat_of[name]))
    assert table.settled()


def cards_shown(body: dict) -> dict:
    shown = body["revealed"]
    return {} if shown is None else {p["name"]: p["card"] for p in shown["players"] if p["card"]}


def test_off_by_default_nothing_hidden_is_ever_served(table, clock):
    client = create_app(table, DashboardSettings()).test_client()
    choose_cards(table)
    clock.advance(24 * 3600 * 1000)
    body = client.get("/api/overlay").json
    assert body["delay_s"] == 0 and body["revealed"] is None
    assert client.get("/overlay").status_code == 200


def test_no_card_reaches_the_overlay_before_its_delay_and_each_does_after(table, clock):
    client, csrf = godfather(table)
    assert client.post("/api/overlay/delay", json={"delay_s": 30},
                       headers=csrf).status_code == 200
    clock.advance(5_000)
    chosen_at = clock.now_ms()
    choose_cards(table)
    public = client.application.test_client()  # a stream's browser source: no session
    for late_ms in (0, 10_000, 29_999):
        clock.advance(chosen_at + late_ms - clock.now_ms())
        r = public.get("/api/overlay")
        assert cards_shown(r.json) == {}, late_ms
        assert all(f'"card": "{c}"' not in json.dumps(r.json) for c in ("bang", "click"))
    shown = r.json["revealed"]  # what was hidden 30 s ago: the hands, before any card
    assert shown["round"] == 1 and shown["at_ms"] <= chosen_at - 5_000
    assert [p["hand"] for p in shown["players"]] == [{"bang": 3, "click": 5}] * 4
    clock.advance(1)  # 30 s after the cards went down
    r = public.get("/api/overlay")
    assert cards_shown(r.json) == CARDS
    assert r.json["revealed"]["at_ms"] == chosen_at


def test_only_the_godfather_sets_the_delay_and_it_is_kept(table):
    public = create_app(table, DashboardSettings()).test_client()
    assert public.post("/api/overlay/delay", json={"delay_s": 30}).status_code == 401
    client, csrf = godfather(table)
    assert client.post("/api/overlay/delay", json={"delay_s": 30}).status_code == 403  # CSRF
    for wrong in (15, 601, "30", True, None, 45):
        r = client.post("/api/overlay/delay", json={"delay_s": wrong}, headers=csrf)
        assert r.status_code == 400 and "delay_s: 0 (never) or one of 30, 60" in r.json["error"]
    assert public.get("/api/overlay").json["delay_s"] == 0  # nothing changed
    assert client.post("/api/overlay/delay", json={"delay_s": 600}, headers=csrf).json[
        "delay_s"] == 600
    restarted = create_app(table, DashboardSettings()).test_client()  # read from the journal
    assert restarted.get("/api/overlay").json["delay_s"] == 600


def test_the_tape_keeps_what_the_longest_delay_needs():
    tape = Tape(keep_ms=1_000)
    for at in range(0, 5_000, 100):
        tape.record(at, {"n": at})
    assert tape.at(3_950) == (3_900, {"n": 3_900})
    assert tape.at(4_900 - 1_000) == (3_900, {"n": 3_900})  # the longest delay's row
    assert tape.at(3_899) is None  # older than any delay needs: gone, never a wrong row
    tape.record(5_000, {"n": 4_900})  # the same values: no new row
    assert tape.at(5_000) == (4_900, {"n": 4_900})


def test_a_journal_that_cannot_be_written_leaves_the_overlay_off_and_the_table_up(table):
    table.journal.close()  # (as a card gone read-only: every transaction fails)
    client = create_app(table, DashboardSettings()).test_client()  # the dashboard starts
    assert client.get("/api/overlay").json == {
        "delay_s": 0, "now_ms": table.clock.now_ms(), "revealed": None}
    with client.session_transaction() as session:
        session.update(control=True, csrf="t")
    r = client.post("/api/overlay/delay", json={"delay_s": 30}, headers={"X-CSRF-Token": "t"})
    assert r.status_code == 503 and "the delay is not changed" in r.json["error"]
    assert client.get("/api/evening").status_code == 503
    assert client.get("/").status_code == 200
