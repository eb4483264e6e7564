"""The Smart's step at a real table (R28): the banner names the player, and the Smart's
phone offers to take the card back or to pass (keeping the card down changes nothing)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from companion.referee.access import SENSED, who_taps
from companion.referee.commands import Auth


def tap(live, **fields) -> None:
    """The first legal action with these fields, tapped as the table would (the sensors'
    steps entered by the Godfather's override)."""
    action = next(a.to_dict() for a in live.table.legal()
                  if all(a.to_dict().get(k) == v for k, v in fields.items()))
    live.table.command({"type": "action", "version": live.table.version, "action": action,
                        "override": action["type"] in SENSED},
                       who_taps(action, live.table.game.seat_of))


def to_the_smarts_step(live) -> None:
    """Ana (the Smart) plays Bang! at Bob, who lies down; everyone else stands."""
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": ["Ana", "Bob", "Cyd", "Dee"], "seed": 4,
                        "powers": {"Ana": "smart"}}, Auth(control=True))
    tap(live, type="choose", player="Ana", card="bang")
    for name in ("Bob", "Cyd", "Dee"):
        tap(live, type="choose", player=name, card="click")
    tap(live, type="aim", player="Ana", target="Bob")
    for name, target in (("Bob", "Cyd"), ("Cyd", "Dee"), ("Dee", "Ana")):
        tap(live, type="aim", player=name, target=target)
    if live.table.game.state.phase == "privilege":
        tap(live, type="privilege", order=None)
    tap(live, type="courage", player="Bob", down=True)
    for name in ("Ana", "Cyd", "Dee"):
        tap(live, type="courage", player=name, down=False)


def test_the_smarts_phone_names_the_step_and_may_pass(live, open_page):
    to_the_smarts_step(live)
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
    to_the_smarts_step(live)
    ana = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone",
                    lang="fr")
    expect(ana.locator("#my-turn")).to_have_text("À toi : reprends ta carte, ou passe")
    ana.locator('.choice-group[data-group="power"] button').nth(1).click()
    expect(ana.locator("#hand")).to_have_text(re.compile(r"En main : 3 Bang\s?!, 4 Clic"))
