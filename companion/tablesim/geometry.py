"""Where the players sit, wear their badges and hold their guns around a real table.

Coordinates in metres: the table's centre at the origin, z up, the table top at z = 0.
Seats are numbered 1..N going round the table. Players need about `SHOULDERS_M` of edge
each; where the table is too small for that they sit back (round) or overhang the
corners (rectangle), as people do.
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
class Place:
    """One seat: the badge on the chest, facing the table's centre, and the gun before it."""

    seat: int
    badge: tuple[float, float, float]
    facing: tuple[float, float]  # horizontal unit vector from the badge toward the centre
    gun: tuple[float, float, float]

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

    @property
    def name(self) -> str:
        return f"{self.shape} {self.size_m:.1f} m {self.seating}"


def _place(seat: int, x: float, y: float, fx: float, fy: float) -> Place:
    """A player at (x, y) whose chest faces (fx, fy)."""
    norm = math.hypot(fx, fy)
    fx, fy = fx / norm, fy / norm
    return Place(seat, (x, y, BADGE_Z), (fx, fy), (x + fx * REACH_M, y + fy * REACH_M, GUN_Z))


def round_table(size_m: float, seats: int) -> Table:
    """Seats evenly round a round table; chests just behind the edge, or further back."""
    radius = max(size_m / 2 + 0.04, seats * SHOULDERS_M / (2 * math.pi))
    places = []
    for i in range(seats):
        angle = math.pi / 2 - 2 * math.pi * i / seats  # seat 1 at the top, clockwise
        x, y = radius * math.cos(angle), radius * math.sin(angle)
        places.append(_place(i + 1, x, y, -x, -y))
    return Table("round", size_m, str(seats), size_m, tuple(places))


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


def rect_table(size_m: float, seating: str | int, width_m: float | None = None) -> Table:
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
    places = [_place(i + 1, x, y, -x, -y) for i, (x, y) in enumerate(spots)]
    name = "+".join(str(n) for n in (top, bottom, right, left) if n)
    return Table("rect", size_m, name, width, tuple(places))


def make_table(shape: str, size_m: float, seats: str | int) -> Table:
    """A round table of `seats` players, or a rectangle seated as `seats` says."""
    if shape == "round":
        return round_table(size_m, int(seats))
    if shape == "rect":
        return rect_table(size_m, seats)
    raise ValueError(f"unknown table shape {shape!r}")
