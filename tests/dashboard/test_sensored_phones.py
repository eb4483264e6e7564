"""The sensors are the only voice of a sensored seat: its phone shows what its gun and
standee read and has no aim or lie-down button; a phone's (or a plain tablet tap's) aim
for it is refused and changes nothing; the Godfather's override is journaled as such and
marked on the table view and on the phone; a seat without sensors still plays from its
phone. Through the real server, broker and simulated table (guns at seats 1 to 6)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from playwright.sync_api import expect
from stack import PIN, cards_down

from companion.referee.commands import Auth

# Ana, Bob and Cyd sit at pods (a gun and a standee each); Dee at seat 7, which has none.
PLAYERS = [{"name": "Ana", "seat": 1}, {"name": "Bob", "seat": 2},
           {"name": "Cyd", "seat": 3}, {"name": "Dee", "seat": 7}]


def post(url: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={
        **headers, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def to_the_holdup(live) -> None:
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": PLAYERS, "powers": {}}, Auth(control=True))
    cards_down(live.table, [p["name"] for p in PLAYERS])
    assert live.table.game.state.phase == "holdup"


def player(live, name: str) -> dict[str, Any]:
    return next(p for p in live.table.public_state()["players"] if p["name"] == name)


def sources(live) -> list[tuple[str, str]]:
    game = live.table.game
    return [(a.type, src) for a, src in zip(game.actions, game.sources, strict=True)]


def test_a_phone_cannot_aim_for_a_sensored_seat_and_says_what_its_gun_reads(
        live, open_page, screenshot):
    to_the_holdup(live)
    ana = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone")
    expect(ana.locator("#my-turn")).to_have_text("Your turn: aim your gun")
    expect(ana.locator("#my-gun")).to_have_text("Your gun: lowered")
    expect(ana.locator("#my-standee")).to_have_text("Your standee: standing")
    expect(ana.locator(".act-aim")).to_have_count(0)
    live.table.simulator.aim(1, 2)  # Ana holds her gun on Bob
    expect(ana.locator("#my-gun")).to_have_text("Your gun: held on Bob")
    expect(ana.locator("#my-override")).to_be_hidden()
    screenshot(ana, "seat-phone-sensored")

    # Bob's phone (claimed as his page would) sends an aim anyway: refused, nothing changes
    status, body = post(live.url + "/api/claim", {"seat": 2,
                                                  "token": live.table.access.seat_token(2)}, {})
    assert status == 200, body
    bob = {"X-Seat-Claim": body["claim"]}
    before = live.table.version
    aim = {"type": "aim", "player": "Bob", "target": "Cyd"}
    status, body = post(live.url + "/api/command",
                        {"type": "action", "version": before, "action": aim}, bob)
    assert status == 403 and body["code"] == "sensored", body
    assert "Bob aims with the gun at the table" in body["error"]
    status, body = post(live.url + "/api/command", {"type": "action", "version": before,
                                                    "action": aim, "override": True}, bob)
    assert status == 403 and "only the Godfather's tablet" in body["error"], body
    # nor a plain tap on the tablet
    status, body = post(live.url + "/api/command", {"type": "action", "version": before,
                                                    "action": aim}, {"X-Table-Pin": PIN})
    assert status == 403 and body["code"] == "sensored", body
    assert live.table.version == before
    assert not player(live, "Bob")["aimed"] and ("aim", "phone") not in sources(live)
    assert player(live, "Bob")["sensored"] == {"gun": True, "standee": True}


def test_the_godfathers_override_is_journaled_and_marked_everywhere(live, open_page):
    to_the_holdup(live)
    cyd = open_page(f"/seat/3?token={live.table.access.seat_token(3)}", size="phone")
    table_view = open_page("/")
    expect(cyd.locator("#my-gun")).to_have_text("Your gun: lowered")
    # the tablet offers Cyd's aims as overrides, and sends them so
    control = live.table.control_state()
    aims = [b for b in control["commands"]
            if b["command"].get("action", {}).get("type") == "aim"
            and b["command"]["action"]["player"] == "Cyd"]
    assert aims and all(b["override"] and b["command"]["override"] for b in aims)
    referee = open_page("/referee")
    referee.fill("#pin", PIN)
    referee.click("button[type=submit]")
    override = referee.locator('.act-aim[data-override="yes"][data-action*=\'"player":"Cyd"\']'
                               '[data-action*=\'"target":"Ana"\']')
    override.click()
    expect(cyd.locator("#my-override")).to_be_visible()
    game = live.table.game.id
    assert [(e.action.player, e.source) for e in live.table.journal.entries(game)
            if e.action.type == "aim"] == [("Cyd", "override")]
    assert player(live, "Cyd")["overridden"] == ["aim"]
    expect(table_view.locator('.seat[data-seat="3"] .mark[data-kind="override"]')).to_have_text(
        "Set by the Godfather")
    expect(table_view.locator('.seat[data-seat="1"] .mark[data-kind="override"]')).to_have_count(0)
    expect(cyd.locator("#my-override")).to_have_text(
        "The Godfather set your aim or posture instead of the sensors.")


def test_a_seat_without_sensors_plays_from_its_phone(live, open_page):
    to_the_holdup(live)
    dee = open_page(f"/seat/7?token={live.table.access.seat_token(7)}", size="phone")
    expect(dee.locator('.choice-group[data-group="aim"] button')).to_have_text(
        ["Aim at Ana", "Aim at Bob", "Aim at Cyd"])
    expect(dee.locator("#my-sensors")).to_be_hidden()
    assert player(live, "Dee")["sensored"] == {"gun": False, "standee": False}
    dee.get_by_role("button", name="Aim at Bob").click()
    expect(dee.locator(".act-aim")).to_have_count(0)
    assert player(live, "Dee")["counted_aim"] == {"target": "Bob", "mark": None}
    assert ("aim", "phone") in sources(live)
