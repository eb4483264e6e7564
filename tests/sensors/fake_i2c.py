"""A fake I2C bus for the guns' IMUs: a TCA9548A at 0x70 and an LSM6DS3TR-C per channel.

The chips cannot exist here. The fake keeps the registers the datasheets give (TCA9548A:
the control byte selects channels, bit n for channel n; LSM6DS3TR-C: WHO_AM_I 0x0F reads
0x6A, CTRL1_XL 0x10 and CTRL2_G 0x11 start the accelerometer and the gyro, STATUS_REG 0x1E,
the outputs from OUTX_L_G 0x22: gyro x, y, z then accelerometer x, y, z, little-endian)
behind smbus2's SMBus calls. A gun is described physically (its elevation and how fast it
turns); the chip turns that into counts by the datasheet's sensitivities at the ranges the
setup writes ask for, so the expectations of the tests come from geometry, not the reader.
"""

from __future__ import annotations

import errno
import math
import struct

MUX, CHIP = 0x70, 0x6A
DPS_PER_COUNT = {0x4: 0.0175, 0x0: 0.00875, 0x8: 0.035, 0xC: 0.070}  # CTRL2_G FS_G bits 3:2
G_PER_COUNT = {0x0: 0.000061, 0x8: 0.000122, 0xC: 0.000244, 0x4: 0.000488}  # CTRL1_XL FS_XL


def no_answer() -> OSError:
    return OSError(errno.EREMOTEIO, "Remote I/O error")


class FakeImu:
    """One gun: x along the barrel, y to its left, z up through its top."""

    def __init__(self, who: int = 0x6A) -> None:
        self.who = who
        self.elevation = -80.0  # degrees above the horizon: hanging at the player's side
        self.yaw_dps = 0.0  # turning left (about z)
        self.pitch_dps = 0.0  # nose rising
        self.bias = (0.0, 4.0, -6.0)  # the gyro's zero-rate level, °/s (datasheet: ±10)
        self.regs = {0x10: 0, 0x11: 0, 0x12: 0x04}  # power-down after reset
        self.writes: list[tuple[int, int]] = []

    def restart(self) -> None:
        """Power cycled (its cord replugged): back in power-down."""
        self.regs = {0x10: 0, 0x11: 0, 0x12: 0x04}

    def read(self, register: int) -> int:
        if register == 0x0F:
            return self.who
        if register == 0x1E:  # STATUS_REG: XLDA bit 0, GDA bit 1 while each one runs
            return (1 if self.regs[0x10] >> 4 else 0) | (2 if self.regs[0x11] >> 4 else 0)
        if 0x22 <= register < 0x2E:
            return self._outputs()[register - 0x22]
        return self.regs.get(register, 0)

    def write(self, register: int, value: int) -> None:
        self.writes.append((register, value))
        self.regs[register] = value

    def _outputs(self) -> bytes:
        el = math.radians(self.elevation)
        gyro = (0.0, -self.pitch_dps, self.yaw_dps)  # nose up turns about -y
        accel = (math.sin(el), 0.0, math.cos(el))  # gravity's reaction, in g
        g_on, xl_on = self.regs[0x11] >> 4, self.regs[0x10] >> 4
        dps, g = DPS_PER_COUNT[self.regs[0x11] & 0xC], G_PER_COUNT[self.regs[0x10] & 0xC]
        counts = [round((w + b) / dps) if g_on else 0 for w, b in zip(gyro, self.bias,
                                                                       strict=True)]
        counts += [round(a / g) if xl_on else 0 for a in accel]
        return struct.pack("<6h", *(max(-32768, min(32767, c)) for c in counts))


class FakeBus:
    """smbus2's SMBus calls on a TCA9548A with a FakeImu on some channels."""

    def __init__(self, imus: dict[int, FakeImu]) -> None:
        self.imus = imus  # channel -> chip
        self.mask = 0
        self.unplugged: set[int] = set()  # channels whose cable is out
        self.closed = False
        self.transfers = 0

    def write_byte(self, i2c_addr: int, value: int) -> None:
        self.transfers += 1
        if i2c_addr != MUX:
            raise no_answer()
        self.mask = value

    def read_byte_data(self, i2c_addr: int, register: int) -> int:
        self.transfers += 1
        return self._chip(i2c_addr).read(register)

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None:
        self.transfers += 1
        self._chip(i2c_addr).write(register, value)

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]:
        self.transfers += 1
        chip = self._chip(i2c_addr)
        return [chip.read(register + i) for i in range(length)]

    def close(self) -> None:
        self.closed = True

    def _chip(self, i2c_addr: int) -> FakeImu:
        on = [c for c in self.imus if self.mask >> c & 1 and c not in self.unplugged]
        if i2c_addr != CHIP or not on:
            raise no_answer()  # nobody acknowledges the address
        assert len(on) == 1, "two chips at one address: channels selected together"
        return self.imus[on[0]]
