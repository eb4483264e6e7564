"""The guns' IMUs: one LSM6DS3TR-C per gun, each behind its own channel of a TCA9548A
I2C multiplexer at the hub (hardware/IMU.md has the bus, the cable and the rates).

`Imus.poll` reads a few guns per main-loop pass, in turn, and hands each sample to the
hub core in physical units (gyro °/s, accelerometer g, the gun's frame: the breakout's
x along the barrel, y to the left, z up). A gun whose IMU does not answer, or answers
as another chip, is retried every `RETRY_MS` and reported as a failed read. The chip's
registers, setup and scaling are shared with the Pi's reader (lsm6.py, from companion/wire).
"""

import machine
from lsm6 import BURST, CHIP, OUTX_L_G, SETUP, WHO, WHO_AM_I, sample

MUX = 0x70  # TCA9548A, A0..A2 low
RETRY_MS = 1000


class Imus:
    """The seats' IMUs on one I2C bus through the multiplexer."""

    def __init__(self, config, seats):
        pins = config["pins"]["i2c"]
        self._i2c = machine.I2C(config["i2c_id"], sda=machine.Pin(pins[0]),
                                scl=machine.Pin(pins[1]), freq=config["i2c_hz"])
        self._seats = list(seats)
        self._ready = {}  # seat -> started; absent: never tried or failed
        self._tried = {}  # seat -> when it last failed
        self._buf = bytearray(BURST)
        self._mux = bytearray(1)
        self._one = bytearray(1)
        self._k = 0

    def _select(self, seat):
        self._mux[0] = 1 << (seat - 1)
        self._i2c.writeto(MUX, self._mux)

    def _start(self, seat):
        """Check the chip and set it up; False if it is not an LSM6DS3TR-C."""
        self._i2c.readfrom_mem_into(CHIP, WHO_AM_I, self._one)
        if self._one[0] != WHO:
            return False
        for reg, value in SETUP:
            self._one[0] = value
            self._i2c.writeto_mem(CHIP, reg, self._one)
        return True

    def read(self, seat, now_ms):
        """One sample of seat's gun, or None (not answering, or not the chip)."""
        if seat not in self._ready:
            last = self._tried.get(seat)
            if last is not None and 0 <= now_ms - last < RETRY_MS:
                return None
        try:
            self._select(seat)
            if seat not in self._ready:
                if not self._start(seat):
                    raise OSError("not an LSM6DS3TR-C")
                self._ready[seat] = True
            self._i2c.readfrom_mem_into(CHIP, OUTX_L_G, self._buf)
        except OSError:
            self._ready.pop(seat, None)
            self._tried[seat] = now_ms
            return None
        return sample(self._buf)

    def poll(self, hub, now_ms, count):
        """Read the next `count` guns in turn into the hub core."""
        for _ in range(count):
            seat = self._seats[self._k]
            self._k = (self._k + 1) % len(self._seats)
            hub.imu(now_ms, seat, self.read(seat, now_ms))
