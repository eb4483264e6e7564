"""A first game without the manual: the New game flow on /referee, in Chromium, on the
simulated table (docs/DASHBOARD.md, "A new game")."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import expect
from stack import PIN, start_live_table
from waiting import wait_for

from companion.referee.commands import Auth

NAMES = ("Ana", "Bob", "Cyd", "Dee")
TABLET = {"width": 1280, "height": 800}


@contextmanager
def referee_page(browser, url: str) -> Iterator[object]:
    """/referee of a table this test started itself, on a tablet, logged in; the test
    fails if the page threw or logged an error."""
    context = browser.new_context(viewport=TABLET)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.set_default_timeout(10_000)
        page.goto(url + "/referee")
        log_in(page)
        yield page
    finally:
        context.close()
    assert not errors


def log_in(page) -> None:
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator("body")).to_have_attribute("data-live", "yes")


def name_players(page, names=NAMES) -> None:
    for seat, name in enumerate(names, start=1):
        page.fill(f'input[name="name{seat}"]', name)


def test_a_first_game_set_up_checked_and_remembered(tmp_path, mosquitto, browser):
    live = start_live_table(tmp_path, mosquitto.url)
    try:
        with referee_page(browser, live.url) as page:
            set_up_a_first_game(live, page)
    finally:
        live.stop()
    # the app restarts: the names come back from the journal
    again = start_live_table(tmp_path, mosquitto.url)
    try:
        with referee_page(browser, again.url) as page:
            expect(page.locator("#tab-play")).to_be_visible()  # a game is in progress
            page.get_by_role("tab", name="New game").click()
            for seat, name in enumerate(NAMES, start=1):
                expect(page.locator(f'input[name="name{seat}"]')).to_have_value(name)
    finally:
        again.stop()


def set_up_a_first_game(live, page) -> None:
    sim = live.table.simulator
    # no game: the New game tab is open, and the Play tab sends the reader there by name
    expect(page.get_by_role("tab", name="New game")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#tab-setup")).to_be_visible()
    page.get_by_role("tab", name="Play").click()
    expect(page.locator("#waiting")).to_have_text("No game yet: set one up on the New game tab.")
    page.get_by_role("tab", name="New game").click()
    expect(page.locator("#equipment li").first).to_have_text(
        "Seats with a gun and a standee: 1, 2, 3, 4, 5 and 6.")
    expect(page.locator('tr[data-seat="6"]')).to_be_visible()
    expect(page.locator('tr[data-seat="7"]')).to_be_hidden()  # no gun, no standee
    name_players(page)
    rows = page.locator("#setup-check li")
    expect(rows).to_have_count(4)
    ana = page.locator('#setup-check li[data-seat="1"]')
    expect(ana).to_contain_text("Raise your gun and aim at a player")
    expect(ana).to_have_attribute("data-ready", "no")

    sim.aim(1, 2)  # Ana raises her gun at Bob ...
    sim.raise_gun(1)
    expect(ana.locator(".part.ok")).to_have_text("✓ Gun")
    sim.tip(1)  # ... and tips her standee down and up again
    wait_for(lambda: live.table.readings.now(1, "posture", live.table.clock.now_ms()) == "down",
             what="Ana's standee lying down")
    sim.stand(1)
    expect(ana).to_have_attribute("data-ready", "yes")
    expect(ana).to_contain_text("ready")
    expect(page.locator('#setup-check li[data-seat="2"]')).to_have_attribute("data-ready", "no")

    # the dashboard listens on 127.0.0.1 only: the phones could not reach it, and it says so
    warning = page.locator("#tab-setup .phones-address")
    expect(warning).to_have_attribute("data-local", "yes")
    expect(warning).to_contain_text(f"The phones cannot reach {live.url}")
    page.click("#setup button[type=submit]")
    expect(page.locator("#tab-phones")).to_be_visible()  # the hands are on the phones
    expect(page.locator("#tab-phones .phones-address")).to_have_attribute("data-local", "yes")
    expect(page.locator(".phone-link img")).to_have_count(4)
    assert live.table.game is not None and live.table.game.player_at == dict(
        enumerate(NAMES, start=1))



@pytest.fixture
def short_of_guns(tmp_path, mosquitto):
    """Pods at seats 1 to 4, and at seat 5 a standee on a Pi pin but no gun; Eve's name is
    set for seat 5 (as a last game of five at this table would leave it)."""
    table = start_live_table(tmp_path, mosquitto.url, seats=(1, 2, 3, 4), more="""
  gpio: {pin_factory: mock, standees: [{seat: 5, pin: 16}]}""", referee="""
  seats: [{seat: 5, name: Eve}]""")
    try:
        yield table
    finally:
        table.stop()


def test_a_missing_gun_is_named(short_of_guns, browser):
    with referee_page(browser, short_of_guns.url) as page:
        equipment = page.locator("#equipment li")
        ready = "Seats with a gun and a standee: 1, 2, 3 and 4."
        expect(equipment).to_have_text([ready, "Seat 5 has no gun. Eve cannot sit there."])
        expect(page.locator('tr[data-seat="5"]')).to_be_visible()  # to clear Eve's name
        expect(page.locator('tr[data-seat="6"]')).to_be_hidden()
        name_players(page)  # four players fill the four seats that can take one
        expect(equipment).to_have_text([
            ready, "Seat 5 has no gun. Eve cannot sit there.",
            "All 4 seats with a gun and a standee have a player. Seats 6, 7 and 8 have no "
            "gun and no standee."])
        page.click("#setup button[type=submit]")
        expect(page.locator("#notice")).to_have_text("Seat 5 has no gun.")
        assert short_of_guns.table.game is None
        page.fill('input[name="name5"]', "")
        expect(equipment).to_have_text([ready, "Seat 5 has no gun.", "All 4 seats with a gun "
                                        "and a standee have a player. Seats 6, 7 and 8 have "
                                        "no gun and no standee."])
        page.click("#setup button[type=submit]")
        expect(page.locator("#tab-phones")).to_be_visible()
        assert short_of_guns.table.game is not None


def test_a_known_lan_address_needs_no_warning(tmp_path, mosquitto, browser):
    table = start_live_table(tmp_path, mosquitto.url, public_url="http://192.168.1.20:8080")
    try:
        with referee_page(browser, table.url) as page:
            address = page.locator("#tab-setup .phones-address")
            expect(address).to_have_attribute("data-local", "no")
            expect(address).to_have_text(
                "Once the game starts, each player scans their seat's code on the Phones "
                "tab: it opens http://192.168.1.20:8080.")
            expect(page.locator("#tab-phones .phones-address")).to_have_attribute(
                "data-local", "no")
    finally:
        table.stop()


def test_refusals_are_said_in_the_players_language(live, open_page):
    page = open_page("/referee?lang=fr", lang="fr",
                     expected_errors=("status of 400", "status of 422"))  # refused on purpose
    log_in(page)
    expect(page.get_by_role("tab", name="Nouvelle partie")).to_have_attribute(
        "aria-selected", "true")
    name_players(page, ("Ana", "Bob", "Ana", "Dee"))
    page.click("#setup button[type=submit]")
    expect(page.locator("#notice")).to_have_text("Ana occupe deux places.")
    name_players(page, ("Ana", "Bob", "Cyd"))
    page.fill('input[name="name4"]', "")
    page.click("#setup button[type=submit]")
    expect(page.locator("#notice")).to_have_text(
        "Une partie se joue de 4 à 8 joueurs : écrivez leurs noms aux places.")
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": list(NAMES)}, Auth(control=True))
    expect(page.locator("#abandon-box")).to_be_visible()
    name_players(page)
    page.click("#setup button[type=submit]")
    expect(page.locator("#notice")).to_have_text(
        "Une partie est en cours : cochez « Terminer la partie en cours » pour en commencer "
        "une nouvelle.")
    assert "abandon" not in page.locator("#notice").inner_text()
