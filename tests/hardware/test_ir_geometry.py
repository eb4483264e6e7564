"""The seating, tilt and slot numbers in hardware/IR.md: computed by geometry.py and the
same as in the doc (the optics: test_ir_calc.py)."""

import geometry
import pytest
from hardware_dir import HARDWARE

IR = (HARDWARE / "IR.md").read_text()


@pytest.mark.parametrize("seats", range(4, 9))
@pytest.mark.parametrize("diameter", geometry.ROUND_SIZES)
def test_worn_targets_on_a_round_table_are_180_over_n_apart(seats, diameter):
    assert geometry.round_separation(seats, diameter) == pytest.approx(180 / seats)


def test_the_doc_shows_22_5_degrees_at_8_seats_on_every_round_table():
    for diameter in geometry.ROUND_SIZES:
        assert f"| 8 | {diameter:.1f} | 22.5° |" in IR


def test_the_doc_holds_the_tables_geometry_computes_now():
    assert geometry.fill(IR, geometry.tables()) == IR


def test_a_sweep_never_stays_a_hold_inside_the_acceptance():
    assert geometry.sweep_ms() == pytest.approx(333.3, abs=0.1)
    assert geometry.sweep_ms() < geometry.HOLD_MS


def test_slots_are_those_of_the_spec():
    assert geometry.slots(8) == (9, 18.0, pytest.approx(55.6, abs=0.05), pytest.approx(444.4,
                                                                                        abs=0.1))
    assert geometry.slots(4)[1] == 10.0
    assert geometry.slots(8)[3] < geometry.MAX_SHORT_BURSTS_PER_S
    assert geometry.BURST_US / 1e6 * geometry.CARRIER_HZ == 38  # 10..70 cycles


def test_a_tilt_switch_at_its_mount_has_a_window_between_aiming_and_lowered():
    aiming, lowered = geometry.tilt_window(geometry.TILT_MOUNT)
    assert aiming < lowered
    upright = geometry.switch_angle(geometry.TILT_MOUNT, 0, geometry.TILT_MOUNT)
    assert upright == pytest.approx(0, abs=1e-3)
    assert geometry.switch_angle(-50, 0, geometry.TILT_MOUNT) == pytest.approx(60)
