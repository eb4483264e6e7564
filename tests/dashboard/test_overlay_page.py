"""The stream overlay in Chromium behind the dashboard's real server, on a table whose clock
is a FakeClock: a transparent page of the live table, the Godfather setting the delay on
his tablet, and the cards down shown on the stream's page only once the delay has passed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_overlay import CARDS, NAMES, PIN, choose_cards

from companion.clock import FakeClock
from companion.dashboard.app import create_app
from companion.dashboard.server import DashboardServer
from companion.dashboard.settings import DashboardSettings
from companion.referee.commands import Auth
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table


@pytest.fixture
def served(tmp_path):
    clock = FakeClock()
    table = Table("overlay", RefereeSettings(pin=PIN), Journal(tmp_path / "j.sqlite3"), clock)
    table.command({"type": "new_game", "version": table.version, "players": NAMES,
                   "powers": "none"}, Auth(control=True))
    config = DashboardSettings(host="127.0.0.1", port=0)
    server = DashboardServer(create_app(table, config), config).start()
    yield table, clock, f"http://127.0.0.1:{server.port}"
    server.stop()
    table.journal.close()


def test_the_stream_shows_the_cards_down_only_after_the_godfathers_delay(browser, served):
    table, clock, url = served
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}),
                browser.new_context(viewport={"width": 1920, "height": 1080})]
    tablet = contexts[0].new_page()
    tablet.goto(url + "/referee")
    tablet.fill("#pin", PIN)
    tablet.click("button[type=submit]")
    expect(tablet.locator("body")).to_have_attribute("data-live", "yes")
    tablet.goto(url + "/overlay")
    delay = tablet.locator("#overlay-delay")
    expect(delay).to_have_value("0")  # off: never shown
    delay.select_option("30")
    expect(tablet.locator("#overlay-saved")).to_have_text("Saved.")

    obs = contexts[1].new_page()
    errors = []
    obs.on("console", lambda m: m.type in ("error", "warning") and errors.append(m.text))
    obs.goto(url + "/overlay")
    expect(obs.locator(".seat")).to_have_count(4)  # the table, live
    background = obs.evaluate("[getComputedStyle(document.documentElement).backgroundColor, "
                              "getComputedStyle(document.body).backgroundColor]")
    assert background == ["rgba(0, 0, 0, 0)"] * 2  # OBS shows the camera through it
    expect(obs.locator("#overlay-settings")).to_have_count(0)  # not the Godfather's

    clock.advance(5_000)
    choose_cards(table)
    expect(obs.locator("#banner")).not_to_be_empty()
    clock.advance(29_999)
    with obs.expect_response("**/api/overlay"):  # a poll after the clock moved
        pass
    with obs.expect_response("**/api/overlay"):
        pass
    late = obs.locator("#late")
    expect(late).to_be_visible()  # the hands of 30 s ago, before any card went down
    expect(late.locator("li")).to_have_count(4)
    cards = late.locator("li .card")
    expect(cards).to_have_text(["no card down"] * 4)
    clock.advance(1)
    expect(cards).to_have_text(["Bang!", "Click", "Bang!", "Click"])  # at the next poll
    expect(late.locator('li[data-player="Ana"]')).to_contain_text("hand: 2 Bang! and 5 Click")
    expect(late.locator("h2")).to_have_text("Hidden cards, 30 s late · round 1")
    assert [CARDS[n] for n in NAMES] == ["bang", "click", "bang", "click"]
    assert not errors, errors
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    for page in (obs, tablet):  # any impact, not only serious ones
        found = axe.run(page).response["violations"]
        assert not found, [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]])
                           for v in found]
    for context in contexts:
        context.close()
