"""The gyro bias the hub learns survives a hand that snaps from one target to another.

A gun held still reads "still" (its rate over the last 250 ms is low) until the samples
of a new movement have turned it: the first sample of a fast turn comes while the rate
still says "still". Learnt as a bias, one such sample (an exact hand snapping 124° in a
millisecond reads over 100,000 °/s) moved the estimate by about 100 °/s, and the gun
then read "moving" for good: raised, never locked. The expectation is the rules':
a gun held still after its turn reads still again, its bias close to the chip's.
"""

from __future__ import annotations

import random

from companion.tablesim.hand import Hand, Move, Pointing, imu
from companion.wire.motion import STILL_DPS, GunMotion

EXACT = Hand(offset_deg=0.0, drift_deg=0.0, tremor_deg=(0.0, 0.0), roll_deg=0.0,
             boresight_deg=0.0, acquire_ms=(0.0, 0.0))  # points exactly and at once
BIAS = (-6.2, -6.3)  # °/s about y and z: within the chip's ±10
PERIOD_MS = 7.5  # a sample per round of a 4-seat table


def play(gun: GunMotion, pointing: Pointing, t0: float, t1: float) -> float:
    t = t0
    while t < t1:
        gun.update(round(t), *imu(pointing, t, BIAS, still=pointing.resting(t)))
        t += PERIOD_MS
    return t


def test_a_gun_snapped_between_targets_reads_still_once_held() -> None:
    pointing = Pointing(EXACT, random.Random(1), (0.0, -80.0))
    gun = GunMotion()
    t = play(gun, pointing, 0.0, 2000.0)  # lowered on the table: the bias is learnt
    pointing.add(Move(t, t, 0.0, -80.0, 62.0, -3.2))  # raised onto a target at once
    t = play(gun, pointing, t, t + 2000.0)
    assert gun.raised and gun.still()
    for target in (-62.0, 62.0, -62.0):  # snapped to the other side, and back
        pointing.add(Move(t, t, -target, -3.2, target, -3.2))
        t = play(gun, pointing, t, t + 1000.0)
        assert gun.raised and gun.el is not None and abs(gun.el + 3.2) < 1.0
        assert gun.rate <= STILL_DPS, f"held at {target}° for 1 s, the gun reads {gun.rate:.0f} °/s"
