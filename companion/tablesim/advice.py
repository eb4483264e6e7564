"""Before the game: does this seating let every gun tell its targets apart?

A gun held on one player also sees another whose badge lies within the aperture's
acceptance of where it points; with people's constant offset (RMS `offset_deg`), two
targets need `acceptance + penumbra + 2.576 * offset / sqrt(2)` degrees between them (one
aim in 200 reaching the neighbour), and each badge's light must reach each gun. Players
sitting in line along one side of a rectangle fail this; the setup flow shows the warnings
and the suggested seating. Where the guns are held moves them (geometry.GRIPS): unless the
table says which grip it plays with, a seating is judged by the worst grip, and by the
worst of sitting, standing, half standing, leaning in and a turned torso (`STANCES`:
people stand up at a party table, lean in and turn toward a neighbour), each warning
naming the grips and stances it holds for; `hidden_badges` says which
grips cover the holder's own badge, whatever the seating (the bench's figures per grip and
stance: docs/PERFORMANCE.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.tablesim.geometry import GRIPS, Table, make_table
from companion.tablesim.hand import Hand
from companion.tablesim.optics import Optics, paths

LINK_MARGIN = 4.0  # the weakest badge must reach a gun at 4x its receiver's threshold
# How the players may sit, stand, lean or turn (geometry.STANCES). Leaning in and a turned
# torso are moments, not seatings, but they last through an aim: three players in a row
# along one side who turn toward their neighbours put the middle one's shoulders between
# the two others (a body, not the light: every badge seen still arrives 5 dB or more over
# the threshold), so the check warns of them; it refuses only what fails seated.
STANCES = {"seated": "seated", "standing": "standing", "mixed": "half standing",
           "leaning": "leaning in", "turned": "turned torso"}


@dataclass(frozen=True)
class SeatingWarning:
    """One gun that cannot tell two targets apart (or does not see one), and a fix."""

    gun: int
    targets: tuple[int, ...]
    separation_deg: float | None  # None when a badge's light does not reach the gun
    message: str
    suggestion: str | None  # a seating of the same players that works, if any
    grips: tuple[str, ...] = ()  # the grips this holds for (geometry.GRIPS)
    stances: tuple[str, ...] = ()  # and the stances (STANCES)


def needed_separation(optics: Optics | None = None, hand: Hand | None = None) -> float:
    """Degrees two targets must be apart, seen from a gun."""
    optics, hand = optics or Optics(), hand or Hand()
    return optics.acceptance_deg + optics.penumbra_deg + 2.576 * hand.offset_deg / math.sqrt(2)


def _problems(table: Table, optics: Optics, need: float) -> list[tuple[int, tuple, float | None]]:
    found: list[tuple[int, tuple, float | None]] = []
    ways = paths(optics, table)
    seats = [p.seat for p in table.places]
    for g in seats:
        others = [s for s in seats if s != g]
        for a in others:
            if ways[g, a][0].irradiance < LINK_MARGIN * optics.threshold_mw_m2:
                found.append((g, (a,), None))
        for i, a in enumerate(others):
            pa = ways[g, a][0]
            for b in others[i + 1:]:
                pb = ways[g, b][0]
                dot = pa.forward * pb.forward + pa.left * pb.left + pa.up * pb.up
                sep = math.degrees(math.acos(max(-1.0, min(1.0, dot))))
                if sep < need:
                    found.append((g, (a, b), sep))
    return found


def _seatings(players: int) -> list[str]:
    """Rectangle seatings of this many players, the most even first."""
    out = []
    for ends in (0, 1, 2):
        sides = players - ends
        if sides < 2:
            continue
        top, bottom = sides - sides // 2, sides // 2
        out.append("+".join(str(n) for n in (top, bottom, *([1] * ends))))
    return out


def _by_grip(shape: str, size_m: float, seats: str | int, grips: tuple[str, ...],
             optics: Optics, need: float) -> dict[tuple, tuple[float | None, list, list]]:
    """(gun, targets) -> (the least separation, the grips and the stances it fails for),
    over `grips` and every stance of STANCES."""
    found: dict[tuple, tuple[float | None, list, list]] = {}
    for grip in grips:
        for stance in STANCES:
            table = make_table(shape, size_m, seats, grip, stance)
            for gun, targets, sep in _problems(table, optics, need):
                low, held, stood = found.get((gun, targets), (sep, [], []))
                if sep is not None and (low is None or sep < low):
                    low = sep
                found[gun, targets] = (low, held + [grip] * (grip not in held),
                                       stood + [stance] * (stance not in stood))
    return found


def hidden_badges(grip: str | None = None) -> list[str]:
    """Why a grip (None: any) fails on every seating: the hands cover the holder's badge."""
    return [f"grip {g}: the hands cover the holder's own badge, so players aiming back at "
            "them are not seen (wear the badge on a hat band, or hold the gun one-handed)"
            for g, how in GRIPS.items() if how.hides_badge and grip in (None, g)]


def seating_check(shape: str, size_m: float, seats: str | int, *,
                  optics: Optics | None = None, hand: Hand | None = None,
                  grip: str | None = None) -> list[SeatingWarning]:
    """Warnings for this table and seating (`seats`: a count, or '3+3+1+1' for a
    rectangle: long sides, then ends) with the guns held as `grip` says (None: every
    grip, judged by the worst), each with a seating of the same players that works on
    this table (or on a round one of the same size) for those grips, if there is one."""
    optics, hand = optics or Optics(), hand or Hand()
    need = needed_separation(optics, hand)
    grips = tuple(GRIPS) if grip is None else (grip,)
    table = make_table(shape, size_m, seats)
    problems = _by_grip(shape, size_m, seats, grips, optics, need)
    if not problems:
        return []
    suggestion = None
    candidates = ([("rect", s) for s in _seatings(table.seats) if s != table.seating]
                  + [("round", table.seats)])
    for cand_shape, cand in candidates:
        if not _by_grip(cand_shape, size_m, cand, grips, optics, need):
            suggestion = (f"seat {cand} (long sides, then the ends)" if cand_shape == "rect"
                          else f"use a round table of {size_m:.1f} m for {cand} players")
            break
    warnings = []
    for (gun, targets), (sep, failing, stood) in problems.items():
        held = "grip " + " or ".join(failing) + ", " + " or ".join(STANCES[s] for s in stood)
        if sep is None:
            text = (f"{held}, seat {gun}'s gun barely receives seat {targets[0]}'s badge: "
                    "move them closer or face the badge to the table's centre")
        else:
            text = (f"{held}, from seat {gun}, seats {targets[0]} and {targets[1]} are only "
                    f"{sep:.0f}° apart (needs {need:.0f}°): an aim at one may be ambiguous")
        warnings.append(SeatingWarning(gun, targets, None if sep is None else round(sep, 1),
                                       text, suggestion, tuple(failing), tuple(stood)))
    return warnings


def seating_verdict(shape: str, size_m: float, seats: str | int, grip: str | None,
                    found: list[SeatingWarning] | tuple[SeatingWarning, ...] | None = None
                    ) -> str:
    """"refuse" when the grip the table plays with fails seated (or covers the badges):
    the game would be judged wrongly as it is played; "warn" when only other grips, or
    players standing, fall short; else "ok". A table that names no grip is not told of
    the grip that covers the badges (any seating fails it: a grip to avoid, not a
    seating). `found`: this seating's warnings, if already checked."""
    if found is None:
        found = seating_check(shape, size_m, seats, grip=grip)
    hidden = grip is not None and GRIPS[grip].hides_badge
    if grip is not None and (hidden or any("seated" in w.stances for w in found)):
        return "refuse"
    return "warn" if found or hidden else "ok"
