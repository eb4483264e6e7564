"""Stepping into the demo: a visitor takes a seat over from its bot on the virtual table,
plays it from the phone page while the bots play the others, and hands it back."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect
from stack import PIN
from waiting import wait_for

from companion.bots.live_port import LivePort
from companion.bots.stand_ins import StandIns
from companion.bots.table_bot import TableBot
from companion.runner import Running

STYLES = {1: "cautious", 2: "aggressive", 3: "greedy", 4: "vengeful"}


@pytest.fixture
def demo(live: Running) -> Iterator[tuple[Running, threading.Event]]:
    """The demo's bots on the live table: a style per seat, at a quick pace. They start
    playing when the test sets the event, so the visitor's seat is taken before its bot
    can have played all of round 1 on a fast machine (or a slow browser)."""
    table, stop, go = live.table, threading.Event(), threading.Event()
    table.stand_ins = dict(STYLES)
    bot = TableBot(LivePort(table, table.simulator, stop, 0.05), random.Random(5),
                   too_slow=0, players=StandIns(table, STYLES, 5))
    bot.new_game(["Ana", "Bob", "Cyd", "Dee"], powers="none", seed=5)

    def play() -> None:
        go.wait(60)
        while not stop.is_set() and table.game and table.game.state.phase != "over":
            try:
                bot.step(bot.port.control())
            except Exception:  # a person moved first: look again
                stop.wait(0.05)

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    yield live, go
    stop.set()
    thread.join(10)


def test_a_visitor_takes_a_bots_seat_plays_it_and_hands_it_back(demo, open_page, screenshot):
    running, bots_play = demo
    table = running.table
    view = open_page("/")
    seat1 = view.locator('.seat[data-seat="1"]')
    expect(seat1.locator(".badge.bot")).to_have_text("Bot: cautious")
    expect(view.locator('.seat[data-seat="4"] .badge.bot')).to_have_text("Bot: vengeful")

    sim = open_page("/sim")
    sim.fill("#pin", PIN)
    sim.click("button[type=submit]")
    panel = sim.locator('.gun[data-gun="1"]')
    expect(panel).to_contain_text("Bot: cautious")
    with sim.expect_popup() as popup:
        panel.get_by_role("link", name="Take this seat").click()
    phone = popup.value
    expect(phone.locator("#me-name")).to_have_text("Ana · seat 1")
    hand_back = phone.get_by_role("button", name="Hand this seat back to the bot (cautious)")
    expect(hand_back).to_be_visible()
    expect(seat1.locator(".badge.bot")).to_have_count(0)  # a person plays it now
    bots_play.set()

    # The bots play the others; Ana's card waits for the person holding her seat.
    expect(phone.get_by_role("button", name="Play Click")).to_be_visible(timeout=30_000)
    expect(view.locator("#banner")).to_contain_text("Ana", timeout=30_000)
    assert table.game is not None
    ana = table.game.state.players[table.game.state.index["Ana"]]
    assert ana.card is None
    phone.get_by_role("button", name="Play Click").click()
    expect(phone.locator("#my-card")).to_have_text("Click is down")

    # The hold-up waits for Ana's gun, raised and aimed on the virtual table; "three"
    # counts it as her aim at Bob.
    counted = threading.Event()

    def look(_revision: int) -> None:
        s = table.game.state if table.game else None
        if s and s.players[s.index["Ana"]].target == s.index["Bob"]:
            counted.set()

    table.subscribe(look)
    wait_for(lambda: table.game.state.phase == "holdup", 30, "the hold-up")
    panel.locator('[data-sim="aim 1 2"]').click()
    panel.locator('[data-sim="raise 1"]').click()
    assert counted.wait(30), "Ana's aim at Bob was never counted"
    screenshot(view, "demo-seat-taken")

    hand_back.click()
    expect(phone.locator("#phone")).to_contain_text("The bot (cautious) plays this seat again")
    expect(seat1.locator(".badge.bot")).to_have_text("Bot: cautious")
    round_now = table.game.state.round  # the bot plays Ana again: the game goes on
    expect(view.locator("#round")).not_to_have_text(f"Round {round_now} of 8", timeout=90_000)
