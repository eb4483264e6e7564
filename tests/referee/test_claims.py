"""A seat's phone: the first one to open the seat's link holds it, and it stays its
player's in the next games at the table wherever they sit; the PIN opens no hand; the
Godfather may release a seat (that phone is out); claims outlive a restart."""

from __future__ import annotations

import itertools

import pytest
from flask import Flask
from local_table import NAMES8, LocalPort

from companion.dashboard.api import api_blueprint
from companion.referee.effects import Hold
from companion.referee.journal import JournalError

PIN = {"X-Table-Pin": "2468"}


def client_of(port: LocalPort):
    app = Flask(__name__)
    app.secret_key = "test"
    app.register_blueprint(api_blueprint(port.table))
    return app.test_client()


@pytest.fixture
def port(tmp_path):
    port = LocalPort(tmp_path / "journal.sqlite3")
    port.do("new_game", players=NAMES8[:4], seed=5)
    return port


def open_link(client, port: LocalPort, seat: int, game: int | None = None):
    return client.post("/api/claim", json={
        "seat": seat, "token": port.table.access.seat_token(seat, game)})


def test_the_first_phone_to_open_a_link_holds_the_seat_and_the_link_then_gives_nothing(port):
    phone, stranger = client_of(port), client_of(port)
    r = open_link(phone, port, 2)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("seat2=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    claim, csrf = r.get_json()["claim"], r.get_json()["csrf"]
    r = open_link(stranger, port, 2)  # the same link, scanned by another phone
    assert r.status_code == 409
    assert r.get_json() == {"error": "seat 2 is held by another phone: ask the Godfather to "
                                     "release it", "phone": "taken"}
    assert stranger.get("/api/seat/2").status_code == 401
    assert stranger.get("/api/seat/2", headers={"X-Seat-Claim": "1.2.guess"}).status_code == 401
    me = phone.get("/api/seat/2").get_json()["me"]  # the page: its cookie
    assert me["player"] == "Bob" and me["hand"] == {"bang": 3, "click": 5}
    assert stranger.get("/api/seat/2", headers={"X-Seat-Claim": claim}).status_code == 200
    choose = {"type": "action", "version": port.table.version,
              "action": {"type": "choose", "player": "Bob", "card": "bang"}}
    assert phone.post("/api/command", json=choose, headers={"X-Seat": "2"}).status_code == 403
    r = phone.post("/api/command", json=choose, headers={"X-Seat": "2", "X-CSRF-Token": csrf})
    assert r.status_code == 200 and port.table.game.sources[-1] == "phone"
    assert port.table.access.refused.counts == {"taken": 1}


def test_the_pin_opens_no_hand_and_plays_from_none(port):
    tablet = client_of(port)
    r = tablet.get("/api/seat/2", headers=PIN)
    assert r.status_code == 401 and "PIN opens no hand" in r.get_json()["error"]
    assert tablet.post("/api/login", json={"pin": "2468"}).status_code == 200
    assert tablet.get("/api/seat/2").status_code == 401  # nor does the Godfather's session
    for action in ({"type": "choose", "player": "Bob", "card": "bang"},
                   {"type": "choose", "player": "Bob", "card": "click"}):
        r = tablet.post("/api/command", headers=PIN, json={
            "type": "action", "version": port.table.version, "action": action})
        assert r.status_code == 403  # the same answer whatever Bob holds: nothing to learn
        assert r.get_json()["error"] == "only Bob's phone plays from their hand"
    assert not port.table.game.actions


def test_a_phone_stays_its_players_in_the_next_game_wherever_they_sit(port):
    """Bob's phone, claimed at seat 2, holds seat 4 when the next game seats him there: no
    new scan; seat 2 is Ana's new seat, claimed by Ana's phone with its new link."""
    bob = client_of(port)
    claim = open_link(bob, port, 2).get_json()["claim"]
    old_game = port.table.game.id
    port.do("new_game", players=["Cyd", "Ana", "Dee", "Bob"], seed=6, abandon=True)
    moved = bob.get("/api/seat/2")
    assert moved.status_code == 403
    assert moved.get_json() == {"error": "Bob sits at seat 4 in this game: open /seat/4",
                                "phone": "moved", "player": "Bob", "seat": 4}
    view = bob.get("/api/seat/4", headers={"X-Seat-Claim": claim}).get_json()
    assert view["me"]["player"] == "Bob" and port.table.access.claimed == {4}
    earlier = "this link is from an earlier game: ask the Godfather for the new link"
    r = open_link(client_of(port), port, 2, game=old_game)  # an old QR code opens nothing
    assert r.status_code == 403 and r.get_json()["error"] == earlier
    assert open_link(client_of(port), port, 4).status_code == 409  # Bob's phone holds it
    assert open_link(bob, port, 2, game=old_game + 5).status_code == 403  # not a link yet
    ana = client_of(port)
    assert open_link(ana, port, 2).status_code == 200
    assert ana.get("/api/seat/2").get_json()["me"]["player"] == "Ana"
    assert bob.get("/api/seat/2", headers={"X-Seat-Claim": claim}).status_code == 403


def test_a_phone_whose_player_sits_out_says_so_and_comes_back_with_them(tmp_path, port):
    """Dee sits out game 2 (her phone says so, across a restart too) and plays game 3 at
    seat 1: her phone holds seat 1 without a scan."""
    dee = client_of(port)
    claim = {"X-Seat-Claim": open_link(dee, port, 4).get_json()["claim"]}
    port.do("new_game", players=["Ana", "Bob", "Cyd", "Eve"], seed=6, abandon=True)
    away = {"error": "Dee is not in this game: this phone comes back with them",
            "phone": "away", "player": "Dee", "seat": None}
    assert dee.get("/api/seat/4").get_json() == away
    assert open_link(client_of(port), port, 4).status_code == 200  # Eve's seat, Eve's phone
    port.table.journal.close()
    again = LocalPort(tmp_path / "journal.sqlite3")
    dee = client_of(again)
    r = dee.get("/api/seat/4", headers=claim)
    assert r.status_code == 403 and r.get_json() == away
    again.do("new_game", players=["Dee", "Ana", "Bob", "Cyd"], seed=7, abandon=True)
    assert dee.get("/api/seat/1", headers=claim).get_json()["me"]["player"] == "Dee"
    assert again.table.access.claimed == {1}


def test_a_released_phone_stays_out_in_the_next_game(port):
    bob = client_of(port)
    claim = {"X-Seat-Claim": open_link(bob, port, 2).get_json()["claim"]}
    port.do("release", seat=2)
    port.do("new_game", players=["Bob", "Ana", "Cyd", "Dee"], seed=6, abandon=True)
    assert not port.table.access.claimed
    assert bob.get("/api/seat/1", headers=claim).status_code == 403
    assert open_link(client_of(port), port, 1).status_code == 200


def test_the_godfather_releases_a_seat_and_its_player_claims_it_again(port):
    phone, new_phone = client_of(port), client_of(port)
    claim = open_link(phone, port, 3).get_json()["claim"]

    def release(seat, headers=PIN):
        return client_of(port).post("/api/command", headers=headers, json={
            "type": "release", "seat": seat, "version": port.table.version})

    assert release(3, {"X-Seat-Claim": claim}).status_code == 403  # a phone may not
    assert release(9).status_code == 400 and "1, 2, 3, 4" in release(9).get_json()["error"]
    assert release(2).status_code == 422  # nobody holds it
    assert release(3).status_code == 200
    assert not port.control()["seats"][2]["claimed"]
    r = phone.get("/api/seat/3")
    assert r.status_code == 401 and r.get_json()["phone"] == "released"
    assert open_link(new_phone, port, 3).status_code == 200
    assert new_phone.get("/api/seat/3").status_code == 200
    assert phone.get("/api/seat/3").status_code == 401


def test_claims_and_releases_outlive_a_restart_and_are_kept_hashed(tmp_path, port):
    phone = client_of(port)
    claims = {seat: open_link(phone, port, seat).get_json()["claim"] for seat in (1, 2)}
    port.do("release", seat=1)
    port.table.journal.close()
    again = LocalPort(tmp_path / "journal.sqlite3")  # a crash, a power cut: the same journal
    phone, stranger = client_of(again), client_of(again)
    assert phone.get("/api/seat/2", headers={"X-Seat-Claim": claims[2]}).status_code == 200
    assert open_link(stranger, again, 2).status_code == 409  # no stranger gets in
    assert phone.get("/api/seat/1", headers={"X-Seat-Claim": claims[1]}).status_code == 401
    assert open_link(stranger, again, 1).status_code == 200  # released stays released
    again.table.journal.close()
    data = b"".join(p.read_bytes() for p in tmp_path.glob("journal.sqlite3*"))
    assert claims[2].encode() not in data  # the journal keeps digests, not claims


def test_a_claim_that_cannot_be_journaled_is_not_given(port):
    db = port.table.journal._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    with pytest.raises(JournalError):  # the card fills up
        for seat in itertools.count(100):
            port.table.journal.commit([], [Hold(999, seat, "0" * 64, 0.0)])
    phone = client_of(port)
    r = open_link(phone, port, 4)
    assert r.status_code == 507 and "seat 4 is not claimed, try again" in r.get_json()["error"]
    assert "Set-Cookie" not in r.headers and 4 not in port.table.access.claimed
    db.execute("PRAGMA max_page_count = 1073741823")  # space freed
    assert open_link(phone, port, 4).status_code == 200
