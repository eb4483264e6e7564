"""A seat opened from the Godfather's list on the device in hand, and a seat handed back
to its bot without a word of a lost connection."""

from __future__ import annotations

from playwright.sync_api import expect
from stack import PIN

from companion.referee.commands import Auth


def new_game(table) -> None:
    table.command({"type": "new_game", "version": table.version,
                   "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))


def test_a_seat_opens_on_the_device_in_hand_from_the_godfathers_list(live, open_page):
    new_game(live.table)
    referee = open_page("/referee", size="phone")
    referee.fill("#pin", PIN)
    referee.click("button[type=submit]")
    expect(referee.locator("body")).to_have_attribute("data-live", "yes")
    referee.click('[data-tab="phones"]')
    expect(referee.locator(".phone-link .open-here")).to_have_count(4)
    with referee.expect_popup() as popup:
        referee.get_by_role("link", name="Open Bob's seat on this device").click()
    phone = popup.value
    expect(phone.locator("#me-name")).to_have_text("Bob · seat 2")
    expect(phone.locator("#hand")).to_have_text("In hand: 3 Bang!, 5 Click")
    assert phone.url.endswith("/seat/2")  # the claim's cookie opens it from now on
    held = referee.locator('.phone-link[data-seat="2"]')
    expect(held).to_have_attribute("data-claimed", "yes")
    expect(held.locator(".open-here")).to_have_count(0)  # a held seat has no link to give
    anonymous = open_page("/referee/seat/2", expected_errors=("401 (UNAUTHORIZED)",))
    assert "token=" not in anonymous.url  # the link is the Godfather's to give


def test_a_seat_handed_back_to_its_bot_says_nothing_of_a_lost_connection(live, open_page):
    live.table.stand_ins = {1: "cautious", 2: "greedy", 3: "greedy", 4: "greedy"}
    new_game(live.table)
    view = open_page("/")
    phone = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone")
    expect(phone.locator("#me-name")).to_have_text("Ana · seat 1")
    phone.get_by_role("button", name="Hand this seat back to the bot (cautious)").click()
    expect(phone.locator("#phone")).to_contain_text("The bot (cautious) plays this seat again")
    expect(view.locator('.seat[data-seat="1"] .badge.bot')).to_have_text("Bot: cautious")
    # the seat's stream has ended by now; one change more, seen by the table view
    live.table.command({"type": "pause", "version": live.table.version}, Auth(control=True))
    expect(view.locator("body")).to_have_attribute(
        "data-revision", str(live.table.public_state()["revision"]))
    expect(phone.locator("#connection")).to_be_hidden()
    expect(phone.locator("body")).not_to_have_attribute("data-live", "no")
    expect(phone.locator("#phone")).to_contain_text("The bot (cautious) plays this seat again")
