"""A phone's private view: the secret choice is made there and shown nowhere else."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import expect
from stack import PIN

from companion.referee.commands import Auth


def get_json(url: str, headers: dict[str, str] | None = None) -> dict:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {})) as r:
        return json.load(r)


def test_a_card_chosen_on_a_phone_is_seen_by_no_other_page(live, open_page, screenshot):
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": ["Ana", "Bob", "Cyd", "Dee"],
                        "powers": {"Ana": "professional"}}, Auth(control=True))
    ana = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone")
    bob = open_page(f"/seat/2?token={live.table.access.seat_token(2)}", size="phone")
    table_view = open_page("/")
    referee = open_page("/referee")
    referee.fill("#pin", PIN)
    referee.click("button[type=submit]")
    expect(ana.locator("#me-name")).to_have_text("Ana · seat 1")
    expect(ana.locator("#hand")).to_have_text("In hand: 3 Bang!, 5 Click")
    expect(ana.locator("#power-name")).to_have_text("The Professional")
    expect(ana.locator("#power-reminder")).to_contain_text("steal one of their loot cards")

    ana.get_by_role("button", name="Play Bang!").click()
    expect(ana.locator("#my-card")).to_have_text("Bang! is down")
    expect(ana.locator("#hand")).to_have_text("In hand: 2 Bang!, 5 Click")
    expect(ana.locator(".choices button")).to_have_count(0)
    screenshot(ana, "seat-phone")

    # everyone else sees that a card is down, never which
    expect(table_view.locator('.seat[data-seat="1"] .mark')).to_have_text(["Card down"])
    expect(bob.locator("#my-card")).to_have_text("No card down")
    expect(referee.locator("body")).to_have_attribute("data-live", "yes")
    for page in (table_view, bob, referee):
        text = page.locator("body").inner_text()
        assert "Bang! is down" not in text and "2 Bang!" not in text
    assert referee.locator('[data-action*="\\"card\\""]').count() == 0
    public = json.dumps(get_json(live.url + "/api/state"))
    control = json.dumps(get_json(live.url + "/api/control", {"X-Table-Pin": PIN}))
    bob_view = get_json(live.url + "/api/seat/2", {"X-Seat-Token": live.table.access.seat_token(2)})
    assert '"card"' not in public
    assert bob_view["me"]["card"] is None and bob_view["me"]["hand"] == {"bang": 3, "click": 5}
    assert '"hand"' not in control.replace('"hand_size"', "")


def test_a_phone_link_needs_its_seats_token(live, open_page):
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    page = open_page(f"/seat/1?token={live.table.access.seat_token(2)}", size="phone",
                     expected_errors=("403 (FORBIDDEN)",))
    expect(page.locator(".message")).to_contain_text("not valid for this seat")


def test_a_new_game_ends_the_old_links(live, open_page):
    """The seat's stream stops at once: a new player at that seat is not shown to the
    old phone, which ends on the "scan again" page."""
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    phone = open_page(f"/seat/2?token={live.table.access.seat_token(2)}", size="phone",
                      expected_errors=("401 (UNAUTHORIZED)", "403 (FORBIDDEN)"))
    expect(phone.locator("#me-name")).to_have_text("Bob · seat 2")
    live.table.command({"type": "new_game", "version": live.table.version, "abandon": True,
                        "players": ["Eve", "Fay", "Gus", "Hal"]}, Auth(control=True))
    expect(phone.locator(".message")).to_contain_text("not valid for this seat")
    assert "Fay" not in phone.content()
