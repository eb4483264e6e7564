"""The printed parts: the receiver's pocket from the current package, the standee's magnet
where it closes the reed, and dimensions on every part's render."""

import re

import build
import pytest
import reed
from hardware_dir import HARDWARE

CAD = HARDWARE / "cad"
VALUES = reed.scad_values()


def test_the_receiver_pocket_is_the_tsop382_package_of_now():
    # Vishay TSOP382.. package drawing: 5.0 wide, 6.95 high, 4.8 deep
    width, depth, height = VALUES["tsop"]
    assert (width, height, depth) == (5.0, 6.95, 4.8)


def test_the_magnet_sits_over_one_end_of_the_glass_not_over_its_middle():
    assert VALUES["magnet_over"] == VALUES["reed_glass"] / 2
    foot = (CAD / "standee_foot.scad").read_text()
    assert "translate([foot[0] / 2 + magnet_over, foot[1] / 2, -0.01])" in foot
    lid = (CAD / "pod_lid.scad").read_text()  # the reed's middle under the foot's centre
    assert "translate([pod[0] / 2, pod[1] / 2, t - 3 - floor_over_reed" in lid
    assert "+ 3" not in foot and "+ 3" not in lid  # the offsets that met over the middle


def test_a_magnet_over_the_middle_drives_nothing_and_over_the_end_closes_any_reed():
    assert reed.drive_at(VALUES, 0) == pytest.approx(0, abs=1e-9)  # the dead spot
    at_end = reed.drive_at(VALUES, VALUES["magnet_over"])
    assert at_end > 5 * reed.REED_AT[1]  # the least sensitive reed of the band, 5x over
    # moving the magnet from the middle towards the end only adds drive
    drives = [reed.drive_at(VALUES, x) for x in (0, 1, 2, 4, VALUES["magnet_over"])]
    assert drives == sorted(drives)
    # lying down, the standee's magnet is 20 mm or more away: under the band's 10 AT
    assert reed.drive_at(VALUES, VALUES["magnet_over"], 25) < reed.REED_AT[0]
    assert reed.pull_in_height_mm(VALUES) > 2 * reed.height_mm(VALUES)


def test_the_dipole_grid_is_the_magnets_moment():
    volume = 3.14159265 * 3e-3 ** 2 * 3e-3
    total = sum(m for *_, m in reed.DIPOLES)
    assert total == pytest.approx(reed.BR_TESLA / reed.MU0 * volume, rel=0.03)


def test_the_readme_states_the_placement_computed_now():
    readme = (HARDWARE / "README.md").read_text()
    assert reed.placement() in readme
    at_end = reed.drive_at(VALUES, VALUES["magnet_over"])
    assert f"{at_end:.0f} AT against {reed.REED_AT[1]}" in readme  # the bench table


@pytest.mark.parametrize("part", build.PARTS)
def test_every_printed_part_is_rendered_with_its_dimensions(part):
    text = (CAD / f"{part}.scad").read_text()
    body = text[text.index("if (show_dims)"):]
    assert len(re.findall(r"\bdim\(", body)) >= 2 or "aperture_dims()" in body, part
    source = (HARDWARE / "build.py").read_text()
    assert '"-D", "show_dims=true"' in source


def test_the_imu_pocket_is_the_breakouts_board_outline_with_clearance():
    # Adafruit 4503's board file (layer 20): 25.4 x 17.78 mm on 1.6 mm FR-4
    assert VALUES["imu_board"] == [25.4, 17.78, 1.6]
    insert = (CAD / "gun_insert.scad").read_text()
    assert 'sensor = "imu";' in insert  # the IMU's insert is the one built
    assert "pocket = [imu_board[1] + 2 * clear, imu_board[0] + 2 * clear];" in insert
    across, along = (VALUES["imu_board"][1] + 2 * VALUES["clear"],
                     VALUES["imu_board"][0] + 2 * VALUES["clear"])
    readme = (HARDWARE / "README.md").read_text()
    assert f"{across:.2f} × {along:.1f} × {VALUES['imu_board'][2]:.1f} mm" in readme
