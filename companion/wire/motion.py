"""A gun's motion from its IMU: its elevation (raised or lowered) and whether it is still.

The hub reads each gun's 6-axis IMU (hardware/IMU.md) and feeds the samples here, in
physical units: gyro in °/s, accelerometer in g, in the gun's frame (x along the barrel,
y to its left, z up through its top). Pure, for the hub (MicroPython) and the companion.

- **Elevation** blends the gyro's pitch rate with the accelerometer's tilt (a
  complementary filter, `EL_MS`): a hand's acceleration while it moves fools the
  accelerometer for a moment, the gyro does not. A gun is lowered below `LOWER_DEG` and
  raised again above `RAISE_DEG`: a standing player aiming down at a seated neighbour
  points up to 40° down, 55° from the shoulder at a crowded 0.9 m table (the simulated
  tables' steepest aim, tests/tablesim); a gun let down points at the floor or a lap.
- **Stillness**: the pointing direction is integrated from the gyro (bias removed),
  smoothed over `SMOOTH_MS` (the 8 to 12 Hz tremor), and the gun's rate is how far that
  direction turned over the last `RATE_MS`, divided by it. A look counts toward an aim
  only while that rate is at most `STILL_DPS` (aimrule.still_look). On the simulated
  hands (tablesim.hand: drift 0.5° RMS at 0.1 to 0.5 Hz, tremor up to 0.14° RMS at 8 to
  12 Hz, gyro bias up to ±10 °/s) a held gun shows at most 2.6 °/s (4.7 with a tremor of
  0.3 to 0.5°, 4.7 with twice the drift) and a sweep at 10 °/s at least 7.3 °/s
  (docs/PERFORMANCE.md, "Stillness").
- **Gyro bias**: a MEMS gyro reads up to ±10 °/s at rest; the hub learns it: the mean of
  the first `LEARN` samples while the gun is lowered (on the table or in a lap) and not
  swung (within `BIAS_GATE_DPS` of the estimate: a bias and a tremor at most), then a
  slow average (`BIAS_MS`) of the samples taken while the gun is still or lowered, each
  of them within `BIAS_GATE_DPS` of the estimate too: the rate over `RATE_MS` lags a
  movement's first sample, which must not be learnt as a bias.
"""

import math

LOWER_DEG = -65.0  # lowered below this elevation (toward the floor or a lap),
RAISE_DEG = -55.0  # raised again above this one
STILL_DPS = 7.0  # a look counts toward an aim only while the gun turns slower than this
RATE_MS = 250  # the rate is the turn over this long
SMOOTH_MS = 40  # the direction is smoothed over this long first
EL_MS = 300  # the accelerometer corrects the gyro's elevation over this long
BIAS_MS = 8000  # the bias estimate's time constant once learnt
LEARN = 64  # samples of the first estimate (about a second)
BIAS_GATE_DPS = 30.0  # a first sample further than this from the estimate is a movement
RING = 32  # samples kept for the rate: RATE_MS at up to 128 samples a second
MAX_GAP_MS = 200  # a longer gap between samples restarts the rate
TICKS_MASK = (1 << 30) - 1  # board clocks wrap at 2**30 ms


def elevation(ax, ay, az):
    """Degrees above the horizon of the barrel, from the accelerometer at rest."""
    return math.degrees(math.atan2(ax, math.sqrt(ay * ay + az * az)))


class GunMotion:
    """One gun's elevation, raised state and rate, sample after sample."""

    def __init__(self, raised=False):
        self.raised = raised
        self.el = None  # degrees; None before the first sample
        self.rate = 0.0  # °/s, over the last RATE_MS
        self.samples = 0
        self._bias_y = 0.0  # °/s, about the gun's y (pitch) and z (yaw) axes
        self._bias_z = 0.0
        self._learnt = 0  # samples the bias was learnt from
        self._t = None
        self._yaw = 0.0  # the integrated direction, smoothed, degrees
        self._pitch = 0.0
        self._ring_t = [0] * RING
        self._ring_yaw = [0.0] * RING
        self._ring_pitch = [0.0] * RING
        self._n = 0  # samples in the ring
        self._head = 0  # where the next one goes

    def still(self):
        """Whether a look now may count toward an aim."""
        return self.rate <= STILL_DPS

    def lost(self, t_ms):
        """A read that failed; True when the gun now counts as lowered: an IMU silent for
        MAX_GAP_MS (a cable out) can neither raise a gun nor say it is still."""
        if self._t is not None and (t_ms - self._t) & TICKS_MASK < MAX_GAP_MS:
            return False
        changed = self.raised or self.el is not None
        self.raised, self.el, self.rate, self._n = False, None, 0.0, 0
        return changed

    def update(self, t_ms, gx, gy, gz, ax, ay, az):
        """One sample at board time `t_ms`; True when the gun was raised or lowered."""
        el_acc = elevation(ax, ay, az)
        dt = 0 if self._t is None else (t_ms - self._t) & TICKS_MASK
        self._t = t_ms
        self.samples += 1
        if self.el is None or dt > MAX_GAP_MS:
            self.el = el_acc
            self._n = 0
            dt = 0
        self._learn(gy, gz, dt)
        pitch_rate = -(gy - self._bias_y)  # +y points left: nose up turns about -y
        yaw_rate = gz - self._bias_z
        s = dt / 1000.0
        self.el += pitch_rate * s + (el_acc - self.el - pitch_rate * s) * min(1.0, dt / EL_MS)
        self._pitch += pitch_rate * s
        self._yaw += yaw_rate * s
        self._smooth(t_ms, min(1.0, dt / SMOOTH_MS))
        if (self.el < LOWER_DEG) if self.raised else (self.el > RAISE_DEG):
            self.raised = not self.raised
            return True
        return False

    def _learn(self, gy, gz, dt):
        """The mean of the first LEARN samples taken while lowered (tremor and drift
        average out); then a slow average (BIAS_MS) of those taken while the gun is still
        or lowered (a slow sweep teaches nothing). Every sample learnt is calm itself:
        the rate lags a movement's start by a sample or more, and one sample of a fast
        turn (a hand snapping to a target: hundreds of °/s, or a full-scale reading)
        taken while the rate still said "still" would move the bias by tens of °/s,
        after which the gun reads "moving" forever and no later sample is calm enough
        to correct it."""
        if abs(gy - self._bias_y) > BIAS_GATE_DPS or abs(gz - self._bias_z) > BIAS_GATE_DPS:
            return  # this sample turns: the rate (over RATE_MS, before it) may not show it yet
        if self._learnt < LEARN:
            if self.raised:
                return  # learnt while lowered and not swung: a bias and a tremor at most
            self._learnt += 1
            w = 1.0 / self._learnt
        elif self.rate <= STILL_DPS or not self.raised:
            w = min(1.0, dt / BIAS_MS)
        else:
            return
        self._bias_y += (gy - self._bias_y) * w
        self._bias_z += (gz - self._bias_z) * w

    def _smooth(self, t_ms, k):
        """Keep the smoothed direction in the ring; the rate over RATE_MS from it."""
        prev = (self._head - 1) % RING
        if not self._n:
            k = 1.0
        yaw = self._ring_yaw[prev] + (self._yaw - self._ring_yaw[prev]) * k
        pitch = self._ring_pitch[prev] + (self._pitch - self._ring_pitch[prev]) * k
        i = self._head
        self._ring_t[i], self._ring_yaw[i], self._ring_pitch[i] = t_ms, yaw, pitch
        self._head = (i + 1) % RING
        if self._n < RING:
            self._n += 1
        j, span = i, 0
        for _ in range(self._n - 1):
            j = (j - 1) % RING
            span = (t_ms - self._ring_t[j]) & TICKS_MASK
            if span >= RATE_MS:
                break
        if span < RATE_MS // 2:
            self.rate = 0.0  # too little history yet: nothing to tell a sweep by
            return
        dy, dp = yaw - self._ring_yaw[j], pitch - self._ring_pitch[j]
        self.rate = math.sqrt(dy * dy + dp * dp) * 1000.0 / span
