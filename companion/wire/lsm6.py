"""The guns' IMU chip, the LSM6DS3TR-C: its registers, the setup the guns use and the
scaling of a burst read. One place for both readers: the hub's (firmware/hub/imu.py,
MicroPython, flat in /lib) and the Pi's (companion/sensors/pi_imu.py, for a table without
a hub). Each gun's chip sits behind its own channel of a TCA9548A (hardware/IMU.md).
"""

import struct

CHIP = 0x6A  # the LSM6DS3TR-C's address, SA0 low
WHO_AM_I, WHO = 0x0F, 0x6A  # its identity register and what it reads
STATUS_REG, XLDA = 0x1E, 0x01  # the accelerometer has data (clear in power-down)
CTRL1_XL, CTRL2_G, CTRL3_C = 0x10, 0x11, 0x12
OUTX_L_G = 0x22  # gyro x, y, z then accelerometer x, y, z: 12 bytes, little-endian
BURST = 12  # bytes of one sample from OUTX_L_G
SETUP = ((CTRL3_C, 0x44),  # block data update, register address auto-increment
         (CTRL1_XL, 0x40),  # accelerometer 104 Hz, ±2 g
         (CTRL2_G, 0x44))  # gyro 104 Hz, ±500 °/s
GYRO_DPS = 0.0175  # °/s per count at ±500 °/s (the datasheet's sensitivity)
ACCEL_G = 0.000061  # g per count at ±2 g


def sample(burst: bytes) -> "tuple[float, ...]":
    """A burst of BURST bytes from OUTX_L_G as (gx, gy, gz in °/s, ax, ay, az in g)."""
    gx, gy, gz, ax, ay, az = struct.unpack("<6h", burst)
    return (gx * GYRO_DPS, gy * GYRO_DPS, gz * GYRO_DPS,
            ax * ACCEL_G, ay * ACCEL_G, az * ACCEL_G)
