"""Held aims and sweeps on the simulated table, through the hub's own core and aim rule.

The 3-D table (companion/tablesim) plays the hands and their IMUs; `companion.wire.hubcore`
gets each gun's IMU sample and each slot's receivers as the firmware hands them over, and
decides the aims and the lock LEDs by `aimrule` and `motion`. The same looks run through
an aim tracker that ignores the IMU show what the IMU adds.
"""

from __future__ import annotations

import random

import pytest

from companion.tablesim import TableModel, make_table
from companion.tablesim.hand import Hand
from companion.wire import aimrule, linecodec
from companion.wire.hubcore import Hub

SLOT_MS = 2


class Played:
    """A table played through a hub core: each gun's aim changes and lock states."""

    def __init__(self, model: TableModel, reflect: float = 0.0):
        self.model, self.seats = model, model.seats
        self.hub = Hub("sim", self.seats, SLOT_MS * 1000, 500, 30, (1 << 8) - 1)
        self.reflect = reflect  # the chance a gun catches its own badge in its slot
        self.blind = {g: aimrule.AimTracker(self.hub.trackers[g].window) for g in self.seats}
        self.held: dict[int, set[int]] = {g: set() for g in self.seats}  # what the hub held
        self.held_blind: dict[int, set[int]] = {g: set() for g in self.seats}
        self.locks: dict[int, list[int]] = {g: [] for g in self.seats}  # per round
        self.t = 0.0

    def run(self, until: float) -> None:
        hub, model = self.hub, self.model
        while self.t < until:
            for g in self.seats:
                hub.imu(int(self.t), g, model.imu(g, self.t))
            looks = dict.fromkeys(self.seats, 0)
            for k, seat in enumerate(hub.schedule()):
                t = self.t + k * SLOT_MS
                rx = model.detect(t + SLOT_MS / 2, seat)
                if seat and model.rng.random() < self.reflect:
                    rx |= 1 << (seat - 1)  # its own badge, off the holder's sleeve
                for g in self.seats:
                    if seat and rx >> (g - 1) & 1 and g != seat:
                        looks[g] |= 1 << (seat - 1)
                hub.slot(int(t + SLOT_MS), seat, rx)
            self.t += SLOT_MS * len(hub.schedule())
            for g in self.seats:
                tracker = hub.trackers[g]
                if tracker.state == aimrule.HELD:
                    self.held[g].add(tracker.value)
                change = self.blind[g].look(self.t, looks[g])
                if change and change[0] == aimrule.HELD:
                    self.held_blind[g].add(change[1])
                self.locks[g].append(hub.locks[g])
                model.feedback(g, hub.locks[g])

    def guns(self) -> list[tuple[int, bool]]:
        """(seat, raised) of every GUN line the hub sent."""
        out = []
        for line in self.hub.out:
            m = linecodec.parse(line)
            if m.type == "GUN":
                out.append((m.seat, bool(m.value)))
        return out


def table(seed: int, seats: int = 8, **kw) -> TableModel:
    return TableModel(make_table("round", 1.2, seats, **kw), random.Random(seed),
                      hand=Hand(offset_deg=2.0))


@pytest.mark.parametrize("speed", [10.0, 20.0, 30.0])
def test_a_slow_sweep_is_never_counted_though_the_looks_alone_would_count_it(speed):
    counted_without_imu = 0
    for seed in range(6):
        model = table(seed)
        played = Played(model)
        played.run(1500)  # every gun down: the hub learns their gyros' bias
        start = len(played.locks[1])
        model.intent(1, "sweep", 4, 6, at_ms=played.t + 200, speed_dps=speed)
        played.run(played.t + 200 + 60 / speed * 1000 + 600)
        assert played.held[1] == set(), (seed, played.held[1])  # never held ...
        lit = played.locks[1][start:]
        assert lit.count(1) <= 0.02 * len(lit)  # ... and the lock LED dark, but a flicker
        counted_without_imu += bool(played.held_blind[1])
    assert counted_without_imu >= 3  # the looks alone hold a slow sweep: the IMU is what tells


def test_a_gun_held_still_on_one_target_is_counted_and_locks_steady():
    for seed in range(4):
        model = table(seed)
        played = Played(model)
        played.run(1500)
        model.intent(1, "hold", 5, at_ms=played.t)
        played.run(played.t + 2500)
        assert played.held[1] == {5} and 1 in played.locks[1] and 2 not in played.locks[1]


def test_a_standing_player_aiming_down_at_a_seated_neighbour_is_counted():
    """Even seats stand: seat 2 aims at seated seat 3, its neighbour, well below the old
    tilt switch's -30° (from the shoulder at a 0.9 m table of 8: -55°)."""
    for grip, size in (("held out", 1.2), ("from the shoulder", 0.9)):
        model = TableModel(make_table("round", size, 8, grip=grip, stance="mixed"),
                           random.Random(3), hand=Hand(offset_deg=2.0))
        assert model.bearing(2, 3)[1] < -30
        played = Played(model)
        played.run(1500)
        model.intent(2, "hold", 3, at_ms=played.t)
        played.run(played.t + 2500)
        assert played.held[2] == {3}
        assert (2, True) in played.guns() and played.hub.guns[2].raised  # never lowered


def test_a_lowered_gun_is_reported_down_and_counts_nothing():
    model = table(5)
    played = Played(model)
    played.run(1500)
    model.intent(1, "hold", 5, at_ms=played.t)
    played.run(played.t + 2000)
    model.lower(1)
    played.run(played.t + 1500)
    assert [g for g in played.guns() if g[0] == 1][-2:] == [(1, True), (1, False)]
    assert played.hub.trackers[1].state == aimrule.NONE


def test_the_own_seat_never_blinks_the_lock_led():
    """Each gun catches its own badge in a third of its slots (a sleeve, the cards): its
    lock LED stays steady on its one target, never blinking for two."""
    model = table(2)
    played = Played(model, reflect=0.3)
    played.run(1500)
    for g, target in ((1, 5), (3, 7), (6, 2)):
        model.intent(g, "hold", target, at_ms=played.t)
    played.run(played.t + 2500)
    for g, target in ((1, 5), (3, 7), (6, 2)):
        assert played.held[g] == {target} and 2 not in played.locks[g], g
