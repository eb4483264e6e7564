"""A phone's private view: the secret choice is made there and shown nowhere else; the first
phone to open a seat's link holds the seat."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import expect
from stack import PIN

from companion.dashboard.pages import AWAY_REFRESH_S
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
    assert '"card"' not in public
    assert '"hand"' not in control.replace('"hand_size"', "")
    expect(bob.locator("#hand")).to_have_text("In hand: 3 Bang!, 5 Click")


def test_a_phone_link_needs_its_seats_token(live, open_page):
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    page = open_page(f"/seat/1?token={live.table.access.seat_token(2)}", size="phone",
                     expected_errors=("403 (FORBIDDEN)",))
    expect(page.locator(".message")).to_contain_text("not valid for this seat")
    assert not live.table.access.claimed


def test_a_phone_whose_player_left_the_table_says_so(live, open_page):
    """The seat's stream stops at once: a new player at that seat is not shown to the
    old phone, which says its player is not in this game (its old link is from an earlier
    game); it opens its player's new seat by itself when they play again."""
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    old_link = f"/seat/2?token={live.table.access.seat_token(2)}"
    phone = open_page(old_link, size="phone",
                      expected_errors=("401 (UNAUTHORIZED)", "403 (FORBIDDEN)"))
    expect(phone.locator("#me-name")).to_have_text("Bob · seat 2")
    live.table.command({"type": "new_game", "version": live.table.version, "abandon": True,
                        "players": ["Eve", "Fay", "Gus", "Hal"]}, Auth(control=True))
    expect(phone.locator('.message[data-state="away"]')).to_have_text(
        "Bob is not in this game. This phone opens Bob's seat by itself in the next game Bob "
        "plays at this table.")
    assert "Fay" not in phone.content()
    phone.goto(live.url + old_link)
    expect(phone.locator('.message[data-state="earlier"]')).to_be_visible()
    assert not live.table.access.claimed
    phone.goto(live.url + "/seat/2")
    expect(phone.locator('.message[data-state="away"]')).to_be_visible()
    live.table.command({"type": "new_game", "version": live.table.version, "abandon": True,
                        "players": ["Eve", "Fay", "Gus", "Bob"]}, Auth(control=True))
    expect(phone.locator("#me-name")).to_have_text("Bob · seat 4",  # the page looks again
           timeout=(AWAY_REFRESH_S + 5) * 1000)


def test_the_first_phone_holds_its_seat_until_the_godfather_releases_it(
        live, open_page, screenshot):
    """A phone opens its QR code's link and sees its hand; a second phone with the same link
    is told the seat is taken; the Godfather releases the seat on the Phones tab, the first
    phone is cut off, and the second one claims the seat with the same link."""
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    link = f"/seat/2?token={live.table.access.seat_token(2)}"
    errors = ("401 (UNAUTHORIZED)", "409 (CONFLICT)")
    first = open_page(link, size="phone", expected_errors=errors)
    expect(first.locator("#hand")).to_have_text("In hand: 3 Bang!, 5 Click")
    expect(first.locator("#claim")).to_have_text(
        "This phone holds seat 2: your hand is shown here and on no other screen.")
    assert first.url == live.url + "/seat/2"  # the link has done its job
    second = open_page(link, size="phone", expected_errors=errors)
    expect(second.locator('.message[data-state="taken"]')).to_have_text(
        "Another phone already holds this seat. If it should be yours, ask the Godfather to "
        "release the seat, then scan its code again.")
    assert "Bang!" not in second.locator("body").inner_text()
    screenshot(second, "seat-taken-phone")
    first.reload()  # the claim is the phone's: it opens the page again without the link
    expect(first.locator("#hand")).to_have_text("In hand: 3 Bang!, 5 Click")

    referee = open_page("/referee")
    referee.fill("#pin", PIN)
    referee.click("button[type=submit]")
    expect(referee.locator("body")).to_have_attribute("data-live", "yes")  # logged in
    referee.click('[data-tab="phones"]')
    expect(referee.locator("#tab-phones")).to_be_visible()
    held = referee.locator('.phone-link[data-seat="2"]')
    expect(held).to_have_attribute("data-claimed", "yes")
    expect(held.locator(".claimed")).to_have_text("A phone holds this seat.")
    expect(referee.locator(".phone-link img")).to_have_count(3)  # the others' codes
    assert "Bang!" not in referee.locator("body").inner_text()
    screenshot(referee, "referee-phones-claimed")
    held.get_by_role("button", name="Release the seat").click()
    expect(held).to_have_attribute("data-claimed", "no")
    expect(referee.locator(".phone-link img")).to_have_count(4)
    expect(first.locator('.message[data-state="released"]')).to_have_text(
        "The Godfather released this seat from this phone. Scan your seat's QR code again.")
    second.reload()
    expect(second.locator("#hand")).to_have_text("In hand: 3 Bang!, 5 Click")
    expect(held).to_have_attribute("data-claimed", "yes")
