"""The language switch, and the end of a game: count, winners, tie-break, chart."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from companion.referee.access import SENSED, who_taps
from companion.referee.commands import Auth

GODFATHER = Auth(control=True)


def start(live, powers="none") -> None:
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": ["Ana", "Bob", "Cyd", "Dee"], "powers": powers,
                        "seed": 11}, GODFATHER)


def test_the_language_switch_changes_every_word(live, open_page, screenshot):
    start(live, powers={"Ana": "hustler", "Bob": "kid", "Cyd": "doctor", "Dee": "greedy"})
    page = open_page("/")
    expect(page.locator(".side h2")).to_have_text("What happened")
    page.click('.langs a[data-lang="fr"]')
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator(".side h2")).to_have_text("Ce qui s'est passé")
    expect(page.locator("#step")).to_contain_text("Tour 1 sur 8 · Butin")
    expect(page.locator("#log li").first).to_contain_text("Ana est le Parrain. Sur la table :")
    expect(page.locator('.seat[data-seat="3"] .power')).to_have_text("The Doctor")
    page.click('.langs a[data-lang="de"]')
    expect(page.locator('.seat[data-seat="3"] .power')).to_have_text("Die Ärztin")
    expect(page.locator("#banner")).to_have_text(
        "Der Schwindler darf einem Mitspieler eine Karte ziehen.")
    page.goto(live.url + "/")  # the choice is remembered
    expect(page.locator(".side h2")).to_have_text("Was geschah")
    page.click('.langs a[data-lang="es"]')
    expect(page.locator('.seat[data-seat="2"] .power')).to_have_text("El Niño")
    expect(page.locator("#log li").first).to_contain_text("Turno 1: Ana es el Padrino.")
    screenshot(page, "table-es-tablet")


def play_to_the_end(live) -> None:
    """Random legal taps from the tablet and the phones until the game ends (aims
    preferred, so people get shot and the chart has something to show)."""
    rnd = random.Random(5)
    while live.table.game.state.phase != "over":
        legal = [a.to_dict() for a in live.table.legal()]
        aims = [a for a in legal if a["type"] == "aim" and a.get("target")]
        stay = [a for a in legal if a["type"] == "courage" and not a["down"]]
        action = rnd.choice(aims or stay or legal)
        # (the sensors' steps entered by the Godfather's override: these tests are of words)
        live.table.command({"type": "action", "version": live.table.version,
                            "action": action, "override": action["type"] in SENSED},
                           who_taps(action, live.table.game.seat_of))


def test_the_end_of_the_game(live, open_page, screenshot):
    start(live)
    page = open_page("/")
    expect(page.locator(".loot-count").first).to_have_text("Loot: 0")
    play_to_the_end(live)
    final = page.locator(".final")
    expect(final).to_be_visible()
    state = live.table.public_state()
    rows = final.locator("table.scores tbody tr")
    expect(rows).to_have_count(4)
    winners = state["winners"]
    expect(final.locator("tr.winner th")).to_have_count(len(winners))
    for row in state["final"]:
        expect(rows.filter(has_text=row["name"]).locator("td").last).to_have_text(
            f"${row['score']['total']:,}")
    expect(final.locator(".tiebreak")).not_to_be_empty()
    expect(final.locator("svg.chart polyline")).to_have_count(4)
    shots = sum(1 for _ in state["history"]["shots"])
    assert shots > 0
    cells = final.locator("table.shots td").all_inner_texts()
    assert sum(int(c) for c in cells if c.isdigit()) == shots
    screenshot(page, "final-tablet")


CHART_LABELS = """() => {
  const chart = document.querySelector('.final svg.chart');
  const [, , w, h] = chart.getAttribute('viewBox').split(' ').map(Number);
  return [...chart.querySelectorAll('text')].map((t) => {
    const b = t.getBBox();
    const fits = b.x >= 0 && b.y >= 0 && b.x + b.width <= w && b.y + b.height <= h;
    return {text: t.textContent, fits};
  });
}"""


def test_every_chart_label_fits_in_every_language(live, open_page, screenshot):
    start(live)
    play_to_the_end(live)
    page = open_page("/")
    played = max(e.round for e in live.table.game.state.events)
    for lang in ("en", "fr", "de", "es"):
        page.goto(f"{live.url}/?lang={lang}")
        chart = page.locator(".final svg.chart")
        expect(chart).to_be_visible()
        labels = page.evaluate(CHART_LABELS)
        assert len(labels) == played + 2  # a label per round, the top and the zero
        assert all(label["fits"] for label in labels), (lang, labels)
        points = chart.locator("polyline").first.get_attribute("points").split()
        assert len(points) == played  # one point per round played
        screenshot(page, f"final-{lang}-tablet")
