"""The table view read from two metres, in Chromium on the real referee and sensors:
whole rounds played by the simulated guns and standees, checked on the seats."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from waiting import wait_for

from companion.referee.commands import Auth

GODFATHER = Auth(control=True)
NAMES = ("Ana", "Bob", "Cyd", "Dee")
NAMES8 = ("Anastasia", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal")
LANGS = ("en", "fr", "de", "es")


def new_game(live, names=NAMES, **options) -> None:
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": list(names), "powers": options.pop("powers", "none"),
                        "cards": "physical", **options}, GODFATHER)


def act(live, action: dict) -> None:
    live.table.command({"type": "action", "version": live.table.version, "action": action},
                       GODFATHER)


def countdown(live, page, step: str) -> None:
    """Count to three and wait until the page shows the step the count leads to."""
    live.table.command({"type": "countdown", "version": live.table.version}, GODFATHER)
    expect(page.locator("#step")).to_contain_text(step, timeout=10_000)


def arrow_style(page, selector: str) -> dict:
    return page.locator(selector).first.evaluate(
        "e => ({dash: getComputedStyle(e).strokeDasharray, "
        "width: parseFloat(getComputedStyle(e).strokeWidth)})")


def seat(page, n: int):
    return page.locator(f'.seat[data-seat="{n}"]')


def test_a_round_read_on_the_seats(live, open_page, screenshot):
    sim = live.table.simulator
    new_game(live)
    page = open_page("/")
    for name in NAMES:
        act(live, {"type": "choose", "player": name})
    for gun, target in ((1, 2), (2, 3), (3, 1)):  # Dee never raises hers
        sim.aim(gun, target)
    expect(page.locator("svg.arrows .aim.live")).to_have_count(3)
    expect(page.locator("#banner")).to_have_text(
        "Ana, Bob, Cyd and Dee: aim your guns, the Godfather counts to three.")
    live_style = arrow_style(page, "svg.arrows .aim.live")

    countdown(live, page, "Godfather's privilege")  # after "three": only the counted aims
    expect(page.locator("svg.arrows .aim.counted")).to_have_count(3)
    expect(page.locator("svg.arrows .aim.live")).to_have_count(0)
    counted_style = arrow_style(page, "svg.arrows .aim.counted")
    assert live_style["dash"] != "none" and counted_style["dash"] == "none"
    assert counted_style["width"] > live_style["width"]
    expect(seat(page, 4).locator(".mark")).to_have_text(["Too slow"])
    expect(seat(page, 1).locator(".mark")).to_have_text(["Aims at Bob"])
    sim.raise_gun(1, False)  # Ana lowers her gun: the aim that counted stays drawn
    expect(seat(page, 1).locator(".gun-state")).to_have_text("Gun down")
    expect(page.locator('svg.arrows .aim.counted[data-from="1"]')).to_have_attribute("data-to", "2")
    screenshot(page, "table-counted-tablet")

    act(live, {"type": "privilege", "player": "Ana", "order": None})
    sim.tip(3)  # Cyd lies down
    countdown(live, page, "Card effects")
    expect(seat(page, 3).locator(".standee")).to_have_text("Lying down")
    for name, card in (("Ana", "bang"), ("Dee", "click")):
        if any(a.type == "reveal" and a.player == name for a in live.table.legal()):
            act(live, {"type": "reveal", "player": name, "card": card})
    expect(page.locator("#step")).to_contain_text("Loot split")
    expect(seat(page, 1).locator(".mark")).to_have_text(["Bang! at Bob: hit"])
    expect(seat(page, 2).locator(".mark")).to_have_text(["Shot by Ana"])
    expect(seat(page, 2).locator(".wound.hit")).to_have_count(1)
    expect(seat(page, 2).locator(".standee")).to_have_text("Wounded: lie down!")
    expect(seat(page, 4).locator(".mark")).to_have_text(["Too slow"])
    expect(seat(page, 3).locator(".standee")).to_have_text("Lay down: no share")
    expect(page.locator("svg.arrows .aim")).to_have_count(0)  # the split: no arrow
    expect(page.locator("#banner")).to_contain_text("Bob, you are wounded: lie your standee down.")
    assert too_small(page) == []  # the wounds, the shots and who lies down: read from the chairs
    assert page.evaluate(LAYOUT)["clipped"] == []
    sim.tip(2)
    expect(page.locator("#banner")).not_to_contain_text("wounded")

    page.click("#replay-open")  # Show me: the courage count, then the hold-up's
    dialog = page.locator("#replay")
    expect(dialog.locator(".replay")).to_have_attribute("data-step", "courage")
    expect(dialog.locator('.replay-row[data-player="Cyd"] .verdict')).to_have_text("Lies down")
    dialog.get_by_role("button", name="Hold-up").click()
    expect(dialog.locator('.replay-row[data-player="Dee"] .reasons')).to_have_text(
        "No aim held: too slow.")
    expect(dialog.locator('.replay-row[data-player="Ana"] .reasons li').first).to_have_text(
        re.compile(r"^Bob: held \d+ ms, counted\.$"))
    expect(dialog.locator('.replay-row[data-player="Ana"] .tl.counted')).to_have_count(1)
    expect(dialog.locator(".recount")).to_have_count(0)  # the table view only shows
    screenshot(page, "table-replay-tablet")
    dialog.get_by_role("button", name="Close").click()

    while live.table.game.state.phase == "split":  # the shares, until round 2
        act(live, next(a.to_dict() for a in live.table.legal() if a.type == "take"))
    expect(page.locator("#step")).to_contain_text("Round 2 of 8")
    expect(page.locator(".seat .mark")).to_have_count(0)  # nothing from round 1 on the seats
    expect(page.locator("svg.arrows .aim")).to_have_count(0)
    expect(seat(page, 3).locator(".standee")).to_have_text("Stand it back up!")
    expect(page.locator("#banner")).to_contain_text("Bob and Cyd: stand your standees back up.")
    sim.stand(3)
    expect(seat(page, 3).locator(".standee")).to_have_text("Standing")
    expect(page.locator("#replay-open")).to_be_hidden()

    # the log: the newest round on top, each round in reading order
    rounds = page.locator("#log .log-round")
    expect(rounds.locator("h3")).to_have_text(["Round 2", "Round 1"])
    events = [e for e in live.table.public_state()["events"] if e["round"] == 1]
    shown = rounds.nth(1).locator("li")
    expect(shown).to_have_count(len(events))
    expect(shown.first).to_contain_text("Round 1: Ana is the Godfather.")
    expect(rounds.nth(1).locator('li[data-type="wounded"]')).to_have_text("Ana shot Bob: 1 wound.")
    kinds = rounds.nth(1).locator("li").evaluate_all("l => l.map(e => e.dataset.type)")
    assert kinds == [e["type"] for e in events]


def test_the_godfather_recounts_from_the_replay(live, open_page):
    from test_referee import log_in

    sim = live.table.simulator
    new_game(live)
    referee = open_page("/referee")
    table_view = open_page("/")
    log_in(referee)
    for name in NAMES:
        act(live, {"type": "choose", "player": name})
    for gun, target in ((1, 2), (2, 3), (3, 1)):
        sim.aim(gun, target)
    countdown(live, referee, "Godfather's privilege")
    expect(seat(table_view, 4).locator(".mark")).to_have_text(["Too slow"])
    referee.click("#replay-open")
    row = referee.locator('#replay .replay-row[data-player="Dee"]')
    expect(row.locator(".verdict")).to_have_text("Too slow")
    row.get_by_role("button", name="aims at Ana").click()  # Dee swears she aimed at Ana
    expect(row.locator(".badge.manual")).to_have_text("Recounted by the Godfather")
    expect(row.locator(".reasons")).to_have_text("No aim held: too slow.")  # still on record
    expect(seat(table_view, 4).locator(".mark")).to_have_text(  # an override, said so
        ["Aims at Ana", "Set by the Godfather"])
    expect(table_view.locator('svg.arrows .aim.counted[data-from="4"]')).to_have_attribute(
        "data-to", "1")
    entries = live.table.journal.entries(live.table.game.id)
    dee = [e for e in entries if e.action.type == "aim" and e.action.player == "Dee"]
    assert [(e.action.target, e.source) for e in dee] == [("Ana", "override")]


# What a player reads from their chair: on each seat the name, the wounds against the
# limit, standing or lying, the loot taken and the aims; the loot on the table, whose turn
# (the banner), the round and the Godfather's count.
READ_FROM_THE_CHAIRS = ("#felt .seat .seat-no", "#felt .seat .name", "#felt .seat .wound-count",
                        "#felt .seat .loot-count", "#felt .seat .standee", "#felt .seat .mark",
                        "#loot .loot-card", "#banner", "#round")
# 7.5 arcmin at 2 m is 4.36 mm; a 10.1" 1280×800 screen has 0.170 mm a CSS pixel: 25.7 px
CAP_HEIGHT_PX = 26

# The cap height of each text drawn under each selector, in its own computed font: the
# ascent of "H" as the browser's text engine measures it, the font it really picked.
CAP_HEIGHTS = """(selectors) => {
  const ctx = document.createElement('canvas').getContext('2d');
  const cap = (s) => {
    ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    return ctx.measureText('H').actualBoundingBoxAscent;
  };
  return selectors.map((selector) => {
    const found = [];
    for (const root of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode, el = node.parentElement;
        if (!node.textContent.trim() || !el.getClientRects().length || el.closest('.sr')) continue;
        found.push([node.textContent.trim().slice(0, 40), cap(getComputedStyle(el))]);
      }
    }
    return [selector, found];
  });
}"""


def too_small(page, selectors=READ_FROM_THE_CHAIRS, required=READ_FROM_THE_CHAIRS) -> list:
    """Each text under `selectors` whose cap height is under the limit; every selector of
    `required` must have drawn some text (an empty check proves nothing)."""
    small = []
    for selector, found in page.evaluate(CAP_HEIGHTS, list(selectors)):
        assert found or selector not in required, f"nothing drawn for {selector}"
        small += [(selector, text, round(cap, 1)) for text, cap in found if cap < CAP_HEIGHT_PX]
    return small


def test_the_measure_is_the_fonts_own(open_page):
    """The browser's "H" ascent is the cap height the font file gives (fontTools): the
    measure above reads what the font draws, not a guess from the font size."""
    from fontTools.ttLib import TTFont

    font = TTFont("/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf")
    ratio = font["glyf"][font.getBestCmap()[ord("H")]].yMax / font["head"].unitsPerEm
    page = open_page("/")
    page.evaluate("""() => { const p = document.createElement('p'); p.id = 'probe';
      p.style.font = 'bold 100px "DejaVu Sans Condensed"'; p.textContent = 'Hx';
      document.body.append(p); }""")
    [(_, [(_, cap)])] = page.evaluate(CAP_HEIGHTS, ["#probe"])
    assert abs(cap - 100 * ratio) < 1.0, (cap, ratio)


LAYOUT = """() => {
  const box = (e) => e.getBoundingClientRect();
  const seats = [...document.querySelectorAll('#felt .seat')].map(box);
  const felt = box(document.getElementById('felt'));
  const overlaps = [];
  seats.forEach((a, i) => seats.slice(i + 1).forEach((b, j) => {
    const cross = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    if (cross) overlaps.push([i, i + j + 1]);
  }));
  const inside = seats.every((s) => s.left >= felt.left - 1 && s.right <= felt.right + 1
    && s.top >= felt.top - 1 && s.bottom <= felt.bottom + 1);
  const arrows = box(document.querySelector('svg.arrows'));
  const apart = (a, b) => a.right <= b.left || b.right <= a.left
    || a.bottom <= b.top || b.bottom <= a.top;
  const side = ['round', 'loot', 'log'].map((id) => box(document.getElementById(id)));
  const clipped = [...document.querySelectorAll('#felt .seat')].filter(
    (s) => s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1).map(
    (s) => [s.dataset.seat, s.scrollWidth, s.clientWidth, s.scrollHeight, s.clientHeight]);
  return {overlaps, inside, clipped, sideClear: side.every((s) => apart(s, arrows)),
          countdownClear: side.every((s) => apart(s, box(document.getElementById('countdown')))),
          scroll: document.scrollingElement.scrollWidth};
}"""


@pytest.mark.guns(8)
def test_eight_seats_read_from_two_metres_in_every_language(live, open_page, screenshot):
    """1280×800: everything read from the chairs 26 px of cap height or more, the count
    too; no seat over another, and the round, the loot and the log apart from the arrows
    and the countdown; then 4 to 7 seats alike."""
    sim = live.table.simulator
    powers = ("unbreakable", "junk_dealer", "good_friend", "professional", "collector",
              "dictator", "lucky_man", "stealthy")  # long names, no window in the hold-up
    new_game(live, names=NAMES8, powers=dict(zip(NAMES8, powers, strict=True)), seed=4)
    page = open_page("/")
    for name in NAMES8:
        act(live, {"type": "choose", "player": name})
    for gun in range(1, 8):  # Hal is too slow
        sim.aim(gun, gun % 8 + 1)
    table = live.table  # the seven guns read their targets before "one, two, three"
    wait_for(lambda: all(table.readings.now(g, "aim", table.clock.now_ms()) == g % 8 + 1
                         for g in range(1, 8)), 10, "the seven aims")
    live.table.command({"type": "countdown", "version": live.table.version}, GODFATHER)
    count = page.wait_for_function(  # the Godfather's count, measured while it is shown
        "() => /[123]/.test(document.getElementById('countdown').textContent)"
        f" && ({CAP_HEIGHTS})(['#countdown'])[0][1]").json_value()
    assert count and min(cap for _, cap in count) >= CAP_HEIGHT_PX
    wait_for(lambda: live.table.public_state()["stage"]["name"] == "idle", 10,
             "the countdown to be read")  # (the page may not show "counting" yet)
    while unclear := [a for a in live.table.legal() if a.type == "aim" and a.target]:
        act(live, unclear[0].to_dict())  # an aim the sensors left unclear: the Godfather taps
    expect(page.locator("#step")).to_contain_text("Godfather's privilege")
    expect(page.locator("svg.arrows .aim.counted")).to_have_count(7)
    for lang in LANGS:
        page.goto(f"{live.url}/?lang={lang}")
        expect(page.locator(".seat .mark")).to_have_count(8)
        screenshot(page, f"table-8-{lang}-tablet")
        assert too_small(page) == [], lang
        layout = page.evaluate(LAYOUT)
        assert layout["overlaps"] == [] and layout["inside"], (lang, layout)
        assert layout["clipped"] == [], (lang, layout)
        assert layout["sideClear"] and layout["countdownClear"] and layout["scroll"] <= 1280
    for n in (4, 5, 6, 7):  # fewer players, in French (long words), a card down on most seats
        live.table.command({"type": "new_game", "version": live.table.version, "abandon": True,
                            "players": list(NAMES8[:n]), "cards": "physical",
                            "powers": dict(zip(NAMES8[:n], powers, strict=False))}, GODFATHER)
        for name in NAMES8[:n - 1]:
            act(live, {"type": "choose", "player": name})
        page.goto(f"{live.url}/?lang=fr")
        expect(page.locator(".seat .mark")).to_have_count(n - 1)
        assert too_small(page) == [], n
        layout = page.evaluate(LAYOUT)
        assert layout["overlaps"] == [] and layout["inside"] and layout["sideClear"], (n, layout)
        assert layout["clipped"] == [], (n, layout)
