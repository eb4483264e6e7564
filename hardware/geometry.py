"""The numbers behind hardware/IR.md: where the worn targets lie as seen from each gun, the
tilt switch, the slots (the optics are ir_calc.py's, from the simulated table's model).

Pure Python (no I/O but `main`), so a test can check the numbers and the build can write
them into IR.md between `<!-- BEGIN geometry:NAME -->` and `<!-- END geometry:NAME -->`.
Lengths in metres, angles in degrees unless a name says otherwise.
"""

import itertools
import math

CHEST_GAP = 0.15  # a seated player's chest (the badge) behind the table edge
GUN_REACH = 0.30  # how far in front of the chest a gun is held at chest height
TORSO_RADIUS = 0.15  # a torso seen from above: a disc centred TORSO_DEPTH behind the badge
TORSO_DEPTH = 0.10
TABLE_TO_CHEST = 0.35  # badge and gun height above the table top
ROUND_SIZES = (0.9, 1.2, 1.6)  # table diameters
RECT_SIZES = ((1.2, 0.8), (1.6, 0.9))  # length x width
RECT_LAYOUTS = {  # seats on (long side, other long side, end, other end)
    4: [(1, 1, 1, 1), (2, 2, 0, 0)],
    5: [(2, 1, 1, 1)],
    6: [(2, 2, 1, 1), (3, 3, 0, 0)],
    7: [(3, 2, 1, 1)],
    8: [(3, 3, 1, 1)],
}

ACCEPTANCE = 10.0  # the aperture's cut-off half-angle (the optics: ir_calc.py)

# the slots (spec v2)
BURST_US, SLOT_US, HOLD_MS, SWEEP_DPS = 1000, 2000, 500, 60.0
CARRIER_HZ = 38000
MAX_SHORT_BURSTS_PER_S = 800  # TSOP382.. datasheet: short bursts a second, continuously


def _unit(deg):
    return math.cos(math.radians(deg)), math.sin(math.radians(deg))


def round_seats(n, diameter):
    """Chest positions and facing (toward the centre) of `n` players round a round table."""
    r = diameter / 2 + CHEST_GAP
    seats = []
    for k in range(n):
        a = 360.0 * k / n
        x, y = _unit(a)
        seats.append(((r * x, r * y), a + 180.0))
    return seats


def rect_seats(length, width, layout):
    """Chest positions and facing of players on a rectangle's sides, evenly spread."""
    sides = (  # start, direction along the side, facing (into the table)
        ((-length / 2, -width / 2 - CHEST_GAP), (length, 0.0), 90.0),
        ((length / 2, width / 2 + CHEST_GAP), (-length, 0.0), 270.0),
        ((length / 2 + CHEST_GAP, -width / 2), (0.0, width), 180.0),
        ((-length / 2 - CHEST_GAP, width / 2), (0.0, -width), 0.0),
    )
    seats = []
    for count, ((x0, y0), (dx, dy), facing) in zip(layout, sides, strict=True):
        for i in range(count):
            f = (i + 0.5) / count
            seats.append(((x0 + f * dx, y0 + f * dy), facing))
    return seats


def _bearing(a, b):
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def _wrap(deg):
    return (deg + 180.0) % 360.0 - 180.0


def gun_position(seat, reach=0.0):
    (x, y), facing = seat
    ux, uy = _unit(facing)
    return x + reach * ux, y + reach * uy


def targets(seats, i, own_side=True):
    """The seats gun `i` can aim at: all others, or only those on other sides of a
    rectangle (a player's own side sits in line behind their neighbours' bodies)."""
    return [s for j, s in enumerate(seats)
            if j != i and (own_side or s[1] != seats[i][1])]


def separations(seats, reach=0.0, own_side=True):
    """For each gun, the smallest horizontal angle between two other players' badges."""
    out = []
    for i, seat in enumerate(seats):
        gun = gun_position(seat, reach)
        angles = sorted(_bearing(gun, s[0]) % 360.0 for s in targets(seats, i, own_side))
        gaps = [abs(_wrap(b - a)) for a, b in itertools.pairwise(angles)]
        out.append(min(gaps))
    return out


def span(seats, own_side=True):
    """The largest angle between a player's facing and another player's badge: the badge's
    LEDs must cover +-span (the other guns), the gun turns by as much."""
    return max(abs(_wrap(_bearing(a[0], b[0]) - a[1]))
               for i, a in enumerate(seats) for b in targets(seats, i, own_side))


def blocked_pairs(seats):
    """(gun, target) pairs whose line of sight passes through a third player's torso."""
    blocked = 0
    for i, a in enumerate(seats):
        for j, b in enumerate(seats):
            if i == j:
                continue
            for k, c in enumerate(seats):
                if k in (i, j):
                    continue
                ux, uy = _unit(c[1])
                centre = (c[0][0] - TORSO_DEPTH * ux, c[0][1] - TORSO_DEPTH * uy)
                if _segment_distance(a[0], b[0], centre) < TORSO_RADIUS:
                    blocked += 1
                    break
    return blocked


def _segment_distance(p, q, c):
    dx, dy = q[0] - p[0], q[1] - p[1]
    t = ((c[0] - p[0]) * dx + (c[1] - p[1]) * dy) / (dx * dx + dy * dy)
    t = min(1.0, max(0.0, t))
    return math.hypot(p[0] + t * dx - c[0], p[1] + t * dy - c[1])


def close_pairs(seats, below=2 * ACCEPTANCE, own_side=True):
    """(gun, two targets) triples closer than `below` as seen from the gun: an aim at one
    may see the other, so the aim is called ambiguous when that happens."""
    count = 0
    for i, seat in enumerate(seats):
        bearings = [_bearing(seat[0], s[0]) for s in targets(seats, i, own_side)]
        count += sum(1 for m, a in enumerate(bearings) for b in bearings[m + 1:]
                     if abs(_wrap(a - b)) < below)
    return count


def round_separation(n, diameter, reach=0.0):
    return min(separations(round_seats(n, diameter), reach))


def switch_angle(pitch, roll, mount):
    """Angle between the tilt switch's axis and straight down, for a gun pitched and rolled:
    the switch is mounted so that its axis points straight down at a pitch of `mount`."""
    p, r, m = (math.radians(v) for v in (pitch, roll, mount))
    # the switch axis in the gun's frame (x forward, z up); rolling about x scales its
    # z by cos(roll); pitching about y mixes x into the world's vertical
    ax, az = -math.sin(m), -math.cos(m) * math.cos(r)
    z = ax * math.sin(p) + az * math.cos(p)
    return math.degrees(math.acos(max(-1.0, min(1.0, -z))))


def tilt_window(mount, aim=(-20, 40), roll=30, lowered=-50):
    """(largest angle while aiming, smallest angle when lowered): a switch that trips
    between the two never trips while aiming and always trips when lowered."""
    aiming = max(switch_angle(p, r, mount) for p in range(aim[0], aim[1] + 1)
                 for r in (-roll, 0, roll))
    down = min(switch_angle(p, r, mount) for p in range(-90, lowered + 1)
               for r in range(-roll, roll + 1, 5))
    return aiming, down


TILT_MOUNT = 10  # centred on the aiming range -20..+40 degrees


def slots(n, slot_us=SLOT_US):
    """(slots a round, round ms, looks a second, bursts a second one receiver can see)."""
    round_us = (n + 1) * slot_us
    return n + 1, round_us / 1000, 1e6 / round_us, n * 1e6 / round_us


def hold_rounds(n, hold_ms=HOLD_MS, slot_us=SLOT_US):
    return math.ceil(hold_ms * 1000 / ((n + 1) * slot_us))


def sweep_ms(speed=SWEEP_DPS, acceptance=ACCEPTANCE):
    return 2 * acceptance / speed * 1000


def _table(head, rows):
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---:" for _ in head) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _layout_name(layout):
    return " + ".join(str(c) for c in layout if c)


def tables():
    """Every generated block of IR.md, by name."""
    out = {}
    out["round"] = _table(
        ["seats", "table ⌀ m", "closest targets, gun at the chest", "gun 0.3 m forward",
         "others span ±", "lines blocked by a body"],
        [[n, f"{d:.1f}", f"{round_separation(n, d):.1f}°",
          f"{round_separation(n, d, GUN_REACH):.1f}°", f"{span(round_seats(n, d)):.1f}°",
          blocked_pairs(round_seats(n, d))]
         for n in range(4, 9) for d in ROUND_SIZES])
    rows = []
    for n, layouts in RECT_LAYOUTS.items():
        for layout in layouts:
            for length, width in RECT_SIZES:
                seats = rect_seats(length, width, layout)
                rows.append([n, _layout_name(layout), f"{length:.1f} × {width:.1f}",
                             f"{min(separations(seats, own_side=False)):.1f}°",
                             close_pairs(seats, own_side=False),
                             f"{span(seats, own_side=False):.1f}°", blocked_pairs(seats)])
    out["rect"] = _table(
        ["seats", "seated", "table m", "closest targets on other sides",
         "(gun, target pair) under 20° apart", "other sides span ±",
         "lines blocked by a body"], rows)
    out["tilt"] = _table(
        ["switch upright at a gun pitch of", "largest switch tilt while aiming",
         "smallest switch tilt when lowered", "a switch that trips between"],
        [[f"{m:+d}°", f"{a:.0f}°", f"{d:.0f}°", f"{a:.0f}° and {d:.0f}° fits"
          if d > a else "none fits"]
         for m in (0, TILT_MOUNT, 20) for a, d in [tilt_window(m)]])
    out["slots"] = _table(
        ["seats", "slots a round", "round", "looks a second per gun",
         "bursts a second at one receiver, at most", "rounds in a 500 ms hold"],
        [[n, s, f"{r:g} ms", f"{looks:.1f}", f"{bursts:.0f}", hold_rounds(n)]
         for n in range(4, 9) for s, r, looks, bursts in [slots(n)]])
    return out


def fill(text, blocks, source="geometry"):
    """Replace each `<!-- BEGIN SOURCE:NAME -->...<!-- END SOURCE:NAME -->` block."""
    for name, body in blocks.items():
        begin, end = f"<!-- BEGIN {source}:{name} -->", f"<!-- END {source}:{name} -->"
        head, found, rest = text.partition(begin)
        if not found:
            raise KeyError(f"no block {source}:{name}")
        _, found, tail = rest.partition(end)
        if not found:
            raise KeyError(f"block {source}:{name} is not closed")
        text = f"{head}{begin}\n{body}\n{end}{tail}"
    return text


def main(blocks=None):
    """Print `blocks` (default: this module's tables) as Markdown, one section each."""
    for name, body in (blocks or tables()).items():
        print(f"## {name}\n{body}\n")


if __name__ == "__main__":
    main()
