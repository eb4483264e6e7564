"""Where the players sit, wear their badges and hold their guns around a real table.

Coordinates in metres: the table's centre at the origin, z up, the table top at z = 0.
Seats are numbered 1..N going round the table. Players need about `SHOULDERS_M` of edge
each; where the table is too small for that they sit back (round) or overhang the
corners (rectangle), as people do. How they hold their guns (`GRIPS`) and whether they sit,
stand, lean in or turn (`STANCES`) moves the guns and the badges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SHOULDERS_M = 0.45  # edge a seated player takes at a crowded party table
BADGE_Z = 0.32  # sternum of a seated adult above a 0.75 m table top
GUN_Z = 0.36  # a foam gun held out at chest height, sighted
REACH_M = 0.30  # how far in front of the chest the gun is held
TORSO_HALF_WIDTH_M = 0.19
TORSO_HALF_DEPTH_M = 0.11


@dataclass(frozen=True)
class Grip:
    """How a gun is held: how far before the chest, how high above the badge, how far to
    the right of it, and whether the hands cover the holder's own badge while aiming."""

    reach_m: float
    rise_m: float
    right_m: float = 0.0
    hides_badge: bool = False


GRIPS = {
    "held out": Grip(REACH_M, GUN_Z - BADGE_Z),  # the bench's grip before grips were named
    "arm extended": Grip(0.55, 0.08, 0.10),  # one arm straight, sighting along it
    "at the chest": Grip(0.15, 0.04, 0.05),  # elbows bent, the gun close to the body
    "two-handed sternum": Grip(0.22, 0.0, 0.0, True),  # both hands before the badge
    "from the shoulder": Grip(0.45, 0.16, 0.20),  # one hand, the gun at the shoulder
}
STANCES = ("seated", "standing", "mixed", "leaning", "turned")
STAND_M = 0.25  # a standing adult's sternum (1.30 m) above a seated one's (1.05 m)
LEAN_M = (0.15, -0.08)  # leaning in: this much closer to the table, this much lower
TURN_DEG = 30.0  # a turned torso faces this far from the table's centre


@dataclass(frozen=True)
class Place:
    """One seat: the badge on the chest, facing the table's centre, and the gun before it."""

    seat: int
    badge: tuple[float, float, float]
    facing: tuple[float, float]  # horizontal unit vector from the badge toward the centre
    gun: tuple[float, float, float]
    hides_badge: bool = False  # the holder's hands cover the badge while the gun is up

    @property
    def torso(self) -> tuple[float, float]:
        """Centre of the torso's ellipse, half a chest behind the badge."""
        return (self.badge[0] - self.facing[0] * TORSO_HALF_DEPTH_M,
                self.badge[1] - self.facing[1] * TORSO_HALF_DEPTH_M)


@dataclass(frozen=True)
class Table:
    """A table's shape, size and seating, and the places it gives."""

    shape: str  # "round" or "rect"
    size_m: float  # diameter, or the rectangle's length
    seating: str  # "8" (round) or "3+3+1+1": long sides, then the ends
    width_m: float
    places: tuple[Place, ...]

    @property
    def seats(self) -> int:
        return len(self.places)

    grip: str = "held out"
    stance: str = "seated"

    @property
    def name(self) -> str:
        return f"{self.shape} {self.size_m:.1f} m {self.seating}"


def _place(seat: int, x: float, y: float, fx: float, fy: float, grip: str = "held out",
           stance: str = "seated") -> Place:
    """A player at (x, y) whose chest faces (fx, fy), holding the gun with `grip`; standing
    (`mixed`: the even seats stand), leaning in, or turned toward the right neighbour."""
    norm = math.hypot(fx, fy)
    fx, fy = fx / norm, fy / norm
    z = BADGE_Z
    if stance == "standing" or (stance == "mixed" and seat % 2 == 0):
        z += STAND_M
    elif stance == "leaning":
        x, y, z = x + fx * LEAN_M[0], y + fy * LEAN_M[0], z + LEAN_M[1]
    elif stance == "turned":
        turn = math.radians(-TURN_DEG if seat % 2 else TURN_DEG)
        fx, fy = (fx * math.cos(turn) - fy * math.sin(turn),
                  fx * math.sin(turn) + fy * math.cos(turn))
    g = GRIPS[grip]
    rx, ry = fy, -fx  # to the holder's right
    gun = (x + fx * g.reach_m + rx * g.right_m, y + fy * g.reach_m + ry * g.right_m,
           z + g.rise_m)
    return Place(seat, (x, y, z), (fx, fy), gun, g.hides_badge)


def round_table(size_m: float, seats: int, grip: str = "held out", stance: str = "seated"
                ) -> Table:
    """Seats evenly round a round table; chests just behind the edge, or further back."""
    radius = max(size_m / 2 + 0.04, seats * SHOULDERS_M / (2 * math.pi))
    places = []
    for i in range(seats):
        angle = math.pi / 2 - 2 * math.pi * i / seats  # seat 1 at the top, clockwise
        x, y = radius * math.cos(angle), radius * math.sin(angle)
        places.append(_place(i + 1, x, y, -x, -y, grip, stance))
    return Table("round", size_m, str(seats), size_m, tuple(places), grip, stance)


def default_width(size_m: float) -> float:
    """A common width for a rectangular table of this length."""
    return min(size_m, 0.8 if size_m < 1.4 else 0.9)


def parse_seating(seating: str | int) -> tuple[int, int, int, int]:
    """'3+3+1+1' -> (3, 3, 1, 1): the two long sides, then the two ends; '6' is 3+3."""
    parts = [int(p) for p in str(seating).split("+")]
    if len(parts) == 1:
        parts = [parts[0] - parts[0] // 2, parts[0] // 2]
    parts += [0] * (4 - len(parts))
    if len(parts) != 4 or min(parts) < 0 or sum(parts) < 2:
        raise ValueError(f"bad seating {seating!r}")
    return parts[0], parts[1], parts[2], parts[3]


def rect_table(size_m: float, seating: str | int, width_m: float | None = None,
               grip: str = "held out", stance: str = "seated") -> Table:
    """Seats along the long sides (evenly, at least a shoulder width apart) and mid-ends."""
    top, bottom, right, left = parse_seating(seating)
    width = default_width(size_m) if width_m is None else width_m
    half_l, half_w = size_m / 2, width / 2
    edge = 0.04

    def side(count: int) -> list[float]:
        step = max(size_m / max(count, 1), SHOULDERS_M)
        return [(i - (count - 1) / 2) * step for i in range(count)]

    spots: list[tuple[float, float]] = []
    spots += [(x, half_w + edge) for x in side(top)]
    spots += [(half_l + edge, (i - (right - 1) / 2) * -SHOULDERS_M) for i in range(right)]
    spots += [(x, -half_w - edge) for x in reversed(side(bottom))]
    spots += [(-half_l - edge, (i - (left - 1) / 2) * SHOULDERS_M) for i in range(left)]
    places = [_place(i + 1, x, y, -x, -y, grip, stance) for i, (x, y) in enumerate(spots)]
    name = "+".join(str(n) for n in (top, bottom, right, left) if n)
    return Table("rect", size_m, name, width, tuple(places), grip, stance)


def make_table(shape: str, size_m: float, seats: str | int, grip: str = "held out",
               stance: str = "seated") -> Table:
    """A round table of `seats` players, or a rectangle seated as `seats` says; every
    player holds the gun with `grip` (GRIPS) in `stance` (STANCES)."""
    if grip not in GRIPS or stance not in STANCES:
        raise ValueError(f"unknown grip {grip!r} or stance {stance!r}")
    if shape == "round":
        return round_table(size_m, int(seats), grip, stance)
    if shape == "rect":
        return rect_table(size_m, seats, None, grip, stance)
    raise ValueError(f"unknown table shape {shape!r}")
