"""The hub's slot interrupt (firmware/hub/hubhw.py) on the MicroPython unix port.

The PIO clock's two edges per slot are raised one by one here, as the state machine
would raise them, each with the heap locked as in a hard IRQ (so the handler is shown to
allocate nothing); the stand-in registers play which receivers see the lit badge.
"""

import json

from firmware_harness import FIRMWARE

CONFIG = json.loads((FIRMWARE / "config" / "hub.json").read_text())
SCHEDULE = [0, 1, 2, 3, 4, 5, 6, 7, 8]
# gun s sees badge s+1 (seat 8's badge: gun 1); in the dark slot gun 5 sees noise
IR = {str(s): 1 << (s % 8) for s in range(1, 9)} | {"0": 1 << 4}
DUTY = CONFIG["duty_u16"]


def test_slots_run_in_order_dark_slot_first_and_reach_the_hub_in_order(micropython):
    plan = [["slots", 18, 0], ["drain"]]
    [got] = micropython.ask(["slot_irq", CONFIG, SCHEDULE, IR, plan])
    assert got["played"] == [[s, DUTY, 0] if s else [0, 0, 0] for s in SCHEDULE * 2]
    rx = {0: 1 << 4} | {s: 1 << (s % 8) for s in range(1, 9)}
    assert got["drained"] == [[[s, rx[s]] for s in SCHEDULE * 2]]
    assert got["late"] == 0


def test_a_main_loop_behind_loses_no_slot_until_the_ring_is_full(micropython):
    plan = [["slots", 200, 0], ["drain"], ["slots", 300, 0], ["drain"]]
    [got] = micropython.ask(["slot_irq", CONFIG, SCHEDULE, IR, plan])
    first, second = got["drained"]
    assert [s for s, _ in first] == [SCHEDULE[k % 9] for k in range(200)]
    assert len(second) == 255 and got["late"] == 300 - 255  # 255 kept in order, 45 lost
    assert [s for s, _ in second] == [SCHEDULE[(200 + k) % 9] for k in range(255)]


def test_a_slot_started_late_is_counted(micropython):
    slot_us = CONFIG["slot_us"]
    plan = [["slots", 3, slot_us], ["slots", 2, slot_us + 2000], ["slots", 1, 0]]
    [got] = micropython.ask(["slot_irq", CONFIG, SCHEDULE, IR, plan])
    assert got["late"] == 2  # the two started 2 ms after their time; the on-time one is not


def test_the_pio_program_times_a_1000_us_burst_in_a_slot_of_the_asked_length(micropython):
    """The slot clock's program, stepped cycle by cycle (1 µs each at 1 MHz)."""
    lengths = [1500, 2000, 3333, 5000]
    [got] = micropython.ask(["pio_clock", lengths])
    for slot_us, flags in zip(lengths, got, strict=True):
        start = flags[0][0]  # (after the one-off pull of the count)
        assert [[c - start, f] for c, f in flags] == [[0, 0], [1000, 1], [slot_us, 0]], slot_us

