"""Four phones over two games with the same names in new seats: each phone follows its
player without a new scan, and never shows another player's hand."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.referee.commands import Auth

FRESH = "In hand: 3 Bang!, 5 Click"  # the rulebook's hand at a game's start, 4 players
FIRST = ["Ana", "Bob", "Cyd", "Dee"]
SECOND = ["Dee", "Cyd", "Ana", "Bob"]  # everybody moves: Ana 1 -> 3, Bob 2 -> 4, ...


def new_game(table, players: list[str], abandon: bool = False) -> None:
    table.command({"type": "new_game", "version": table.version, "players": players,
                   "abandon": abandon}, Auth(control=True))


def test_four_phones_follow_their_players_into_the_next_game(live, open_page, screenshot):
    new_game(live.table, FIRST)
    errors = ("401 (UNAUTHORIZED)", "403 (FORBIDDEN)")
    phones = {name: open_page(f"/seat/{seat}?token={live.table.access.seat_token(seat)}",
                              size="phone", expected_errors=errors)
              for seat, name in enumerate(FIRST, start=1)}
    for seat, name in enumerate(FIRST, start=1):
        expect(phones[name].locator("#me-name")).to_have_text(f"{name} · seat {seat}")
    phones["Ana"].get_by_role("button", name="Play Bang!").click()  # Ana's hand: 2 Bang!
    expect(phones["Ana"].locator("#hand")).to_have_text("In hand: 2 Bang!, 5 Click")

    new_game(live.table, SECOND, abandon=True)
    for seat, name in enumerate(SECOND, start=1):
        page = phones[name]
        expect(page.locator("#me-name")).to_have_text(f"{name} · seat {seat}")
        assert page.url == f"{live.url}/seat/{seat}"
        expect(page.locator("#hand")).to_have_text(FRESH)  # Ana's Bang! is back too
    assert live.table.access.claimed == {1, 2, 3, 4}
    screenshot(phones["Ana"], "seat-phone-next-game")

    # Dee's card is down on her phone only: no other phone (one of them held seat 1 in
    # game 1) reads it, even reloaded or sent to the seats they held before.
    phones["Dee"].get_by_role("button", name="Play Click").click()
    expect(phones["Dee"].locator("#my-card")).to_have_text("Click is down")
    for old_seat, name in enumerate(FIRST, start=1):
        page = phones[name]
        page.goto(f"{live.url}/seat/{old_seat}")
        expect(page.locator("#me-name")).to_have_text(
            f"{name} · seat {SECOND.index(name) + 1}")
        if name != "Dee":
            text = page.locator("body").inner_text()
            assert "Click is down" not in text and "Dee" not in page.locator(
                "#me-name").inner_text()
            expect(page.locator("#my-card")).to_have_text("No card down")
