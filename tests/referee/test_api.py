"""The referee's JSON API through Flask's test client: who may read and do what."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from local_table import NAMES8, LocalPort

from companion.dashboard.api import (
    WRONG_PIN_LIMIT,
    WRONG_PIN_TABLE_LIMIT,
    PinGuard,
    api_blueprint,
)
from companion.referee.commands import CommandError

PIN = {"X-Table-Pin": "2468"}


@pytest.fixture
def port():
    return LocalPort()


@pytest.fixture
def client(port):
    app = Flask(__name__)
    app.secret_key = "test"
    app.register_blueprint(api_blueprint(port.table))
    return app.test_client()


def new_game(client, cards="digital"):
    version = client.get("/api/state").get_json()["version"]
    r = client.post("/api/command", headers=PIN, json={
        "type": "new_game", "version": version, "players": NAMES8[:4], "seed": 5,
        "cards": cards})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["version"]


def claim(client, port, seat):
    """The phone's headers once it has opened its seat's link (the QR code) first."""
    r = client.post("/api/claim", json={"seat": seat, "token": port.table.access.seat_token(seat)})
    assert r.status_code == 200, r.get_json()
    return {"X-Seat-Claim": r.get_json()["claim"]}


def test_spectators_read_the_public_state_without_secrets(client):
    new_game(client)
    r = client.get("/api/state")
    assert r.status_code == 200
    state = r.get_json()
    assert state["phase"] == "choose" and len(state["players"]) == 4
    text = json.dumps(state)
    assert '"hand"' not in text and '"legal"' not in text and '"token"' not in text
    assert client.post("/api/command", json={"type": "undo", "version": 1}).status_code == 401


def test_control_needs_the_pin_and_wrong_pins_are_limited(client):
    assert client.get("/api/control").status_code == 401
    for _ in range(WRONG_PIN_LIMIT):
        r = client.get("/api/control", headers={"X-Table-Pin": "0000"})
        assert r.status_code == 401 and r.get_json()["error"] == "wrong table PIN"
    r = client.get("/api/control", headers=PIN)  # even the right PIN must wait now
    assert r.status_code == 429


def test_the_godfather_sees_legal_actions_and_which_seats_a_phone_holds(client, port):
    new_game(client)
    state = client.get("/api/control", headers=PIN).get_json()
    assert state["legal"] == []  # digital cards: only phones choose, and no button tells a hand
    assert [(s["seat"], s["claimed"]) for s in state["seats"]] == [
        (1, False), (2, False), (3, False), (4, False)]
    claim(client, port, 2)
    state = client.get("/api/control", headers=PIN).get_json()
    assert [s["seat"] for s in state["seats"] if s["claimed"]] == [2]
    assert port.table.access.seat_token(2) not in json.dumps(state)  # the QR code alone has it
    version = client.get("/api/state").get_json()["version"]
    client.post("/api/command", headers=PIN, json={
        "type": "new_game", "version": version, "players": NAMES8[:4], "cards": "physical",
        "abandon": True})
    state = client.get("/api/control", headers=PIN).get_json()
    assert {"type": "choose", "player": "Ana"} in state["legal"]  # physical: a "ready" tap
    assert [s["seat"] for s in state["seats"] if s["claimed"]] == [2]  # Bob's phone stays
    client.post("/api/command", headers=PIN, json={
        "type": "new_game", "version": state["version"], "players": NAMES8[4:8],
        "abandon": True})
    state = client.get("/api/control", headers=PIN).get_json()
    assert not any(s["claimed"] for s in state["seats"])  # other players: no phone yet


def test_a_phone_sees_and_plays_only_its_own_seat(client, port):
    version = new_game(client)
    bob, cyd = claim(client, port, 2), claim(client, port, 3)
    me = client.get("/api/seat/2", headers=bob).get_json()["me"]
    assert me["player"] == "Bob" and me["hand"] == {"bang": 3, "click": 5}
    assert {a["player"] for a in me["legal"]} == {"Bob"}
    r = client.get("/api/seat/2", headers=cyd)  # Cyd's phone is sent to Cyd's own seat
    assert r.status_code == 403 and (r.get_json()["phone"], r.get_json()["seat"]) == ("moved", 3)
    r = client.post("/api/command", headers=bob, json={
        "type": "action", "version": version,
        "action": {"type": "choose", "player": "Ana", "card": "bang"}})
    assert r.status_code == 403 and "Bob" in r.get_json()["error"]
    r = client.post("/api/command", headers=bob, json={
        "type": "action", "version": version,
        "action": {"type": "choose", "player": "Bob", "card": "bang"}})
    assert r.status_code == 200
    me = client.get("/api/seat/2", headers=bob).get_json()["me"]
    assert me["hand"] == {"bang": 2, "click": 5} and me["card"] == "bang"
    other = client.get("/api/seat/3", headers=cyd).get_json()
    assert "bang" not in json.dumps([p for p in other["players"] if p["name"] == "Bob"])
    r = client.post("/api/command", headers=bob,
                    json={"type": "undo", "version": r.get_json()["version"]})
    assert r.status_code == 403


def test_pages_log_in_once_and_send_a_csrf_token(client):
    new_game(client)
    r = client.post("/api/login", json={"pin": "2468"})
    csrf = r.get_json()["csrf"]
    version = client.get("/api/state").get_json()["version"]
    cmd = {"type": "pause", "version": version}
    assert client.post("/api/command", json=cmd).status_code == 403  # no token: forged?
    assert client.post("/api/command", json=cmd, headers={"X-CSRF-Token": "x"}).status_code == 403
    r = client.post("/api/command", json=cmd, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and client.get("/api/state").get_json()["paused"] is True


def test_refusals_answer_with_the_right_status(client):
    version = new_game(client)
    r = client.post("/api/command", headers=PIN, data="not json",
                    content_type="application/json")
    assert r.status_code == 400 and "JSON object" in r.get_json()["error"]
    r = client.post("/api/command", headers=PIN, json={
        "type": "action", "version": version,
        "action": {"type": "courage", "player": "Ana", "down": True}})
    assert r.status_code == 422 and r.get_json()["rule"] == "R3"
    r = client.post("/api/command", headers=PIN, json={"type": "pause", "version": version})
    assert r.status_code == 200
    r = client.post("/api/command", headers=PIN, json={"type": "undo", "version": version})
    assert r.status_code == 409 and r.get_json()["version"] == version + 1


def test_pin_guessing_from_many_addresses_is_slowed_for_all_but_a_logged_in_tablet(port):
    app = Flask(__name__)
    app.secret_key = "test"
    app.register_blueprint(api_blueprint(port.table))
    tablet = app.test_client()
    assert tablet.post("/api/login", json={"pin": "2468"}).status_code == 200
    csrf = tablet.post("/api/login", json={"pin": "2468"}).get_json()["csrf"]

    def guess(address: str, pin: str) -> int:
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = address
        return client.get("/api/control", headers={"X-Table-Pin": pin}).status_code

    codes = [guess(f"10.0.0.{i}", f"{i:06d}") for i in range(WRONG_PIN_TABLE_LIMIT)]
    assert codes == [401] * WRONG_PIN_TABLE_LIMIT  # each address tried once only
    assert guess("10.0.1.1", "2468") == 429  # even the right PIN waits, from a new address
    r = tablet.get("/api/control")  # the Godfather's tablet is not locked out
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    version = r.get_json()["version"]
    assert tablet.post("/api/command", json={"type": "pause", "version": version},
                       headers={"X-CSRF-Token": csrf}).status_code == 200


def test_the_pin_guard_keeps_only_the_addresses_that_tried_lately(port):
    """An attacker with endless addresses (IPv6) cannot fill the memory: addresses whose
    tries are out of the window are forgotten, so at most the table-wide limit are kept."""
    guard = PinGuard()
    answers = []
    for i in range(1000):
        try:
            guard.check(port.table, "000000", f"fd00::{i:x}")
        except CommandError as e:
            answers.append(e.kind)
    assert answers.count("unauthorized") == WRONG_PIN_TABLE_LIMIT
    assert answers.count("too_many") == 990
    assert guard.addresses == WRONG_PIN_TABLE_LIMIT
