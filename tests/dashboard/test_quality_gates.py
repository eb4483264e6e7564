"""Quality gates on every page a player or the Godfather sees, in every language: axe-core
finds no accessibility violation of any impact (minor and moderate ones too, such as a
heading level skipped). That every page fits 360 px, the phone's and the Godfather's among
them, is test_narrow_pages.py's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from stack import PIN
from test_languages_and_end import play_to_the_end, start

from companion.dashboard.i18n import LANGUAGES


@pytest.fixture(scope="module")
def axe():
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def violations(axe, page) -> list[str]:
    """Each rule broken on the page, whatever its impact, with the first elements at fault."""
    found = axe.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + "; ".join(n["target"][0] for n in v["nodes"][:3])
            for v in found]


def in_every_language(page, url: str, ready: str, prepare=lambda page: None):
    """Each language's code, once the page at `url` shows it drawn in that language:
    `ready` (a selector) visible, after `prepare(page)`."""
    for lang in LANGUAGES:
        page.goto(f"{url}{'&' if '?' in url else '?'}lang={lang}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        prepare(page)
        expect(page.locator(ready).first).to_be_visible()
        yield lang


def check_in_every_language(axe, page, url: str, ready: str,
                            prepare=lambda page: None) -> list[str]:
    """What axe finds on the page at `url` in each language."""
    return [f"{url} [{lang}] {v}" for lang in in_every_language(page, url, ready, prepare)
            for v in violations(axe, page)]


def log_in(page) -> None:
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator("body")).to_have_attribute("data-live", "yes")


def name_four_players(page) -> None:
    for seat, name in enumerate(("Ana", "Bob", "Cyd", "Dee"), start=1):
        page.fill(f'input[name="name{seat}"]', name)


def show_tab(name: str):
    return lambda page: page.click(f'[data-tab="{name}"]')


def test_no_accessibility_violation_on_any_page(live, open_page, axe):
    referee = open_page("/referee")
    log_in(referee)  # no game yet: the New game flow, with its checks and the phones' warning
    failed = check_in_every_language(axe, referee, live.url + "/referee",
                                     "#setup-check li:nth-child(4)", name_four_players)
    start(live, powers={"Ana": "hustler", "Bob": "kid", "Cyd": "doctor", "Dee": "greedy"})
    phone = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone")
    expect(phone.locator("#hand")).to_contain_text("Bang!")
    failed += check_in_every_language(axe, phone, live.url + "/seat/1", "#hand")
    table = open_page("/")
    failed += check_in_every_language(axe, table, live.url + "/", ".seat")
    login = open_page("/referee")
    failed += check_in_every_language(axe, login, live.url + "/referee", "#pin")
    failed += check_in_every_language(axe, referee, live.url + "/referee", "#actions")
    for tab, ready in (("sensors", "#overrides"), ("phones", ".phones")):
        failed += check_in_every_language(axe, referee, live.url + "/referee",
                                          f"#tab-{tab} {ready}", show_tab(tab))
    lost = open_page("/nowhere", expected_errors=("404 (NOT FOUND)", "403 (FORBIDDEN)"))
    failed += check_in_every_language(axe, lost, live.url + "/nowhere", ".message")
    failed += check_in_every_language(axe, lost, live.url + "/seat/2", ".message")
    failed += check_in_every_language(axe, referee, live.url + "/calibrate", "#matrix")
    failed += check_in_every_language(axe, referee, live.url + "/sim", ".guns")
    play_to_the_end(live)
    failed += check_in_every_language(axe, table, live.url + "/", ".final .scores")
    assert not failed, "\n".join(failed)

