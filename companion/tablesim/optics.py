"""Light from a worn badge to a gun's receiver: the static part, computed once per table.

A badge carries `leds` IR LEDs fanned horizontally about its facing, each a cos^m lobe.
The gun's TSOP sits behind a printed tube: fully lit up to `acceptance - penumbra` off its
axis, dark past `acceptance + penumbra`, partly shadowed between. It reports a burst when
the irradiance it receives beats its threshold; threshold and AGC vary burst to burst
(`sigma`, log-normal). The table top mirrors each badge weakly (Fresnel at grazing
incidence, halved for a wooden or clothed top); bodies (elliptic torsos) block lines of
sight. Ambient light makes the receiver fire on its own now and then, in dark slots too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.tablesim.geometry import TORSO_HALF_DEPTH_M, TORSO_HALF_WIDTH_M, Place, Table


@dataclass(frozen=True)
class Optics:
    """Emitters, receivers and the room. Defaults: the v2 hardware (see hardware/IR.md)."""

    acceptance_deg: float = 10.0  # aperture half-angle: half the detector shadowed
    penumbra_deg: float = 1.0  # from fully lit (a - p) to dark (a + p)
    leds: int = 3
    led_spread_deg: float = 50.0  # side LEDs' axes this far either side of the facing
    led_half_deg: float = 25.0  # half-intensity angle of one LED (TSAL6400)
    led_mw_sr: float = 20.0  # radiant intensity of one LED on axis during a burst
    threshold_mw_m2: float = 0.25  # TSOP38238 minimum irradiance (datasheet maximum)
    sigma: float = 0.25  # burst-to-burst spread of threshold and AGC, log units
    table_reflectance: float = 0.5  # share of the Fresnel reflection a real top keeps
    ambient: float = 1e-5  # chance a receiver fires on its own in one slot

    @property
    def lobe_m(self) -> float:
        """The exponent of a cos^m lobe with this half-intensity angle."""
        return math.log(0.5) / math.log(math.cos(math.radians(self.led_half_deg)))

    def intensity(self, facing: tuple[float, float], w: tuple[float, float, float]) -> float:
        """mW/sr a badge facing `facing` sends along the unit vector `w`."""
        m = self.lobe_m
        total = 0.0
        for k in range(self.leds):
            turn = math.radians(self.led_spread_deg * (k - (self.leds - 1) / 2))
            ax = facing[0] * math.cos(turn) - facing[1] * math.sin(turn)
            ay = facing[0] * math.sin(turn) + facing[1] * math.cos(turn)
            c = ax * w[0] + ay * w[1]
            if c > 0:
                total += c ** m
        return self.led_mw_sr * total

    def lit(self, off_axis_deg: float) -> float:
        """Share of the detector the aperture leaves lit at this angle off its axis."""
        low = self.acceptance_deg - self.penumbra_deg
        if off_axis_deg <= low:
            return 1.0
        if off_axis_deg >= self.acceptance_deg + self.penumbra_deg:
            return 0.0
        return 0.5 * (1 + math.cos(math.pi * (off_axis_deg - low) / (2 * self.penumbra_deg)))

    def probability(self, off_axis_deg: float, irradiance: float) -> float:
        """Chance the receiver reports a burst of this irradiance (mW/m², unshadowed)."""
        lit = self.lit(off_axis_deg) * irradiance
        if lit <= 0:
            return 0.0
        z = math.log(lit / self.threshold_mw_m2) / self.sigma
        if z > 5:
            return 1.0
        if z < -5:
            return 0.0
        return 0.5 * (1 + math.erf(z / math.sqrt(2)))


@dataclass(frozen=True)
class Path:
    """One way light goes from a badge to a gun: its direction in the gun's frame."""

    forward: float  # components of the unit vector from the gun, along its facing,
    left: float  # to its left,
    up: float  # and up
    irradiance: float  # mW/m² at the receiver, before the aperture's shadow
    el_deg: float  # elevation seen from the gun
    az_deg: float  # azimuth from the gun's facing, positive to its left


def blocked(a: tuple[float, float], b: tuple[float, float], place: Place) -> bool:
    """True if the segment a-b crosses the torso of the player at `place`."""
    cx, cy = place.torso
    fx, fy = place.facing
    lx, ly = -fy, fx

    def local(p: tuple[float, float]) -> tuple[float, float]:
        dx, dy = p[0] - cx, p[1] - cy
        return ((dx * lx + dy * ly) / TORSO_HALF_WIDTH_M, (dx * fx + dy * fy) / TORSO_HALF_DEPTH_M)

    (ax, ay), (bx, by) = local(a), local(b)
    dx, dy = bx - ax, by - ay
    span = dx * dx + dy * dy
    s = 0.0 if span == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / span))
    px, py = ax + s * dx, ay + s * dy
    return px * px + py * py < 1.0


def _path(optics: Optics, gun: Place, badge: Place, mirrored: bool,
          others: list[Place]) -> Path:
    bx, by, bz = badge.badge
    if mirrored:
        bz = -bz
    gx, gy, gz = gun.gun
    dx, dy, dz = bx - gx, by - gy, bz - gz
    dist = math.sqrt(dx * dx + dy * dy + dz * dz)
    ux, uy, uz = dx / dist, dy / dist, dz / dist
    emitted = (-ux, -uy, uz if mirrored else -uz)  # leaving the badge toward the gun
    power = optics.intensity(badge.facing, emitted) / (dist * dist)
    if mirrored:
        graze = math.asin(min(1.0, abs(uz)))
        fresnel = 0.04 + 0.96 * (1 - math.sin(graze)) ** 5
        power *= fresnel * optics.table_reflectance
    if any(blocked((gx, gy), (bx, by), p) for p in others):
        power = 0.0
    fx, fy = gun.facing
    forward, left = ux * fx + uy * fy, -ux * fy + uy * fx
    return Path(forward, left, uz, power, math.degrees(math.asin(uz)),
                math.degrees(math.atan2(left, forward)))


def paths(optics: Optics, table: Table) -> dict[tuple[int, int], tuple[Path, Path]]:
    """(gun seat, badge seat) -> (direct path, path mirrored by the table top)."""
    out = {}
    for gun in table.places:
        for badge in table.places:
            if gun.seat == badge.seat:
                continue
            others = [p for p in table.places if p.seat not in (gun.seat, badge.seat)]
            out[gun.seat, badge.seat] = (_path(optics, gun, badge, False, others),
                                         _path(optics, gun, badge, True, others))
    return out
