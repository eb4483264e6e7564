"""The hub firmware on the MicroPython unix port, at a table simulated in 3-D, read by the
companion's own hub link and counted by the referee's own rule.

The 3-D model (companion/tablesim) plays people's hands, with their offsets, tremor and
sweeps, and says for every 2 ms which receivers see each badge's burst; the stand-in
`machine` plays that as the IR the firmware's slots sample. The companion side is the real
`HubLink` on the pty, as `companion sensors` runs it.
"""

from __future__ import annotations

import queue
import random
import time

import pytest
from firmware_harness import BoardOnPty

from companion.clock import MonotonicClock
from companion.referee.timing import Timing, Track, aim_snapshot
from companion.sensors.facts import CallbackSink, Fact
from companion.sensors.scheduler import Scheduler
from companion.sensors.serial_link import HubLink
from companion.sensors.settings import BoardSettings, Filters
from companion.tablesim.geometry import make_table
from companion.tablesim.hand import Hand
from companion.tablesim.model import TableModel

PINS = {"receivers": list(range(8)), "carrier": 8, "address": [9, 10, 11],
        "lock": [12, 13, 14], "inputs": [15, 16, 17], "i2c": [20, 21]}
STEP_MS = 2  # how finely the world is written: one slot
IMU_MS = 10  # how often the IMUs' readings change (the chip's 104 Hz)
GYRO_LSB, ACCEL_LSB = 0.0175, 0.000061  # °/s and g per count, as the firmware sets the chip
LENGTH_MS = 4600
WARM_MS = 1000  # the guns lie still this long first: the hub learns their gyros' bias


def world_of(model: TableModel, seats: list[int]) -> list[dict]:
    """The model's hands as the stand-in's world: IR per badge on change, each gun's IMU
    (raw counts) every IMU_MS; every standee stands."""
    world: list[dict] = [{"at_ms": 0, "inputs": 0}]
    last_ir = None
    for t in range(0, LENGTH_MS, STEP_MS):
        ir = {str(b): model.detect(float(t), b) for b in [0, *seats]}
        if ir != last_ir:
            world.append({"at_ms": t, "ir": ir})
            last_ir = ir
        if t % IMU_MS == 0:
            raw = {}
            for g in seats:
                reading = model.imu(g, float(t))
                raw[str(g)] = [round(v / GYRO_LSB) for v in reading[:3]] + [
                    round(v / ACCEL_LSB) for v in reading[3:]]
            world.append({"at_ms": t, "imu": raw})
    return world


def facts_from_the_hub(micropython, tmp_path, seats, world) -> dict[tuple[str, int], list[Fact]]:
    """Run the firmware with `world`, read it with the companion's HubLink until the world
    has played, and return the facts by (kind, seat)."""
    # every gun's IMU read on every pass: on this shared host the unix port's passes come
    # unevenly, and samples far apart overstate a gun's rate (its tremor times a long gap)
    config = {"id": "hub", "seats": seats, "pins": PINS, "imu_per_pass": len(seats)}
    end = time.monotonic() + LENGTH_MS / 1000 + 1.5  # the world played, and a little more
    hub = BoardOnPty(micropython, "hub", tmp_path, config, world)
    hub.hang_up()  # the companion's link opens the port instead of the test
    got: queue.Queue[Fact] = queue.Queue()
    scheduler = Scheduler(MonotonicClock())
    link = HubLink(BoardSettings(name="hub", port=hub.path), Filters(hold_ms=500),
                   CallbackSink(got.put), scheduler, scheduler.clock)
    link.start()
    facts: dict[tuple[str, int], list[Fact]] = {}
    try:
        while time.monotonic() < end:
            try:
                fact = got.get(timeout=0.1)
            except queue.Empty:
                continue
            facts.setdefault((fact.kind, fact.seat), []).append(fact)
        assert link.online and link.stat and link.stat["rounds"] > 100, link.stat
    finally:
        link.stop()
        stderr = hub.close()
    assert "Traceback" not in stderr, stderr
    return facts


def track(facts: list[Fact], initial: object = None) -> Track:
    out = Track(initial)
    for f in facts:
        out.add(f.t_ms, f.value)
    return out


@pytest.fixture
def round_table():
    model = TableModel(make_table("round", 1.2, 4), random.Random(7), hand=Hand(offset_deg=2.0))
    seats = [1, 2, 3, 4]  # every gun starts lowered
    model.intent(1, "hold", 3, at_ms=WARM_MS + 200)  # Ana holds Cyd from about 2 s on
    model.intent(2, "sweep", 3, 4, at_ms=WARM_MS + 900, speed_dps=60)  # Bob sweeps past
    model.intent(3, "hold", 1, at_ms=WARM_MS + 200)  # Cyd holds Ana, then lowers her gun
    model.intent(3, "lower", at_ms=WARM_MS + 2600)  # held still 0.5 s before that
    model.intent(4, "hold", 2, at_ms=WARM_MS + 200)
    return model, seats


def test_held_swept_and_lowered_aims_at_a_round_table(micropython, tmp_path, round_table):
    model, seats = round_table
    facts = facts_from_the_hub(micropython, tmp_path, seats, world_of(model, seats))
    aims = {g: [f.value for f in facts.get(("aim", g), [])] for g in seats}
    assert 3 in aims[1] and all(v in (3, None) for v in aims[1])  # held, and only Cyd
    assert not any(isinstance(v, int) for v in aims[2]), aims[2]  # a sweep never counts ...
    assert 1 in [f.value for f in facts[("lock", 2)]]  # ... though the gun saw each player
    assert 1 in aims[3] and 2 in aims[4]
    assert 1 in [f.value for f in facts[("lock", 1)]]  # Ana's lock LED lit steady
    held = next(f for f in facts[("aim", 1)] if f.value == 3)
    timing = Timing()
    three = held.t_ms + 1200  # Ana held Cyd from before "three": counted
    assert aim_snapshot(track(facts[("aim", 1)]), track(facts[("raised", 1)], False), three,
                        timing, {2, 3, 4}) == 3
    lowered = [f for f in facts[("raised", 3)] if f.value is False][-1]
    three = lowered.t_ms + 100  # Cyd's gun came down just before "three": too slow
    assert aim_snapshot(track(facts[("aim", 3)]), track(facts[("raised", 3)], False), three,
                        timing, {1, 2, 4}) is None


def test_a_gun_between_two_close_players_is_ambiguous_and_blinks(micropython, tmp_path):
    model = TableModel(make_table("rect", 1.6, "4+4"), random.Random(3), hand=Hand(offset_deg=1))
    seats = list(range(1, 9))
    model.intent(1, "between", 3, 4, at_ms=WARM_MS + 200)  # 3 and 4: 6 degrees apart from 1
    facts = facts_from_the_hub(micropython, tmp_path, seats, world_of(model, seats))
    assert (3, 4) in [f.value for f in facts[("aim", 1)]]
    assert 2 in [f.value for f in facts[("lock", 1)]]  # the lock LED blinks
