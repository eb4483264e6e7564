"""Light from a worn badge to a gun's receiver: one optics model for the simulated table
and hardware/IR.md (hardware/ir_calc.py computes IR.md's tables from it).

A badge carries `leds` TSAL6400s fanned horizontally about its facing, each a cos^m lobe
fitted to its ±25° half-intensity angle, driven at the current the supply leaves them
(`parts.Parts`: typical or worst parts). The gun's TSOP38238 sits in a printed pocket
behind two stops of one bore (hardware/cad/common.scad): light from θ off the barrel
passes where the two discs overlap, so the transmission falls smoothly from 1 on axis to
0 at atan(bore / spacing), and the receiver's own directivity (±45°) multiplies it. The
receiver answers a burst when the irradiance it gets beats its threshold: the datasheet's
minimum irradiance over the carrier's factor (its 1/3-duty PWM has sin(π/3) of a half-on
square wave's fundamental); the bursts must keep to the AGC's conditions (checked when an
`Optics` is made). Threshold and AGC vary burst to burst (`sigma`, log-normal), so how far
off axis a gun still sees a badge depends on the signal's strength: strong near, weak far.

Besides the direct light: the table top mirrors each badge weakly (Fresnel at grazing
incidence, `table_reflectance`), and a white cloth (`cloth`) or the game's cards lying in
front of each player (`cards`), lit by a badge, shine back diffusely (Lambertian). Bodies
(elliptic torsos) block lines of sight. Ambient light fires a receiver now and then.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from companion.tablesim import parts as P
from companion.tablesim.geometry import TORSO_HALF_DEPTH_M, TORSO_HALF_WIDTH_M, Place, Table

POOL_M = 0.5  # where a badge lights the table top most: this far in front of it
POOL_AREA_M2 = 0.09  # the brightest 0.3 x 0.3 m of that pool
CARD_M = 0.4  # the game's cards lie this far in front of each player's badge
CARD_AREA_M2 = 0.063 * 0.088  # one card


def cos_lobe(off_axis_deg: float, half_deg: float) -> float:
    """A cos^m lobe with half intensity at `half_deg` (pessimistic in the far tails)."""
    m = math.log(0.5) / math.log(math.cos(math.radians(half_deg)))
    return math.cos(math.radians(min(abs(off_axis_deg), 90.0))) ** m


def aperture_transmission(off_axis_deg: float, bore_mm: float, stops_mm: float) -> float:
    """Share of the on-axis light that passes two circular stops of `bore_mm`, `stops_mm`
    apart: the overlap of two discs offset by stops * tan(angle); zero from atan(bore/stops)."""
    s = stops_mm * math.tan(math.radians(min(abs(off_axis_deg), 89.0)))
    r = bore_mm / 2
    if s >= 2 * r:
        return 0.0
    overlap = 2 * r * r * math.acos(s / (2 * r)) - s / 2 * math.sqrt(4 * r * r - s * s)
    return overlap / (math.pi * r * r)


def carrier_factor(duty: float) -> float:
    """The carrier's fundamental relative to a half-on square wave of the same peak."""
    return math.sin(math.pi * duty)


def agc_problems(burst_us: float, slot_us: float, seats: int) -> list[str]:
    """What breaks the TSOP382's (AGC2) conditions for full gain, if anything: a burst of
    10 to 70 carrier cycles, a gap of 10 cycles after it, at most 800 bursts a second."""
    cycle_us = 1e6 / P.CARRIER_HZ
    cycles, gap = burst_us / cycle_us, (slot_us - burst_us) / cycle_us
    rate = seats * 1e6 / ((seats + 1) * slot_us)  # a receiver seeing every badge at once
    found = []
    if not P.RX_MIN_BURST_CYCLES <= cycles <= P.RX_SHORT_BURST_CYCLES:
        found.append(f"a burst of {cycles:.0f} cycles is outside 10 to 70")
    if gap < P.RX_MIN_GAP_CYCLES:
        found.append(f"a gap of {gap:.0f} cycles is under 10")
    if rate > P.RX_MAX_SHORT_BURSTS_PER_S:
        found.append(f"{rate:.0f} bursts a second are over 800")
    return found


@dataclass(frozen=True)
class Optics:
    """Emitters, receivers and the room. Defaults: the v2 hardware with typical parts."""

    bore_mm: float = 5.0  # both stops of the aperture (hardware/cad/common.scad `bore`)
    stops_mm: float = 28.5  # between the stops (common.scad `stops`)
    penumbra_deg: float = 1.0  # print tolerance on the cut-off the seating check keeps
    leds: int = 3
    led_spread_deg: float = 45.0  # side LEDs' axes this far either side (cad/badge.scad)
    parts: P.Parts = field(default_factory=P.Parts)
    duty: float = P.CARRIER_DUTY
    burst_us: float = P.BURST_US
    slot_us: float = 2000
    sigma: float = 0.25  # burst-to-burst spread of threshold and AGC, log units
    table_reflectance: float = 0.5  # share of the Fresnel reflection a real top keeps
    cloth: float = 0.0  # diffuse reflectance of a cloth on the table (white: 0.8)
    cards: float = 0.0  # of the cards lying in front of each player (white: 0.8)
    ambient: float = 1e-5  # chance a receiver fires on its own in one slot

    def __post_init__(self) -> None:
        problems = agc_problems(self.burst_us, self.slot_us, 8)
        if problems:
            raise ValueError("optics: the receiver's AGC would lose gain: " + "; ".join(problems))

    @property
    def acceptance_deg(self) -> float:
        """The aperture's cut-off: no ray reaches the receiver from farther off axis."""
        return math.degrees(math.atan(self.bore_mm / self.stops_mm))

    @property
    def lobe_m(self) -> float:
        """The exponent of one LED's cos^m lobe."""
        return math.log(0.5) / math.log(math.cos(math.radians(P.LED_HALF_DEG)))

    @property
    def led_mw_sr(self) -> float:
        """One LED's radiant intensity on its axis during a burst."""
        return self.parts.led_mw_sr

    @property
    def threshold_mw_m2(self) -> float:
        """The irradiance of our bursts (their peak) the receiver answers at."""
        return self.parts.rx_ee_min / carrier_factor(self.duty)

    @property
    def sensitive_threshold_mw_m2(self) -> float:
        """The same for the most sensitive receiver: what crosstalk must stay under."""
        return P.RX_EE_MIN_SENSITIVE / carrier_factor(self.duty)

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

    def badge_relative(self, direction_deg: float) -> float:
        """A badge's intensity `direction_deg` from its facing (level), in single LEDs."""
        w = (math.cos(math.radians(direction_deg)), math.sin(math.radians(direction_deg)), 0.0)
        return self.intensity((1.0, 0.0), w) / self.led_mw_sr

    def lit(self, off_axis_deg: float) -> float:
        """The receiver's response in its pocket at this angle off the barrel, relative to
        on axis: the aperture's transmission times the receiver's directivity."""
        return (aperture_transmission(off_axis_deg, self.bore_mm, self.stops_mm)
                * cos_lobe(off_axis_deg, P.RX_HALF_DEG))

    def view_sr(self, lower_half: bool = False) -> float:
        """The solid angle the receiver sees, weighted by `lit` (sr): what a surface of
        even radiance filling its view (or the lower half of it) sends it, per radiance."""
        steps = 400
        d = math.radians(self.acceptance_deg) / steps
        total = sum(self.lit(math.degrees((i + 0.5) * d)) * 2 * math.pi
                    * math.sin((i + 0.5) * d) * d for i in range(steps))
        return total / 2 if lower_half else total

    def probability(self, off_axis_deg: float, irradiance: float,
                    threshold: float | None = None) -> float:
        """Chance the receiver reports a burst of this irradiance (mW/m², before the
        aperture) arriving this far off its axis; `threshold` defaults to the parts'."""
        lit = self.lit(off_axis_deg) * irradiance
        if lit <= 0:
            return 0.0
        z = math.log(lit / (threshold or self.threshold_mw_m2)) / self.sigma
        if z > 5:
            return 1.0
        if z < -5:
            return 0.0
        return 0.5 * (1 + math.erf(z / math.sqrt(2)))

    def margin_db(self, irradiance: float, off_axis_deg: float = 0.0,
                  threshold: float | None = None) -> float:
        """How far over the threshold (dB) a burst of this irradiance arrives."""
        lit = self.lit(off_axis_deg) * irradiance
        if lit <= 0:
            return -math.inf
        return 10 * math.log10(lit / (threshold or self.threshold_mw_m2))

    def acceptance_at(self, irradiance: float) -> float:
        """The angle off axis where a burst of this irradiance falls to the threshold:
        the acceptance a gun really has for it (0 when it is not seen even on axis)."""
        if self.margin_db(irradiance) <= 0:
            return 0.0
        low, high = 0.0, self.acceptance_deg
        for _ in range(40):
            mid = (low + high) / 2
            low, high = (mid, high) if self.margin_db(irradiance, mid) > 0 else (low, mid)
        return low

    def diffuse_radiance(self, intensity: float, distance_m: float, height_m: float,
                         reflectance: float) -> float:
        """Radiance (mW/m²/sr) of a matte surface `distance_m` in front of a badge and
        `height_m` below it, lit by `intensity` (mW/sr) toward it."""
        r2 = distance_m ** 2 + height_m ** 2
        return reflectance / math.pi * intensity * (height_m / math.sqrt(r2)) / r2


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


def _toward(gun: Place, point: tuple[float, float, float], power: float,
            others: list[Place]) -> Path:
    """The path from gun to `point`, carrying `power` (mW/m²) unless a body blocks it."""
    gx, gy, gz = gun.gun
    dx, dy, dz = point[0] - gx, point[1] - gy, point[2] - gz
    dist = math.sqrt(dx * dx + dy * dy + dz * dz)
    ux, uy, uz = dx / dist, dy / dist, dz / dist
    if any(blocked((gx, gy), point[:2], p) for p in others):
        power = 0.0
    fx, fy = gun.facing
    forward, left = ux * fx + uy * fy, -ux * fy + uy * fx
    return Path(forward, left, uz, power, math.degrees(math.asin(uz)),
                math.degrees(math.atan2(left, forward)))


def _unit(a: tuple[float, float, float], b: tuple[float, float, float]
          ) -> tuple[tuple[float, float, float], float]:
    d = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    n = math.sqrt(d[0] ** 2 + d[1] ** 2 + d[2] ** 2)
    return (d[0] / n, d[1] / n, d[2] / n), n


def _direct(optics: Optics, gun: Place, badge: Place, mirrored: bool,
            others: list[Place]) -> Path:
    bx, by, bz = badge.badge
    image = (bx, by, -bz if mirrored else bz)
    (ux, uy, uz), dist = _unit(gun.gun, image)
    emitted = (-ux, -uy, uz if mirrored else -uz)  # leaving the badge toward the gun
    power = optics.intensity(badge.facing, emitted) / (dist * dist)
    if mirrored:
        graze = math.asin(min(1.0, abs(uz)))
        power *= (0.04 + 0.96 * (1 - math.sin(graze)) ** 5) * optics.table_reflectance
    return _toward(gun, image, power, others)


def _diffuse(optics: Optics, gun: Place, badge: Place, spot: tuple[float, float],
             area: float, reflectance: float, others: list[Place]) -> Path:
    """Light from `badge` scattered by a matte patch of `area` on the table at `spot`:
    a point source, its solid angle capped at what the receiver's view can hold."""
    point = (spot[0], spot[1], 0.0)
    w, _ = _unit(badge.badge, point)
    radiance = optics.diffuse_radiance(optics.intensity(badge.facing, w),
                                       math.hypot(*(point[i] - badge.badge[i] for i in (0, 1))),
                                       badge.badge[2], reflectance)
    (_, _, uz), seen = _unit(gun.gun, point)
    solid = min(area * abs(uz) / (seen * seen), optics.view_sr())
    return _toward(gun, point, radiance * solid, others)


def _ahead(place: Place, metres: float) -> tuple[float, float]:
    return (place.badge[0] + place.facing[0] * metres, place.badge[1] + place.facing[1] * metres)


def paths(optics: Optics, table: Table) -> dict[tuple[int, int], tuple[Path, ...]]:
    """(gun seat, badge seat) -> (direct path, path mirrored by the table top, then the
    cloth's and the cards' diffuse paths when the scene has them)."""
    out = {}
    for gun in table.places:
        for badge in table.places:
            if gun.seat == badge.seat:
                continue
            others = [p for p in table.places if p.seat not in (gun.seat, badge.seat)]
            ways = [_direct(optics, gun, badge, False, others),
                    _direct(optics, gun, badge, True, others)]
            if optics.cloth:
                ways.append(_diffuse(optics, gun, badge, _ahead(badge, POOL_M), POOL_AREA_M2,
                                     optics.cloth, others))
            if optics.cards:
                ways += [_diffuse(optics, gun, badge, _ahead(p, CARD_M), CARD_AREA_M2,
                                  optics.cards, others)
                         for p in table.places if p.seat != gun.seat]
            out[gun.seat, badge.seat] = tuple(ways)
    return out
