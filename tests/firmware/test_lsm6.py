"""The IMU chip's shared setup and scaling (companion/wire/lsm6.py), as the hub and the Pi
both use them: the setup writes put a datasheet chip (tests/sensors/fake_i2c.py) in the
ranges the scaling assumes, and the MicroPython unix port scales a burst as CPython does."""

import json
import math
import subprocess

import pytest
from firmware_harness import HERE, ROOT

from companion.wire import lsm6
from tests.sensors.fake_i2c import FakeImu

# the chip's gyro bias (fake_i2c.FakeImu.bias) is in every gyro reading
HELD = [(-30.0, 0.0, 0.0), (45.0, 120.0, -20.0), (-80.0, -300.0, 250.0)]


def _burst(elevation: float, yaw_dps: float, pitch_dps: float) -> bytes:
    chip = FakeImu()
    for register, value in lsm6.SETUP:
        chip.write(register, value)
    chip.elevation, chip.yaw_dps, chip.pitch_dps = elevation, yaw_dps, pitch_dps
    return bytes(chip.read(lsm6.OUTX_L_G + i) for i in range(lsm6.BURST))


@pytest.mark.parametrize("elevation, yaw, pitch", HELD)
def test_a_set_up_chip_reads_back_in_degrees_per_second_and_g(elevation, yaw, pitch):
    gx, gy, gz, ax, ay, az = lsm6.sample(_burst(elevation, yaw, pitch))
    bx, by, bz = FakeImu().bias
    half_count_dps, half_count_g = 0.0175 / 2, 0.000061 / 2  # the datasheet's sensitivities
    assert gx == pytest.approx(bx, abs=half_count_dps)
    assert gy == pytest.approx(by - pitch, abs=half_count_dps)  # nose up turns about -y
    assert gz == pytest.approx(bz + yaw, abs=half_count_dps)
    assert math.degrees(math.atan2(ax, az)) == pytest.approx(elevation, abs=0.01)
    assert (ay, math.hypot(ax, az)) == pytest.approx((0.0, 1.0), abs=half_count_g * 2)


def test_the_chip_is_asked_for_the_ranges_the_scaling_assumes():
    """Gyro ±500 °/s and accelerometer ±2 g (FS bits 0b01 and 0b00), both at 104 Hz."""
    setup = dict(lsm6.SETUP)
    assert setup[lsm6.CTRL2_G] >> 4 == 0b0100 and setup[lsm6.CTRL2_G] >> 2 & 0b11 == 0b01
    assert setup[lsm6.CTRL1_XL] >> 4 == 0b0100 and setup[lsm6.CTRL1_XL] >> 2 & 0b11 == 0b00


def test_micropython_scales_a_burst_as_cpython_does(micropython, tmp_path):
    bursts = [_burst(*held) for held in HELD]
    script = tmp_path / "scale.py"
    script.write_text(
        "import json, lsm6\n"
        f"print(json.dumps([lsm6.sample(bytes(b)) for b in {[list(b) for b in bursts]}]))\n")
    done = subprocess.run([micropython.binary, str(script)], capture_output=True, text=True,
                          env=micropython.env([HERE / "stubs", ROOT / "companion" / "wire"]),
                          timeout=30)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got == [pytest.approx(list(lsm6.sample(b)), rel=1e-6) for b in bursts]
