"""The aimer's lock LED on /sim, on a rectangle seated 4 + 4, where a gun at one end of a
long side sees the two players farthest along it 6° apart: pointed between them, it sees
both (neighbours 20° apart are not both seen: the aperture cuts off at 10°)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion import config
from companion.referee.commands import Auth
from companion.runner import Running, start_table

PIN = "2468"
NAMES = ("Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal")
_tables = itertools.count(1)


def rect_config(tmp: Path, mqtt_url: str) -> config.Config:
    return config.parse(f"""
table: lock{next(_tables)}
mqtt: {{url: '{mqtt_url}'}}
sensors:
  filters: {{debounce_ms: 10, hold_ms: 100}}
  sim:
    guns: [1, 2, 3, 4, 5, 6, 7, 8]
    table: {{shape: rect, size_m: 1.6, seating: "4+4"}}
    hand: {{ideal: true}}
    slot_us: 1500
    link_dir: {tmp / "links"}
referee:
  pin: "{PIN}"
dashboard: {{host: 127.0.0.1, port: 0}}
""", "sim-lock-test.yaml")


@pytest.fixture
def live(tmp_path, mosquitto) -> Iterator[Running]:
    """The dashboard fixtures' table, on the rectangle (open_page opens its pages)."""
    table = start_table(rect_config(tmp_path, mosquitto.url), str(tmp_path / "j.sqlite3"))
    try:
        yield table
    finally:
        table.stop()


def test_the_lock_led_is_steady_on_one_blinks_on_two_and_is_off_when_lowered(
        live, open_page, screenshot):
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": list(NAMES), "powers": "none",
                        "confirm_seating": True}, Auth(control=True))  # 4+4: warned
    sim = open_page("/sim")
    sim.fill("#pin", PIN)
    sim.click("button[type=submit]")
    led = sim.locator('.gun[data-gun="1"] .lock-led')
    expect(led).to_have_attribute("data-lock", "0")
    expect(led).to_have_attribute("aria-label", "Lock: off: no target")

    sim.click('.felt .seat[data-seat="1"]')  # aim: gun 1 holds Bob
    sim.click('.felt .seat[data-seat="2"]')
    expect(led).to_have_attribute("data-lock", "1")
    expect(sim.locator('.gun[data-gun="1"] .lock')).to_contain_text("steady: one target")

    sim.check('#sim-mode input[value="between"]')  # between Cyd and Dee: both seen
    sim.click('.felt .seat[data-seat="1"]')
    expect(sim.locator("#notice")).to_have_text("Gun 1: now click the first seat.")
    sim.click('.felt .seat[data-seat="3"]')
    expect(sim.locator("#notice")).to_have_text("Gun 1: now click the second seat.")
    sim.click('.felt .seat[data-seat="4"]')
    expect(led).to_have_attribute("data-lock", "2")
    expect(sim.locator('.gun[data-gun="1"] .lock')).to_contain_text("blinking: two or more")
    assert led.evaluate("e => getComputedStyle(e).animationName") == "lock-blink"
    screenshot(sim, "sim-lock-blink")

    sim.click('.gun[data-gun="1"] [data-sim="lower 1"]')
    expect(led).to_have_attribute("data-lock", "0")

    sim.check('#sim-mode input[value="sweep"]')  # a sweep is one more simulator command
    sim.fill("#sweep-speed", "90")
    sim.click('.felt .seat[data-seat="4"]')
    sim.click('.felt .seat[data-seat="1"]')
    with sim.expect_request("**/api/sim") as sent:
        sim.click('.felt .seat[data-seat="3"]')
    assert sent.value.post_data_json == {"command": "sweep 4 1 3 90"}
    assert sent.value.response().status == 200


def test_before_a_game_the_leds_come_from_the_hub(live, open_page):
    sim = open_page("/sim")
    sim.fill("#pin", PIN)
    sim.click("button[type=submit]")
    led = sim.locator('.gun[data-gun="5"] .lock-led')
    expect(led).to_have_attribute("data-lock", "0")
    live.table.simulator.aim(5, 2)
    expect(led).to_have_attribute("data-lock", "1")
