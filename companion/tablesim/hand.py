"""A human hand pointing a foam gun: where it points at each instant.

Angles in degrees in the gun's frame: azimuth from the holder's facing (positive to the
left) and elevation. The pointing is a piecewise trajectory of moves (minimum-jerk
reaches, constant-speed sweeps) plus the aim's constant offset, slow drift and tremor;
the receiver's axis differs from the sight line by the printed tube's boresight error,
turned by the gun's roll. `imu` is what the gun's IMU reads of that motion.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from companion.wire.motion import LOWER_DEG

LOWERED_EL = -80.0  # a gun let down toward the floor or a lap
GYRO_BIAS_DPS = 10.0  # an IMU's gyro reads up to this at rest (LSM6DS3TR-C zero-rate level)
DIFF_MS = 0.5  # the hand's rates by central differences over twice this


@dataclass(frozen=True)
class Hand:
    """How people point (see issue 18 for the sources of each figure)."""

    offset_deg: float = 3.0  # RMS of the per-aim constant offset
    offset_law: str = "rayleigh"  # uniform direction, Rayleigh magnitude; or "fixed" magnitude
    drift_deg: float = 0.5  # RMS of the slow wander during a hold (0.1 to 0.5 Hz)
    tremor_deg: tuple[float, float] = (0.03, 0.14)  # per-aim RMS range, 8 to 12 Hz
    roll_deg: float = 20.0  # RMS of the gun's roll about its axis, per aim
    boresight_deg: float = 0.5  # largest misalignment of a printed aperture tube
    acquire_ms: tuple[float, float] = (600.0, 1000.0)  # a reach of 0 and of 90 degrees
    reaction_ms: float = 250.0  # from the lock LED's state to a correction starting
    correct_ms: float = 300.0  # one corrective movement
    closed_loop_deg: float = 1.0  # RMS offset left after a correction

    def reach_ms(self, amplitude_deg: float) -> float:
        """Duration of an acquisition movement of this amplitude (Fitts-like)."""
        lo, hi = self.acquire_ms
        return lo + (hi - lo) * min(1.0, abs(amplitude_deg) / 90.0)

    def draw_offset(self, rng: random.Random, rms: float) -> tuple[float, float]:
        """A constant aim offset (az, el) of RMS magnitude `rms`, in a uniform direction."""
        angle = rng.uniform(0, 2 * math.pi)
        # Rayleigh with E[r^2] = rms^2, or a fixed magnitude
        size = (rms if self.offset_law == "fixed"
                else rms * math.sqrt(-math.log(1.0 - rng.random())))
        return size * math.cos(angle), size * math.sin(angle)


def min_jerk(s: float) -> float:
    """Share of the way covered at share `s` of the time by a minimum-jerk reach."""
    return s * s * s * (10 - 15 * s + 6 * s * s)


FORGET_AFTER = 32  # moves a hand keeps behind the one in force


@dataclass(frozen=True)
class Move:
    """From (az0, el0) at t0 to (az1, el1) at t1; after t1 the hand stays at the end."""

    t0: float
    t1: float
    az0: float
    el0: float
    az1: float
    el1: float
    linear: bool = False  # a sweep at constant speed instead of a reach

    def at(self, t: float) -> tuple[float, float]:
        if t >= self.t1:
            return self.az1, self.el1
        if t <= self.t0:
            return self.az0, self.el0
        s = (t - self.t0) / (self.t1 - self.t0)
        if not self.linear:
            s = min_jerk(s)
        return self.az0 + (self.az1 - self.az0) * s, self.el0 + (self.el1 - self.el0) * s


class Pointing:
    """One gun's hand: its moves, wander and tremor. `at(t)` is the receiver's axis."""

    def __init__(self, hand: Hand, rng: random.Random, start: tuple[float, float]):
        self.hand = hand
        self.moves = [Move(-1e12, -1e12, *start, *start)]
        self._i = 0
        self._axis_of: Move | None = None  # base_axis's last resting move, and its axis
        self._axis = (1.0, 0.0, 0.0)
        tau = 2 * math.pi / 1000.0  # per millisecond
        rms = hand.drift_deg / math.sqrt(2)  # per axis; two sines of amplitude a: RMS a
        self.drift = [(rms, tau * rng.uniform(0.1, 0.5), rng.uniform(0, 2 * math.pi))
                      for _ in range(4)]
        self.boresight = (hand.boresight_deg * math.sqrt(rng.random()),
                          rng.uniform(0, 2 * math.pi))
        self.aim_shakes(rng)

    def aim_shakes(self, rng: random.Random, tremor_deg: tuple[float, float] | None = None
                   ) -> None:
        """A new aim: new tremor (`tremor_deg`: a shaky hand's instead of the usual), new
        roll (which turns the boresight error)."""
        lo, hi = tremor_deg or self.hand.tremor_deg
        amp = rng.uniform(lo, hi) * math.sqrt(2)
        tau = 2 * math.pi / 1000.0
        self.tremor = [(amp, tau * rng.uniform(8, 12), rng.uniform(0, 2 * math.pi))
                       for _ in range(2)]
        size, angle = self.boresight
        angle += math.radians(rng.gauss(0, self.hand.roll_deg))
        self.squint = (size * math.cos(angle), size * math.sin(angle))
        self.wander_deg = (sum(abs(a) for a, _, _ in self.drift) + abs(self.tremor[0][0])
                           + abs(self.tremor[1][0]) + abs(self.squint[0]) + abs(self.squint[1]))

    def _move(self, t: float) -> Move:
        moves, i = self.moves, self._i
        move = moves[i]
        if move.t0 <= t and (i + 1 == len(moves) or t < moves[i + 1].t0):
            return move  # the move in force still is (most asks: the bench's slots)
        if t < move.t0:
            i = 0
        while i + 1 < len(moves) and moves[i + 1].t0 <= t:
            i += 1
        if i >= FORGET_AFTER:  # the table asks where the gun points now: an evening of
            del moves[:i]  # aims must not pile up (a time before the oldest kept move
            i = 0  # is then answered with that move's start)
        self._i = i
        return moves[i]

    def resting(self, t: float) -> bool:
        """Whether the gun lies put down at t: its move in force is over and left it
        lowered (a later move may be planned)."""
        move = self._move(t)
        return t >= move.t1 and lowered(move.el1)

    def base(self, t: float) -> tuple[float, float]:
        """Where the hand means the gun to point (no wander), at time t."""
        return self._move(t).at(t)

    def base_axis(self, t: float) -> tuple[float, float, float]:
        """`base` as a unit vector (forward, left, up). `at` lies within `wander_deg` of
        it (drift, tremor and squint added in azimuth and elevation: at most their sum),
        so the table can skip a badge far from it without drawing the wander; kept while
        the hand rests at the end of a move (a hold: most of the slots)."""
        move = self._move(t)
        if self._axis_of is move and t >= move.t1:
            return self._axis
        az, el = move.at(t)
        az, el = math.radians(az), math.radians(el)
        ce = math.cos(el)
        axis = (ce * math.cos(az), ce * math.sin(az), math.sin(el))
        if t >= move.t1:
            self._axis_of, self._axis = move, axis
        return axis

    def add(self, move: Move) -> None:
        """Start `move` at its t0, dropping whatever was planned after."""
        self.moves = [m for m in self.moves if m.t0 < move.t0] + [move]
        self._i = 0

    def correct(self, move: Move) -> None:
        """Insert a correction at its t0, keeping what was planned after: each later move
        then starts from wherever the corrected hand is."""
        later = [m for m in self.moves if m.t0 >= move.t0]
        self.add(move)
        for m in later:
            az0, el0 = self.base(m.t0)
            self.moves.append(replace(m, az0=az0, el0=el0))
            self._i = 0

    def at(self, t: float) -> tuple[float, float]:
        moves, i = self.moves, self._i
        move = moves[i]
        if not (move.t0 <= t and (i + 1 == len(moves) or t < moves[i + 1].t0)):
            move = self._move(t)  # not the move in force at the last ask
        az, el = move.at(t)
        (a1, w1, p1), (a2, w2, p2), (a3, w3, p3), (a4, w4, p4) = self.drift
        (t1, v1, q1), (t2, v2, q2) = self.tremor
        az += (a1 * math.sin(w1 * t + p1) + a2 * math.sin(w2 * t + p2)
               + t1 * math.sin(v1 * t + q1) + self.squint[0])
        el += (a3 * math.sin(w3 * t + p3) + a4 * math.sin(w4 * t + p4)
               + t2 * math.sin(v2 * t + q2) + self.squint[1])
        return az, el


def imu(pointing: Pointing, t: float, bias: tuple[float, float], still: bool = False
        ) -> tuple[float, ...]:
    """What the gun's IMU reads at t: gyro (°/s) and accelerometer (g) in the gun's frame
    (x along the barrel, y to its left, z up), the gyro off by its zero-rate `bias` (about
    y and z); `still`: the gun lies put down, no hand moves it. The hand's own
    acceleration (under 0.1 g in a held aim) is left out."""
    if still:
        el = math.radians(pointing.base(t)[1])
        return (0.0, bias[0], bias[1], math.sin(el), 0.0, math.cos(el))
    az0, el0 = pointing.at(t - DIFF_MS)
    az1, el1 = pointing.at(t + DIFF_MS)
    az_rate = (az1 - az0) * 1000.0 / (2 * DIFF_MS)
    el_rate = (el1 - el0) * 1000.0 / (2 * DIFF_MS)
    el = math.radians((el0 + el1) / 2)
    return (az_rate * math.sin(el), -el_rate + bias[0], az_rate * math.cos(el) + bias[1],
            math.sin(el), 0.0, math.cos(el))


def lowered(el_deg: float) -> bool:
    """Below the elevation at which the hub calls a gun lowered."""
    return el_deg < LOWER_DEG
