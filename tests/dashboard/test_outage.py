"""A broker outage in a real browser: the countdown is called off, never settled blind,
and every page says within a second what the referee cannot hear."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect
from stack import cards_down

from companion.referee.commands import Auth

GODFATHER = Auth(control=True)


@pytest.fixture
def mosquitto(private_mosquitto):
    """These tests stop and hang their broker: a broker of their own, not the session's,
    so that no other test's table loses its retained state or its connection."""
    return private_mosquitto


def command(live, **cmd) -> None:
    live.table.command({"version": live.table.version, **cmd}, GODFATHER)


def counting(live, open_page):
    """A 4-player game's hold-up with its countdown running, and the table view's banner
    of links (hidden: nothing is down)."""
    names = ["Ana", "Bob", "Cyd", "Dee"]
    command(live, type="new_game", players=names, powers="none")
    cards_down(live.table, names)
    banner = open_page("/").locator("#links")
    expect(banner).to_be_hidden()
    command(live, type="countdown")
    return banner


def test_the_broker_killed_during_a_countdown_voids_it_and_every_page_says_so(
        live, mosquitto, open_page):
    banner = counting(live, open_page)
    try:
        mosquitto.stop()
        lost = time.monotonic()
        expect(banner).to_be_visible(timeout=1500)
        shown_s = time.monotonic() - lost
        expect(banner).to_contain_text("The sensors' message broker is down")
        expect(banner).to_contain_text(
            "The sensors' message broker went down during the last countdown")
        state = live.table.public_state()
        assert state["stage"]["name"] == "idle" and "broker" in state["voided"]
        assert not any(p["aimed"] for p in state["players"])  # nobody "aimed at nobody"
        assert shown_s < 1.5
    finally:
        mosquitto.restart()
    expect(banner).not_to_contain_text("is down", timeout=10_000)
    command(live, type="countdown")  # offered again once the broker is back
    assert live.table.public_state()["voided"] is None


def test_a_hung_broker_is_on_every_page_within_a_second(live, mosquitto, open_page):
    """A broker that hangs keeps its connections open: MQTT's keep-alive would notice
    only after tens of seconds; the referee's own probe notices within a second."""
    banner = counting(live, open_page)
    try:
        mosquitto.freeze()
        hung = time.monotonic()
        expect(banner).to_be_visible(timeout=1500)
        shown_s = time.monotonic() - hung
        expect(banner).to_contain_text("The sensors' message broker is down")
        state = live.table.public_state()
        assert state["stage"]["name"] == "idle" and "not answering" in state["voided"]
        assert shown_s < 1.5
    finally:
        mosquitto.freeze(False)
    expect(banner).not_to_contain_text("is down", timeout=10_000)  # it answers again
    command(live, type="countdown")  # and the table carries on
    assert live.table.public_state()["voided"] is None
