"""The night on the tablet in Chromium: the standings and awards under the final count of a
game played to its end on the live table, hidden during a game, and the Godfather's tablet
ending the night."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from test_languages_and_end import play_to_the_end, start
from test_referee import log_in


def test_the_night_shows_between_games_and_the_godfather_ends_it(live, open_page, screenshot):
    start(live)
    page = open_page("/referee", lang="fr", expected_errors=("401 (UNAUTHORIZED)",))
    log_in(page)
    page.goto(live.url + "/")
    panel = page.locator("#evening")
    expect(page.locator("body")).to_have_attribute("data-live", "yes")
    expect(panel).to_be_hidden()  # a game in play
    play_to_the_end(live)

    night = page.locator(".final #evening")  # under the final count
    expect(night).to_be_visible()
    expect(night.locator("h2")).to_have_text("Ce soir")
    state = live.table.public_state()
    totals = {r["name"]: r["score"]["total"] for r in state["final"]}
    rows = night.locator("tbody tr")
    expect(rows).to_have_count(4)
    for name, total in totals.items():  # one game each, its total, a win for its winners
        cells = rows.filter(has=page.locator(f'th:text-is("{name}")')).locator("td")
        expect(cells).to_have_count(3)
        wins = "1" if name in state["winners"] else "0"
        assert cells.all_inner_texts()[:2] == ["1", wins]
        assert int("".join(c for c in cells.nth(2).inner_text() if c.isdigit())) == total
    best = max(totals.values())
    haul = night.locator('li[data-award="haul"]')
    expect(haul).to_contain_text("Plus gros butin d'une partie")
    for name in (n for n, v in totals.items() if v == best):
        expect(haul).to_contain_text(name)
    expect(night.locator('li[data-award="godfather"]')).to_contain_text("Parrain le plus longtemps")
    screenshot(page, "evening-final-tablet")
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, context="#evening").response["violations"]
    assert not found, [(v["id"], v["impact"], v["nodes"][0]["target"]) for v in found]

    end = night.locator("#evening-end")
    end.click()
    expect(end).to_have_text("Touchez encore pour finir la soirée")
    expect(rows).to_have_count(4)  # one tap alone ends nothing
    end.click()
    expect(night.locator("#evening-none")).to_have_text("Aucune partie terminée ce soir.")
    expect(rows).to_have_count(0)

    start(live)  # the next game: the panel is put away
    expect(page.locator("#evening")).to_be_hidden()


def test_the_table_view_of_a_spectator_has_no_end_button(live, open_page):
    page = open_page("/")
    expect(page.locator("#evening")).to_be_visible()  # no game yet: the night so far
    expect(page.locator("#evening-none")).to_have_text("No game finished tonight yet.")
    expect(page.locator("#evening-end")).to_have_count(0)


def test_the_night_shows_when_its_script_runs_after_the_first_state(browser, live):
    """On a slow tablet the page's module scripts can arrive after the stream's first state:
    evening.js is held here until the page has drawn it, and still shows the night."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        held: list = []
        page.route("**/js/evening.js", lambda route: held.append(route))
        page.goto(live.url + "/", wait_until="commit")
        expect(page.locator("body")).to_have_attribute("data-revision", re.compile(r"\d"))
        assert len(held) == 1 and page.locator("#evening").is_hidden()
        held[0].continue_()
        expect(page.locator("#evening")).to_be_visible()  # no game yet: the night so far
        expect(page.locator("#evening-none")).to_have_text("No game finished tonight yet.")
    finally:
        context.close()
