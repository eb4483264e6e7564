"""The one optics model (companion/tablesim/optics.py, parts.py): what the simulated table
and hardware/IR.md both rest on, checked against the printed parts and hand calculations."""

import math
import re
import sys
from pathlib import Path

import pytest

from companion.tablesim import make_table
from companion.tablesim.optics import Optics, agc_problems, aperture_transmission, paths
from companion.tablesim.parts import Parts

CAD = Path(__file__).resolve().parents[2] / "hardware" / "cad"


def scad_number(file: str, name: str) -> float:
    text = (CAD / file).read_text()
    return float(re.search(rf"^\s*{name}\s*=\s*([\d.]+)\s*;", text, re.M)[1])


def test_the_aperture_is_the_printed_one():
    optics = Optics()
    assert optics.bore_mm == scad_number("common.scad", "bore")
    assert optics.stops_mm == scad_number("common.scad", "stops")
    fan = re.search(r"fan = ([\d.]+);", (CAD / "badge.scad").read_text())[1]
    assert optics.led_spread_deg == float(fan)


def test_two_stops_pass_the_overlap_of_two_discs():
    # offset by one radius, two discs of radius r overlap (2/3 pi - sqrt(3)/2) r^2
    at_one_radius = math.degrees(math.atan(2.5 / 28.5))
    expected = (2 * math.pi / 3 - math.sqrt(3) / 2) / math.pi
    assert aperture_transmission(at_one_radius, 5.0, 28.5) == pytest.approx(expected)
    assert aperture_transmission(0, 5.0, 28.5) == pytest.approx(1)
    assert aperture_transmission(math.degrees(math.atan(5 / 28.5)) + 0.01, 5.0, 28.5) == 0


def test_the_receiver_in_its_pocket_answers_less_off_axis_and_nothing_past_the_cut_off():
    optics = Optics()
    assert optics.acceptance_deg == pytest.approx(math.degrees(math.atan(5 / 28.5)))
    values = [optics.lit(a / 2) for a in range(0, 21)]
    assert values == sorted(values, reverse=True) and values[-1] == 0
    # the receiver's own directivity (half at 45 deg, cos^2) takes 3 % at 10 deg
    assert optics.lit(5) == pytest.approx(aperture_transmission(5, 5, 28.5)
                                          * math.cos(math.radians(5)) ** 2)


def test_the_parts_give_the_current_and_threshold_worked_by_hand():
    typical, worst = Parts(), Parts("worst")
    assert typical.led_ma == pytest.approx((5.0 - 0.1 - 1.3 - 0.9) / 56 * 1000)
    assert worst.led_ma == pytest.approx((4.75 - 0.2 - 1.5 - 1.1) / (56 * 1.05) * 1000)
    assert typical.led_mw_sr == pytest.approx(40 * typical.led_ma / 100)
    # a 1/3-duty carrier has sin(60 deg) of a half-on wave's fundamental
    assert Optics().threshold_mw_m2 == pytest.approx(0.15 / (math.sqrt(3) / 2))
    assert Optics(parts=worst).threshold_mw_m2 == pytest.approx(0.35 / (math.sqrt(3) / 2))
    assert Optics().sensitive_threshold_mw_m2 < Optics().threshold_mw_m2
    with pytest.raises(ValueError, match="typical"):
        Parts("best")


def test_the_acceptance_depends_on_the_signal_strength():
    optics = Optics()
    strong, weak = 100 * optics.threshold_mw_m2, 2 * optics.threshold_mw_m2
    assert optics.acceptance_at(weak) < optics.acceptance_at(strong) < optics.acceptance_deg
    assert optics.margin_db(weak, optics.acceptance_at(weak)) == pytest.approx(0, abs=0.01)
    assert optics.acceptance_at(optics.threshold_mw_m2 / 2) == 0
    assert optics.probability(optics.acceptance_at(weak), weak) == pytest.approx(0.5, abs=0.01)


def test_bursts_outside_the_receivers_agc_conditions_are_refused():
    assert agc_problems(1000, 2000, 8) == []
    assert "outside 10 to 70" in agc_problems(200, 2000, 8)[0]
    assert "under 10" in agc_problems(1000, 1100, 8)[0]
    with pytest.raises(ValueError, match="AGC"):
        Optics(burst_us=3000, slot_us=5000)


def test_cloth_and_cards_add_weaker_diffuse_paths_only_when_on_the_table():
    table = make_table("round", 1.2, "6")
    plain = paths(Optics(), table)
    assert {len(v) for v in plain.values()} == {2}
    scene = paths(Optics(cloth=0.8, cards=0.8), table)
    assert {len(v) for v in scene.values()} == {2 + 1 + 5}  # a cloth pool, five players' cards
    for ways in scene.values():
        direct, *diffuse = ways
        assert direct.irradiance > 0
        assert all(d.irradiance < direct.irradiance / 10 for d in diffuse[1:])
        assert all(d.el_deg < 0 for d in diffuse[1:])  # they lie on the table, below the gun


def weakest_link(optics: Optics) -> float:
    """The weakest direct light (mW/m²) from a badge to a gun on the aim bench's tables."""
    sys.path.insert(0, str(CAD.parents[1] / "bench"))  # a script, not a package
    from aim_accuracy import TABLES

    return min(w[0].irradiance for shape, size, seating in TABLES
               for w in paths(optics, make_table(shape, size, seating)).values()
               if w[0].irradiance > 0)


def test_the_bench_figures_of_the_weakest_link_are_the_models():
    doc = " ".join((CAD.parents[1] / "docs" / "PERFORMANCE.md").read_text().split())
    typical, worst = Optics(), Optics(parts=Parts("worst"))
    e = weakest_link(typical)
    assert (f"weakest link on these tables is {e:.1f} mW/m² (round 1.6 m, 6 seats), "
            f"+{typical.margin_db(e):.1f} dB, which the gun sees out to "
            f"±{typical.acceptance_at(e):.1f}° off axis") in doc
    w = weakest_link(worst)
    assert (f"(weakest link +{worst.margin_db(w):.1f} dB, seen out to "
            f"±{worst.acceptance_at(w):.1f}°)") in doc
