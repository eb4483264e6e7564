"""The end of a game on every screen: each phone says its player's place, total and the
rule that decided; the Godfather's Play tab shows the whole count; nothing of the last
step stays ("Stand it back up!")."""

from __future__ import annotations

from playwright.sync_api import expect
from stack import PIN
from test_languages_and_end import play_to_the_end, start

from companion.referee.commands import Auth
from companion.rules.scoring import scores

NAMES = ["Ana", "Bob", "Cyd", "Dee"]


def places(state) -> dict[str, int]:
    """Each player's place by the rules (R9, R15): winners first, then the living by total
    and wounds, then those out by total; equal players share a place."""
    totals = scores(state)
    order = sorted(state.players, reverse=True, key=lambda p: (
        p.name in state.winners, p.alive, totals[p.seat]["total"], p.wounds * p.alive))
    out: dict[str, int] = {}
    for i, p in enumerate(order):
        before = order[i - 1] if i else None
        same = before is not None and (before.name in state.winners, before.alive,
                                       totals[before.seat]["total"],
                                       before.wounds * before.alive) == (
            p.name in state.winners, p.alive, totals[p.seat]["total"], p.wounds * p.alive)
        out[p.name] = out[before.name] if same and before else i + 1
    return out


def test_every_phone_and_the_play_tab_show_the_result(live, open_page, screenshot):
    start(live)
    phones = {name: open_page(f"/seat/{seat}?token={live.table.access.seat_token(seat)}",
                              size="phone")
              for seat, name in enumerate(NAMES, start=1)}
    referee = open_page("/referee")
    referee.fill("#pin", PIN)
    referee.click("button[type=submit]")
    expect(referee.locator("body")).to_have_attribute("data-live", "yes")
    for name, page in phones.items():
        expect(page.locator("#me-name")).to_contain_text(name)
    play_to_the_end(live)
    s = live.table.game.state
    lying = next(p for p in s.players if p.alive)  # a standee left lying at the end
    live.table.command({"type": "override", "version": live.table.version,
                        "seat": live.table.game.seat_of[lying.name], "fact": "posture",
                        "value": "down"}, Auth(control=True))

    totals = scores(s)
    place = places(s)
    view = live.table.public_state()
    rule = {"final.last_standing": "The last one standing wins.",
            "final.richest": "The richest player still alive wins."}.get(
        view["result"]["tiebreak"]["key"])
    for p in s.players:
        page = phones[p.name]
        total = f"${totals[p.seat]['total']:,}"
        if p.name in s.winners:
            said = (f"You win, with {total}!" if len(s.winners) == 1
                    else f"You share the win, with {total}!")
        elif p.alive:
            said = f"Place {place[p.name]} of 4, with {total}."
        else:
            said = (f"Out of the game: place {place[p.name]} of 4, with {total} (only those "
                    "still in can win).")
        expect(page.locator("#my-rank")).to_have_text(said)
        expect(page.locator("#my-winners")).to_contain_text(" ".join(s.winners[:1]))
        if rule:
            expect(page.locator("#my-rule")).to_have_text(rule)
        for stale in ("#my-turn", "#my-sensors", "#my-override"):
            expect(page.locator(stale)).to_be_hidden()
        assert "Stand it back up!" not in page.locator("body").inner_text()
    screenshot(phones[s.winners[0]] if s.winners else phones["Ana"], "seat-phone-result")

    final = referee.locator("#tab-play .final")
    expect(final).to_be_visible()
    expect(final.locator("table.scores tbody tr")).to_have_count(4)
    for p in s.players:
        expect(final.locator("table.scores tbody tr").filter(has_text=p.name).locator(
            "td").last).to_have_text(f"${totals[p.seat]['total']:,}")
    lying_seat = referee.locator(f'#felt .seat[data-seat="{live.table.game.seat_of[lying.name]}"]')
    expect(lying_seat).to_have_attribute("data-posture", "down")
    expect(referee.locator("#tab-play")).not_to_contain_text("Stand it back up!")
    screenshot(referee, "referee-play-result")
