"""hardware/IR.md's optics: computed by ir_calc.py from the simulated table's optics model,
and the doc holds exactly what it computes, its prose included."""

import math

import geometry
import ir_calc
import pytest
from hardware_dir import HARDWARE

from companion.tablesim import parts

IR = (HARDWARE / "IR.md").read_text()
PROSE = " ".join(IR.replace("−", "-").split())  # one line, ASCII minus signs


def test_the_doc_holds_the_tables_ir_calc_computes_now():
    assert geometry.fill(IR, ir_calc.tables(), "ir_calc") == IR


def test_the_prose_quotes_the_computed_acceptance_and_margins():
    typ, worst = ir_calc.TYPICAL, ir_calc.WORST
    far = ir_calc.irradiance(typ, 2.2)
    assert f"±{typ.acceptance_at(far):.1f}° at 2.2 m with typical parts" in PROSE
    assert f"±{worst.acceptance_at(ir_calc.irradiance(worst, 2.2)):.1f}° at 2.2 m" in PROSE
    assert f"{ir_calc.margin(typ, 2.2, 0):+.1f} dB on axis at 2.2 m" in PROSE
    assert f"{ir_calc.margin(worst, 2.2, 5):+.1f} dB at 5° off axis" in PROSE
    cloth = max(e for name, _, e in ir_calc.crosstalk_rows() if "whole view" in name)
    assert f"within {-ir_calc.db(cloth / typ.sensitive_threshold_mw_m2):.1f} dB" in PROSE


def test_the_link_worked_by_hand_at_2_2_m_on_axis():
    # 48.2 mA x 40 mW/sr / 100 mA x 0.57 (badge at 67.5 deg) / 2.2^2 against 0.15 / 0.866
    current = (5.0 - 0.1 - 1.3 - 0.9) / 56
    e = 40 * current * 10 * ir_calc.badge_min(ir_calc.TYPICAL, 67.5) / 2.2 ** 2
    assert ir_calc.margin(ir_calc.TYPICAL, 2.2, 0) == pytest.approx(
        10 * math.log10(e / (0.15 / math.sin(math.pi / 3))))


def test_weaker_parts_and_wider_angles_lower_the_margin_and_narrow_the_acceptance():
    for d in ir_calc.DISTANCES:
        typ = [ir_calc.margin(ir_calc.TYPICAL, d, a) for a in ir_calc.ANGLES]
        worst = [ir_calc.margin(ir_calc.WORST, d, a) for a in ir_calc.ANGLES]
        assert typ == sorted(typ, reverse=True)
        assert all(w < t for w, t in zip(worst, typ, strict=True))
    cost = sum(v for _, v in ir_calc._cost_rows())
    assert ir_calc.margin(ir_calc.WORST, 1, 0) - ir_calc.margin(ir_calc.TYPICAL, 1, 0) == \
        pytest.approx(cost)


def test_crosstalk_stays_under_even_the_most_sensitive_receiver():
    rows = ir_calc.crosstalk_rows()
    assert len(rows) == 9
    assert all(e < ir_calc.TYPICAL.sensitive_threshold_mw_m2 for _, _, e in rows)
    assert parts.RX_EE_MIN["typical"] > parts.RX_EE_MIN_SENSITIVE


def test_the_reads_lie_inside_every_receivers_answer():
    cycle = 1e6 / parts.CARRIER_HZ
    assert ir_calc.READ_US[0] - parts.RX_DELAY_CYCLES[1] * cycle >= ir_calc.LATE_US
    assert ir_calc.READ_US[-1] < parts.BURST_US
    assert "three times: 698, 848 and 998 µs after the slot's start" in PROSE


def test_the_model_reads_the_printed_aperture():
    assert ir_calc.TYPICAL.bore_mm == ir_calc.scad("bore")
    assert ir_calc.TYPICAL.stops_mm == ir_calc.scad("stops")
