"""Four phones over two games with the same names in new seats: each phone follows its
player without a new scan, and never shows another player's hand."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.request

from playwright.sync_api import expect
from waiting import wait_for

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


def frames(url: str, path: str, claim: str, out: list[dict], ended: threading.Event) -> None:
    """Every snapshot a phone's stream delivers, until the server ends it."""
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request("GET", path, headers={"X-Seat-Claim": claim})
    response = conn.getresponse()
    assert response.status == 200
    while line := response.fp.readline():
        if line.startswith(b"data: "):
            out.append(json.loads(line[6:]))
    ended.set()
    conn.close()


def claim(url: str, seat: int, token: str) -> str:
    request = urllib.request.Request(f"{url}/api/claim", method="POST", data=json.dumps(
        {"seat": seat, "token": token}).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as r:
        return json.load(r)["claim"]


def test_a_phones_stream_never_carries_the_next_player_at_its_old_seat(live):
    """Every byte Ana's stream of game 1 (seat 1) delivers is Ana's: when game 2 seats Dee
    there, the stream ends before any of Dee's view; Ana's phone then reads seat 3."""
    new_game(live.table, FIRST)
    ana = claim(live.url, 1, live.table.access.seat_token(1))
    seen: list[dict] = []
    ended = threading.Event()
    reader = threading.Thread(target=frames, args=(live.url, "/api/events?seat=1", ana, seen,
                                                   ended), daemon=True)
    reader.start()
    wait_for(lambda: seen, 10, "the first snapshot")
    new_game(live.table, SECOND, abandon=True)
    assert ended.wait(10), "the old seat's stream was not ended"
    assert {s["me"]["player"] for s in seen} == {"Ana"}
    assert {s["game"] for s in seen} == {seen[0]["game"]}  # game 1's views only
    request = urllib.request.Request(f"{live.url}/api/seat/3", headers={"X-Seat-Claim": ana})
    with urllib.request.urlopen(request) as r:
        assert json.load(r)["me"]["player"] == "Ana"
