"""A phone speaks to its owner through a real round: "Your turn: …" on top, each button in
the second person under the step it belongs to, the power apart from the bullet cards, and
nothing the owner cannot do themselves."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from companion.referee.access import SENSED, who_taps
from companion.referee.commands import Auth
from companion.rules.phases import waiting


def tap_until(live, done) -> None:
    """Random legal taps from the tablet and the phones (aims preferred, nobody lying
    down, no power used) until `done(state)` holds."""
    rnd = random.Random(3)
    while not done(live.table.game.state):
        legal = [a.to_dict() for a in live.table.legal()]
        aims = [a for a in legal if a["type"] == "aim" and a.get("target")]
        calm = [a for a in legal if a["type"] != "take"
                and not (a["type"] == "hustle" and a.get("victim"))]
        stay = [a for a in calm if a["type"] != "courage" or not a["down"]]
        action = rnd.choice(aims or stay or legal)
        # (the sensors' steps entered by the Godfather's override: these tests are of words)
        live.table.command({"type": "action", "version": live.table.version,
                            "action": action, "override": action["type"] in SENSED},
                           who_taps(action, live.table.game.seat_of))


def groups(phone) -> dict[str, list[str]]:
    """The phone's buttons by the heading of the box they sit in."""
    out = {}
    for box in phone.locator("#choices .choice-group").all():
        out[box.locator("h2").inner_text()] = box.locator("button").all_inner_texts()
    return out


def test_a_phone_speaks_to_its_owner_through_a_round(live, open_page):
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": ["Ana", "Bob", "Cyd", "Dee"], "seed": 11,
                        "powers": {"Ana": "hustler"}}, Auth(control=True))
    ana = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone")
    turn = ana.locator("#my-turn")
    expect(turn).to_have_text("Your turn: you may draw a card from another player")
    expect(ana.locator('.choice-group[data-group="power"] button').first).to_be_visible()
    by_step = groups(ana)
    assert by_step["Your bullet card"] == ["Play Bang!", "Play Click"]
    assert "Draw a card from Bob, giving Click" in by_step["Your power"]
    assert "Do not draw a card" in by_step["Your power"]
    assert list(by_step) == ["Your bullet card", "Your power"]  # the step's box first

    tap_until(live, lambda s: s.phase == "holdup")
    expect(turn).to_have_text("Your turn: aim your gun")
    # Ana's gun and standee are read at the table: her phone says what they read
    # (a manual seat's aim buttons: test_sensored_phones.py)
    expect(ana.locator("#my-gun")).to_have_text("Your gun: lowered")
    expect(ana.locator("#my-standee")).to_have_text("Your standee: standing")
    expect(ana.locator('.choice-group[data-group="aim"] button')).to_have_count(0)
    assert "too slow" not in ana.locator("#choices").inner_text()

    tap_until(live, lambda s: s.phase == "split")
    taker = waiting(live.table.game.state).players[0]
    seat = live.table.game.seat_of[taker]
    phone = ana if seat == 1 else open_page(
        f"/seat/{seat}?token={live.table.access.seat_token(seat)}", size="phone")
    expect(phone.locator("#my-turn")).to_have_text("Your turn: take a share")
    shares = phone.locator('.choice-group[data-group="split"] button')
    expect(shares.first).to_be_visible()
    for label in shares.all_inner_texts():
        assert label.startswith("Take "), label
        assert taker not in label
    assert phone.locator("#choices h2").all_inner_texts()[0] == "The split"
    if seat != 1:
        expect(turn).to_be_hidden()  # not Ana's move
