"""Where the standee's magnet must sit over the pod lid's reed switch, from the numbers in
cad/common.scad: the magnetomotive force the magnet puts across the reed, for the magnet
over the glass's middle (where the old parts put it) and over one end (where it is now).

A reed switch closes when enough flux runs along its blades and across the gap between
their tips, at the middle of the glass. What drives it is the magnetic potential
difference between the blades' outer ends, in amperes: the same unit as the ampere-turns
(AT) of the test coil its pull-in is rated in. A disc magnet magnetised through its
thickness, held flat above the reed, centred over the middle puts both ends at the same
potential: 0 AT, it never closes (the dead spot). Centred over one end it puts nearly all
its potential across the reed. The magnet is modelled as a grid of small dipoles filling
its 6 x 3 mm volume; the blades' ends are taken at the glass's ends (the leads beyond
them carry flux too, so this errs low). The bench test checks the switch itself.
"""

import math
import re
from pathlib import Path

COMMON = Path(__file__).resolve().parent / "cad" / "common.scad"
BR_TESLA = 1.17  # N35 remanence, 1.17 to 1.21 T
MU0 = 4e-7 * math.pi
REED_AT = (10, 15)  # the reed's pull-in band (ordered as 10-15 AT)


def scad_values(path=COMMON):
    """The plain `name = number;` and `name = [numbers];` assignments at the top level of a
    .scad file (not inside modules); `other / 2` is computed from an earlier value."""
    values = {}
    top = [line.split("//")[0] for line in path.read_text().splitlines()
           if line[:1].isalpha()]
    for name, expr in re.findall(r"(\w+)\s*=\s*([^;]+);", "\n".join(top)):
        expr = expr.strip()
        if expr.startswith("["):
            values[name] = [float(v) for v in expr.strip("[]").split(",")]
            continue
        match = re.fullmatch(r"(\w+)\s*/\s*([\d.]+)", expr)
        if match and match.group(1) in values:
            values[name] = values[match.group(1)] / float(match.group(2))
        elif re.fullmatch(r"-?[\d.]+", expr):
            values[name] = float(expr)
    return values


def _dipoles(steps=12):
    """The magnet (6 x 3 mm disc, axis vertical) as (x, y, z, moment) small dipoles, mm and
    A m^2, centred on the origin."""
    radius, height = 3.0, 3.0
    cell = 2 * radius / steps
    moment = BR_TESLA / MU0 * (cell * 1e-3) ** 2 * (height / steps * 1e-3)
    points = []
    for i in range(steps):
        for j in range(steps):
            x, y = -radius + cell * (i + 0.5), -radius + cell * (j + 0.5)
            if x * x + y * y <= radius * radius:
                points += [(x, y, -height / 2 + height / steps * (k + 0.5), moment)
                           for k in range(steps)]
    return points


DIPOLES = _dipoles()


def potential(x_mm, depth_mm):
    """The magnet's scalar potential (A) at a point `x_mm` along the reed from under the
    magnet's centre and `depth_mm` below it."""
    total = 0.0
    for dx, dy, dz, m in DIPOLES:
        rx, ry, rz = (x_mm - dx) * 1e-3, -dy * 1e-3, (-depth_mm - dz) * 1e-3
        r = math.sqrt(rx * rx + ry * ry + rz * rz)
        total += m * rz / (4 * math.pi * r ** 3)
    return total


def drive_at(values, offset_mm, depth_mm=None):
    """Ampere-turns across the reed with the magnet's centre `offset_mm` along it from the
    reed's middle and `depth_mm` above its axis (the parts' height when not given)."""
    depth = height_mm(values) if depth_mm is None else depth_mm
    half = values["reed_glass"] / 2
    return abs(potential(-half - offset_mm, depth) - potential(half - offset_mm, depth))


def pull_in_height_mm(values, at=REED_AT[1]):
    """How far above the reed's axis the magnet, over one end, still gives `at`."""
    low, high = 2.0, 60.0
    for _ in range(40):
        mid = (low + high) / 2
        low, high = (mid, high) if drive_at(values, values["magnet_over"], mid) > at else (
            low, mid)
    return low


def height_mm(values):
    """The magnet's centre above the reed's axis: the floor over the reed's channel, half
    the channel, half the magnet (its face flush with the foot's bottom)."""
    return values["floor_over_reed"] + values["reed_d"] / 2 + 3.0 / 2


def placement():
    """The README's lines on the magnet's placement."""
    v = scad_values()
    return "\n".join([
        "| magnet's centre, from the reed's middle | across the reed |",
        "|---|---:|",
        f"| 0 mm: over the middle (where both old parts' +3 mm offsets put it) | "
        f"{drive_at(v, 0):.0f} AT |",
        f"| {v['magnet_over']:g} mm: over one end of the {v['reed_glass']:g} mm glass "
        f"(now) | {drive_at(v, v['magnet_over']):.0f} AT |",
        "",
        f"6 × 3 mm N35 disc (Br {BR_TESLA} T), its centre {height_mm(v):.1f} mm above the "
        f"reed's axis ({v['floor_over_reed']:g} mm of lid floor, half the "
        f"{v['reed_d']:g} mm channel, half the magnet); the reed is ordered in the "
        f"{REED_AT[0]}–{REED_AT[1]} AT band. Over the end, the magnet still gives "
        f"{REED_AT[1]} AT (the band's least sensitive reed) up to "
        f"**{pull_in_height_mm(v):.0f} mm** above the reed's axis: the pull-in distance."])
