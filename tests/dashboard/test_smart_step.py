"""The Smart's step at a real table (R28): the banner names the player, and the Smart's
phone offers to take the card back or to pass (keeping the card down changes nothing)."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from smart_step import tap, to_the_smarts_step
from test_referee import log_in


def test_the_smarts_phone_names_the_step_and_may_pass(live, open_page):
    to_the_smarts_step(live.table)
    view = open_page("/")
    ana = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone")
    expect(view.locator("#banner")).to_contain_text(
        "Ana (the Smart) may take back the card played, or pass.")
    expect(ana.locator("#my-turn")).to_have_text("Your turn: take your card back, or pass")
    power = ana.locator('.choice-group[data-group="power"] button')
    expect(power).to_have_text(["Pass: your Bang! stays down",
                                "Take your card back, discarding Click"])
    expect(ana.locator("#hand")).to_have_text("In hand: 2 Bang!, 5 Click")
    power.first.click()
    expect(ana.locator("#my-turn")).not_to_have_text("Your turn: take your card back, or pass")
    expect(ana.locator("#hand")).to_have_text("In hand: 2 Bang!, 5 Click")  # as played
    assert live.table.game.state.phase != "courage"


def test_the_smart_takes_the_card_back_from_the_phone(live, open_page):
    to_the_smarts_step(live.table)
    ana = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone",
                    lang="fr")
    expect(ana.locator("#my-turn")).to_have_text("À toi : reprends ta carte, ou passe")
    ana.locator('.choice-group[data-group="power"] button').nth(1).click()
    expect(ana.locator("#hand")).to_have_text(re.compile(r"En main : 3 Bang\s?!, 4 Clic"))


def test_with_physical_cards_the_smarts_phone_passes_and_the_cards_are_revealed(live, open_page):
    """Real cards: the phone offers Take back and Pass; Pass moves the table on to the card
    effects (Cyd's and Dee's cards counted, Ana's never asked for), and the log says so."""
    to_the_smarts_step(live.table, "physical")
    view = open_page("/")
    ana = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone")
    expect(ana.locator("#my-turn")).to_have_text("Your turn: take your card back, or pass")
    power = ana.locator('.choice-group[data-group="power"] button')
    expect(power).to_have_text(["Take your card back", "Pass: your card stays down"])
    expect(ana.locator("body")).to_have_attribute(  # (the stream's latest drawn: no redraw
        "data-revision", str(live.table.state.revision))  # under the finger)
    power.nth(1).click()
    expect(ana.locator("#my-turn")).not_to_have_text("Your turn: take your card back, or pass")
    expect(view.locator("#log")).to_contain_text("Ana (the Smart) passes: the card stays down.")
    expect(view.locator("#banner")).to_have_text("Turn up the cards that count.")
    for name, card in (("Cyd", "click"), ("Dee", "bang")):
        tap(live.table, type="reveal", player=name, card=card)
    assert live.table.game.state.phase == "split"
    expect(view.locator("#log")).to_contain_text("Dee aimed at Ana: Bang!")
    expect(view.locator("#log")).to_contain_text("Dee shot Ana")
    assert live.table.game.state.players[0].wounds == 1


def test_the_play_tab_passes_for_a_smart_without_a_phone(live, open_page):
    """No phone at Ana's seat: the Godfather's Play tab offers her Take back and Pass."""
    to_the_smarts_step(live.table, "physical")
    page = open_page("/referee")
    log_in(page)
    buttons = page.locator("#actions button")
    expect(buttons.filter(has_text="Ana takes the card back")).to_have_count(1)
    page.get_by_role("button", name="Ana passes: the card stays down").click()
    expect(page.locator("#waiting")).not_to_contain_text("the Smart")
    assert [e.type for e in live.table.game.state.events][-1] == "smart_pass"
