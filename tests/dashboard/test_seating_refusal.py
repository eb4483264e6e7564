"""The New game flow says which seatings fail and why: the grips and the stances that
fall short, refused when the grip the table plays with fails as the players sit, warned
otherwise (docs/DASHBOARD.md, "Calibration and the seating check")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from stack import start_live_table
from test_first_game import referee_page

from companion.dashboard.calibrate import seating_report
from companion.dashboard.settings import TableTop

SIX = [1, 2, 3, 4, 5, 6]
NAMES = ("Ana", "Bob", "Cyd", "Dee", "Eve", "Fay")


def test_a_seating_that_fails_only_half_standing_is_warned_not_refused():
    """3+3 on 1.6 m from the shoulder: 88 % on the bench half standing, and a turned
    torso hides a row's far end (PERFORMANCE.md)."""
    report = seating_report(TableTop("rect", 1.6, "3+3", "from the shoulder"), SIX)
    assert report["verdict"] == "warn"
    found = [(w["gun"], w["targets"], w["grips"], w["stances"]) for w in report["warnings"]]
    assert found[0] == (6, [5], ["from the shoulder"], ["mixed"])
    assert {(gun, tuple(stances)) for gun, _, _, stances in found[1:]} == {(3, ("turned",))}


def test_the_tables_own_grip_failing_seated_or_covering_the_badge_is_refused():
    chest = seating_report(TableTop("rect", 1.6, "3+3", "at the chest"), SIX)
    assert chest["verdict"] == "refuse"
    assert "seated" in chest["warnings"][0]["stances"]  # the reason it is refused
    sternum = seating_report(TableTop("round", 1.2, None, "two-handed sternum"), SIX)
    assert sternum["verdict"] == "refuse" and sternum["hidden_badges"] == ["two-handed sternum"]
    assert seating_report(TableTop("round", 1.2, None, "arm extended"), SIX)["verdict"] == "ok"
    anyway = seating_report(TableTop("rect", 1.6, "3+3"), SIX)  # no grip named: warned
    assert anyway["verdict"] == "warn" and anyway["hidden_badges"] == []


@pytest.fixture
def chest_table(tmp_path, mosquitto):
    """Six guns round a 1.6 m rectangle seated 3+3, played with the guns at the chest."""
    table = start_live_table(tmp_path, mosquitto.url, seats=tuple(SIX),
                             table=TableTop("rect", 1.6, "3+3", "at the chest"))
    try:
        yield table
    finally:
        table.stop()


@pytest.mark.parametrize(("lang", "refuse", "line", "refused"), [
    ("en", "This table plays with the gun held at the chest, and these seats fail as the "
     "players sit: the game will not start with them.",
     "From seat 1, seats 2 and 3 are only 6° apart (needs 16°): an aim at one may be "
     "ambiguous. (with the gun held: at the chest) (players seated, standing, leaning in, "
     "turned sideways)",
     "The seating check refuses these seats with this table's grip: it says above why, "
     "and what works."),
    ("fr", "Cette table joue avec le pistolet tenu contre la poitrine, et ces places échouent",
     "(joueurs assis, debout, penchés en avant, tournés de côté)",
     "La vérification du placement refuse ces places avec la prise de cette table"),
])
def test_the_godfather_reads_why_the_seating_is_refused_and_cannot_start(
        chest_table, browser, lang, refuse, line, refused):
    with referee_page(browser, chest_table.url) as page:
        page.goto(f"{chest_table.url}/referee?lang={lang}")  # the session stays logged in
        expect(page.locator("body")).to_have_attribute("data-live", "yes")
        for seat, name in zip(SIX, NAMES, strict=True):
            page.fill(f'input[name="name{seat}"]', name)
        said = page.locator("#setup-seating li")
        expect(said.first).to_have_attribute("data-verdict", "refuse")
        expect(said.first).to_contain_text(refuse)
        expect(said.nth(1)).to_contain_text(line)
        expect(said.last).to_contain_text("2+2+1+1")  # a seating that works, suggested
        page.click("#setup button[type=submit]")
        expect(page.locator("#notice")).to_contain_text(refused)
        assert chest_table.table.game is None


def test_a_seating_that_fails_only_half_standing_is_said_and_the_game_starts(
        tmp_path, mosquitto, browser):
    table = start_live_table(tmp_path, mosquitto.url, seats=tuple(SIX),
                             table=TableTop("rect", 1.6, "3+3", "from the shoulder"))
    try:
        with referee_page(browser, table.url) as page:
            for seat, name in zip(SIX, NAMES, strict=True):
                page.fill(f'input[name="name{seat}"]', name)
            said = page.locator("#setup-seating li")
            expect(said.first).to_have_attribute("data-verdict", "warn")
            far = ("Seat {}'s gun barely receives seat {}'s badge: move them closer or turn the "
                   "badge to the table's centre. (with the gun held: from the shoulder) "
                   "(players {})")
            expect(said).to_have_text([
                "These seats fall short for the grips or stances named below: aims there may "
                "be ambiguous (the Godfather decides).",
                far.format(6, 5, "half standing"),
                *(far.format(3, s, "turned sideways") for s in (1, 2, 4, 5, 6)),
                "Suggested: seat them 2+2+1+1 (the long sides, then the ends)."])
            page.click("#setup button[type=submit]")
            expect(page.locator("#tab-phones")).to_be_visible()  # warned, not refused
            assert table.table.game is not None
    finally:
        table.stop()


def test_an_earlier_answer_arriving_late_does_not_replace_the_later_one(chest_table, browser):
    """On a slow network the check for five seats may answer after the one for six: the
    form shows the answer for the six players seated, never the stale one."""
    held = []
    five = f"{chest_table.url}/api/seating?seats=1,2,3,4,5"
    with referee_page(browser, chest_table.url) as page:
        page.route(five, lambda route: held.append(route))  # the reply for five seats waits here
        for seat, name in zip(SIX[:5], NAMES[:5], strict=True):
            page.fill(f'input[name="name{seat}"]', name)
        page.fill('input[name="name6"]', NAMES[5])
        said = page.locator("#setup-seating li")
        expect(said.nth(1)).to_contain_text("From seat 1, seats 2 and 3")
        six_said = said.all_inner_texts()
        assert len(held) == 1
        stale = held[0].fetch()  # the answer for five, computed by the server now
        chest = TableTop("rect", 1.6, "3+3", "at the chest")
        assert stale.json()["warnings"] == seating_report(chest, SIX[:5])["warnings"]
        assert stale.json()["warnings"] != seating_report(chest, SIX)["warnings"]  # it shows
        with page.expect_event("requestfinished", lambda r: r.url == five):
            held[0].fulfill(response=stale)
        # a fresh round trip after the late reply's body has arrived: the page has read it
        page.evaluate("() => fetch('/api/seating?seats=1,2,3,4').then((r) => r.json())")
        assert said.all_inner_texts() == six_said
