"""The table's geometry: where players sit and what their guns see."""

from __future__ import annotations

import math

import pytest

from companion.tablesim import make_table
from companion.tablesim.advice import (
    hidden_badges,
    needed_separation,
    seating_check,
    seating_verdict,
)
from companion.tablesim.geometry import GRIPS
from companion.tablesim.optics import Optics, blocked, paths


def angle_at(p, a, b) -> float:
    """Degrees between the directions p->a and p->b, seen from above."""
    ua = math.atan2(a[1] - p[1], a[0] - p[0])
    ub = math.atan2(b[1] - p[1], b[0] - p[0])
    return abs(math.degrees((ua - ub + math.pi) % (2 * math.pi) - math.pi))


@pytest.mark.parametrize("size", [0.9, 1.2, 1.6])
def test_round_8_any_two_neighbours_subtend_22_5_degrees_from_a_third(size):
    badges = [p.badge for p in make_table("round", size, 8).places]
    for i, p in enumerate(badges):
        for j in range(8):
            k = (j + 1) % 8
            if i not in (j, k):
                assert angle_at(p, badges[j], badges[k]) == pytest.approx(22.5, abs=1e-9)


@pytest.mark.parametrize(("seating", "sides"), [("3+3+1+1", (3, 3, 1, 1)), ("2+2", (2, 2, 0, 0)),
                                                ("6", (3, 3, 0, 0))])
def test_rectangles_seat_the_long_sides_then_the_ends(seating, sides):
    table = make_table("rect", 1.6, seating)
    assert table.seats == sum(sides)
    on_long = sum(1 for p in table.places if abs(p.badge[1]) > table.width_m / 2)
    assert on_long == sides[0] + sides[1]
    for p in table.places:  # every badge faces the table's centre
        assert p.facing[0] * -p.badge[0] + p.facing[1] * -p.badge[1] > 0


def test_seating_in_line_is_refused_with_a_seating_that_works():
    warnings = seating_check("rect", 1.6, "4+4", grip="held out")
    apart = [w for w in warnings if w.separation_deg is not None]
    assert apart and all(w.separation_deg < needed_separation() for w in apart)
    assert seating_verdict("rect", 1.6, "4+4", "held out") == "refuse"
    assert warnings[0].suggestion == "use a round table of 1.6 m for 8 players"
    # 3+3+1+1 passes seated and standing: only players leaning in or turning fall short
    found = seating_check("rect", 1.6, "3+3+1+1", grip="held out")
    assert {s for w in found for s in w.stances} == {"leaning", "turned"}
    assert seating_verdict("rect", 1.6, "3+3+1+1", "held out", found) == "warn"


def test_a_seating_is_judged_by_the_worst_grip_unless_the_table_names_one():
    """Held at the chest the guns sit further back: 3+3+1+1 on a 1.6 m table puts two
    targets 13° apart from an end seat (16° needed), which the 0.3 m reach hid."""
    warnings = seating_check("rect", 1.6, "3+3+1+1")
    seated = [w for w in warnings if "seated" in w.stances]
    assert seated and all("at the chest" in w.grips for w in seated)
    assert all(w.separation_deg < needed_separation() for w in seated)
    assert all("at the chest" in w.message for w in seated)
    assert warnings[0].suggestion == "use a round table of 1.6 m for 8 players"
    extended = seating_check("rect", 1.6, "3+3+1+1", grip="arm extended")
    assert extended and all(w.stances == ("turned",) for w in extended)
    assert seating_check("rect", 1.6, "4+4")[0].suggestion == warnings[0].suggestion


def test_a_grip_that_covers_the_own_badge_is_named_whatever_the_seating():
    assert [t.split(":")[0] for t in hidden_badges()] == ["grip two-handed sternum"]
    assert hidden_badges("at the chest") == []


@pytest.mark.parametrize("seats", [4, 6, 8])
@pytest.mark.parametrize("size", [0.9, 1.2, 1.6])
def test_round_tables_need_no_advice(size, seats):
    """Whatever the grip and stance, but for six players crowded round 0.9 m, turned
    toward a neighbour with the gun at the shoulder (it reaches past that neighbour)."""
    warnings = seating_check("round", size, seats)
    assert bool(warnings) == ((size, seats) == (0.9, 6))
    assert all(w.stances == ("turned",) and w.grips == ("from the shoulder",)
               for w in warnings)


@pytest.mark.parametrize("seats", [4, 6, 8])
@pytest.mark.parametrize("size", [0.9, 1.2, 1.6])
def test_worn_targets_never_line_up_from_a_gun(size, seats):
    """Unlike standees near the centre, two players are at least 180/N degrees apart
    from any gun (more, as the gun is held in front of the chest)."""
    table = make_table("round", size, seats)
    for p in table.places:
        for a in table.places:
            for b in table.places:
                if len({p.seat, a.seat, b.seat}) == 3:
                    assert angle_at(p.gun, a.badge, b.badge) >= 180 / seats - 1e-9


def test_half_standing_players_are_judged_too():
    """The bench gives 88 % correct at a 1.6 m rectangle seated 3+3, guns from the shoulder,
    every other player standing (docs/PERFORMANCE.md): seated only, the check passed it."""
    from companion.tablesim.advice import STANCES

    warnings = seating_check("rect", 1.6, "3+3", grip="from the shoulder")
    assert {w.stances for w in warnings} == {("mixed",), ("turned",)}
    assert warnings[0].message.startswith("grip from the shoulder, half standing, seat 6's gun")
    assert warnings[0].separation_deg is None  # a standing badge out of a seated gun's view
    assert warnings[0].suggestion is not None
    assert list(STANCES) == ["seated", "standing", "mixed", "leaning", "turned"]


def test_turned_players_in_a_row_hide_each_other_and_the_check_warns():
    """A turned torso misses the targets on the 1.6 m rectangles (docs/PERFORMANCE.md):
    seated three in a row, the middle player turned toward a neighbour puts a shoulder
    between the two others. A body, not the light: every badge a turned player's gun
    still sees arrives at least 5 dB over the threshold, whatever the grip, but where
    the gun held from the shoulder reaches into the neighbour's torso (a pose the model
    allows and no player takes: its light comes from behind that neighbour's badge)."""
    optics = Optics()
    turned = paths(optics, make_table("rect", 1.6, "3+3", "held out", "turned"))
    seated = paths(optics, make_table("rect", 1.6, "3+3", "held out", "seated"))
    for ends in ((3, 1), (4, 6)):  # from the end of a row toward its other end
        assert turned[ends][0].irradiance == 0 < seated[ends][0].irradiance
    for grip in GRIPS:
        for shape, size, seating in (("round", 1.2, 8), ("round", 0.9, 4), ("round", 1.6, 6),
                                     ("rect", 1.6, "3+3"), ("rect", 1.6, "3+3+1+1"),
                                     ("rect", 1.2, "2+2+1+1")):
            table = make_table(shape, size, seating, grip, "turned")
            inside = {p.seat for p in table.places
                      if any(blocked(p.gun[:2], p.gun[:2], o) for o in table.places if o != p)}
            assert inside <= ({3, 7} if grip == "from the shoulder" else set())
            for (gun, _), way in paths(optics, table).items():
                assert (way[0].irradiance == 0 or gun in inside
                        or optics.margin_db(way[0].irradiance) >= 5.0)
    warnings = seating_check("rect", 1.6, "3+3", grip="held out")
    assert any(w.gun == 3 and w.targets == (1,) and w.stances == ("turned",)
               for w in warnings)
    assert "turned torso, seat 3's gun barely receives seat 1's badge" in warnings[0].message
    assert seating_verdict("rect", 1.6, "3+3", "held out", warnings) == "warn"
    assert seating_check("rect", 1.6, "2+2+1+1", grip="held out") == []  # no row of three
