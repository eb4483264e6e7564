"""Every page at 360 px wide (the narrowest phones), in every language: nothing scrolls
sideways, no seat of a table drawing covers another, the final count's Total column is on
the screen; and the New game form says what the Godfather's desk is."""

from __future__ import annotations

from playwright.sync_api import expect
from stack import PIN
from test_languages_and_end import play_to_the_end, start
from test_quality_gates import in_every_language

from companion.dashboard.i18n import LANGUAGES

NARROW = {"width": 360, "height": 740}
# How wide the page scrolls, how wide the window is, the first elements out of it, and the
# seats of a table drawing that cover one another.
OVERFLOW = """() => {
  const seats = [...document.querySelectorAll('#felt .seat')]
    .filter((e) => e.getClientRects().length)
    .map((e) => [e.dataset.seat, e.getBoundingClientRect()]);
  const covered = [];
  seats.forEach(([n, a], i) => seats.slice(i + 1).forEach(([m, b]) => {
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) covered.push([n, m]);
  }));
  return [document.scrollingElement.scrollWidth, window.innerWidth,
    [...document.querySelectorAll('body *')].filter((e) => e.getClientRects().length
      && e.getBoundingClientRect().right > window.innerWidth + 0.5).map(
      (e) => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className).slice(0, 5), covered];
}"""
TOTAL_ON_SCREEN = """() => { const cells = [...document.querySelectorAll('.final .scores tr')].map(
    (row) => row.lastElementChild.getBoundingClientRect());
  return cells.length > 1 && cells.every((c) => c.width > 0 && c.left >= 0
    && c.right <= window.innerWidth); }"""


def fits(page, path: str, ready: str, prepare=lambda page: None) -> list:
    """`path` in each language at 360 px, once `ready` is shown: what scrolls sideways and
    which seats cover one another."""
    wide = []
    for lang in in_every_language(page, path, ready, prepare):
        scroll, window, culprits, covered = page.evaluate(OVERFLOW)
        if scroll > window or covered:
            wide.append((path, lang, scroll, culprits, covered))
    return wide


def name_four_players(page) -> None:
    for seat, name in enumerate(("Ana", "Bob", "Cyd", "Dee"), start=1):
        page.fill(f'input[name="name{seat}"]', name)


def tab(name: str):
    return lambda page: page.click(f'[data-tab="{name}"]')


def test_every_page_fits_360_px(live, open_page):
    page = open_page("/referee", size="phone",  # (the error page and a phone's refusal)
                     expected_errors=("404 (NOT FOUND)", "403 (FORBIDDEN)"))
    page.set_viewport_size(NARROW)
    wide = fits(page, live.url + "/referee", "#pin")  # the PIN
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator("body")).to_have_attribute("data-live", "yes")
    wide += fits(page, live.url + "/", "#no-game")
    wide += fits(page, live.url + "/referee", "#setup-check li:nth-child(4)",  # New game
                 name_four_players)
    wide += fits(page, live.url + "/nowhere", ".message")  # the error page
    start(live, powers={"Ana": "hustler", "Bob": "kid", "Cyd": "doctor", "Dee": "greedy"})
    wide += fits(page, live.url + "/referee", "#actions button")  # Play
    for name, ready in (("sensors", "#overrides"), ("setup", "#setup"), ("phones", ".phones")):
        wide += fits(page, live.url + "/referee", f"#tab-{name} {ready}", tab(name))
    wide += fits(page, live.url + "/calibrate", "#matrix")
    wide += fits(page, live.url + "/sim", ".guns")
    wide += fits(page, live.url + "/", ".seat")
    phone = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone")
    phone.set_viewport_size(NARROW)
    expect(phone.locator("#hand")).to_contain_text("Bang!")
    wide += fits(phone, live.url + "/seat/1", "#hand")
    wide += fits(page, live.url + "/seat/2?token=wrong", ".message")  # a phone's refusal
    play_to_the_end(live)
    wide += fits(page, live.url + "/", ".final .scores")
    assert wide == [], "\n".join(map(str, wide))
    for lang in LANGUAGES:  # the final count: the Total column on the screen
        page.goto(f"{live.url}/?lang={lang}")
        expect(page.locator(".final .scores")).to_be_visible()
        assert page.evaluate(TOTAL_ON_SCREEN), lang


def test_the_desk_is_explained_where_it_is_chosen(live, open_page):
    """The New game form's Desk column says what the desk is in words on the page, which a
    touch screen shows as well as a mouse (no tooltip)."""
    page = open_page("/referee")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator("body")).to_have_attribute("data-live", "yes")
    for lang, words in (("en", "Who starts as the Godfather"), ("fr", "Qui commence Parrain"),
                        ("de", "Wer als Pate beginnt"), ("es", "Quién empieza de Padrino")):
        page.goto(f"{live.url}/referee?lang={lang}")
        head = page.locator("#desk-head")
        expect(head.locator(".th-hint")).to_be_visible()
        expect(head).to_contain_text(words)
        # the desk's radio buttons are described by it
        expect(page.locator('input[name="desk"]').first).to_have_accessible_description(words)
