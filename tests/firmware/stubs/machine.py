"""A stand-in for MicroPython's `machine` module under the unix port.

Pins, PWM, the watchdog, timers and registers cannot exist here. This module keeps
their state and plays a scripted world, the JSON file named by the environment
variable MACHINE_WORLD: a list of events, each at `"at_ms"` from start, of which

- `"level": L, "pin": P`: the pin reads L from then on (at 0 ms, from power on);
- `"ir": {"SEAT": MASK, ...}`: from then on, while the hub's carrier is on and its
  address selects SEAT's badge, the receivers of MASK (bit s-1 = gun of seat s) see
  it; `"0"` is what they report in the dark slot (noise);
- `"inputs": BYTE`: the 8 inputs of the hub's 74HC165 (the standees' reeds) from then
  on, shifted out on GP17 as GP15/GP16 load and clock;
- `"imu": {"SEAT": [GX, GY, GZ, AX, AY, AZ]}`: from then on, the LSM6DS3TR-C behind
  channel SEAT of the TCA9548A answers with these raw readings; a seat not listed has
  no chip (no acknowledge: OSError), as with its cable out;
- `"stall_ms": D`: the main loop stops for D ms in `idle()`, as a blocked USB write
  would stop it;
- `"clock": "off"`: the stand-in PIO clock (stubs/rp2.py) plays no slots.

Each byte latched into the hub's 74HC595 (the lock LEDs, GP12..GP14) is written on
stderr as `machine stub: locks XX at T ms`.

The hub's wiring (firmware/README.md) is built in: receivers on GP0..GP7 in the
SIO's GPIO_IN register, carrier PWM on GP8, badge address on GP9..GP11. A watchdog
left unfed for its timeout ends the process with status 99; a timer says on stderr
that it was started (it cannot tick here).
"""

import json
import os
import sys
import time

_pins = {}
_levels = {}  # world levels of pins not created yet
_events = []  # (t_us from start, pin id, level), in time order
_ir = []  # (t_us, {seat: mask}), in time order
_inputs = []  # (t_us, 74HC165 byte), in time order; all high (open) before
_imus = []  # (t_us, {seat: six raw readings}), in time order
_stalls = []  # (t_us, ms)
_next = [0]
_wdts = []
_timers = []
_pwms = {}
_start = time.ticks_us()
clock_thread = True  # whether rp2's stand-in slot clock runs
# the time, from start, of the slot rp2's stand-in clock is playing: the receivers see the
# world as of it, as the hardware's slot sees it on time, even when a busy host runs the
# clock's thread late and it catches up (None: no clock, they see it as of now)
slot_at_us = None

GPIO_IN = 0xD0000004
GPIO_OUT_SET = 0xD0000014
GPIO_OUT_CLR = 0xD0000018
_CARRIER, _ADDRESS, _LOAD, _CLOCK, _DATA = 8, 9, 15, 16, 17
_LED_DATA, _LED_CLOCK, _LED_LATCH = 12, 13, 14


def _load_world():
    global clock_thread
    path = os.getenv("MACHINE_WORLD")
    if not path:
        return
    with open(path) as f:
        world = json.load(f)
    for ev in world:
        t = ev["at_ms"] * 1000
        if "ir" in ev:
            _ir.append((t, {int(k): v for k, v in ev["ir"].items()}))
        elif "inputs" in ev:
            _inputs.append((t, ev["inputs"]))
        elif "imu" in ev:
            _imus.append((t, {int(k): v for k, v in ev["imu"].items()}))
        elif "stall_ms" in ev:
            _stalls.append((t, ev["stall_ms"]))
        elif "clock" in ev:
            clock_thread = ev["clock"] != "off"
        elif t == 0:
            _levels[ev["pin"]] = ev["level"]  # the level from power on
        else:
            _events.append((t, ev["pin"], ev["level"]))
    for timeline in (_events, _ir, _inputs, _imus, _stalls):
        timeline.sort(key=lambda e: e[0])


def _now_us():
    return time.ticks_diff(time.ticks_us(), _start)  # the board's clock (stubs/time.py)


def _at(timeline, default, now=None):
    if now is None:
        now = _now_us()
    got = default
    for t, value in timeline:
        if t > now:
            break
        got = value
    return got


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, pin_id, mode=IN, pull=None, value=None):
        self.id = pin_id
        self.mode = mode
        self._level = _levels.get(pin_id, 1 if pull == Pin.PULL_UP else 0)
        if value is not None:
            self._level = value
        _pins[pin_id] = self

    def value(self, v=None):
        if v is None:
            return self._level
        self._level = 1 if v else 0
        _chain.wrote(self.id, self._level)
        _leds.wrote(self.id, self._level)
        return None


class _Chain165:
    """One 74HC165: a low load latches the world's inputs, each clock shifts one out."""

    def __init__(self):
        self._word = 0xFF
        self._clock = 0

    def wrote(self, pin_id, level):
        if pin_id == _LOAD and level == 0:
            self._word = _at(_inputs, 0xFF)
        elif pin_id == _CLOCK and level != self._clock:
            self._clock = level
            if level:
                self._word = (self._word << 1 | 1) & 0xFF  # SER tied high
        else:
            return
        if _DATA in _pins:
            _pins[_DATA]._level = self._word >> 7


_chain = _Chain165()


class _Chain595:
    """The lock LEDs' 74HC595: shifts on clock rises, reports each latched byte."""

    def __init__(self):
        self._byte = 0
        self._levels = {_LED_CLOCK: 0, _LED_LATCH: 0}

    def wrote(self, pin_id, level):
        if pin_id not in self._levels or level == self._levels[pin_id]:
            return
        self._levels[pin_id] = level
        if not level:
            return
        if pin_id == _LED_CLOCK:
            self._byte = (self._byte << 1 | _pins[_LED_DATA]._level) & 0xFF
        else:
            sys.stderr.write(f"machine stub: locks {self._byte:02x} at {_now_us() // 1000} ms\n")


_leds = _Chain595()


class I2C:
    """The hub's I2C bus: a TCA9548A at 0x70 and, behind each channel the world gives an
    `imu`, an LSM6DS3TR-C at 0x6A (WHO_AM_I 0x6A, control registers kept, readings from
    0x22 on: gyro then accelerometer, little-endian). Every transfer is logged."""

    def __init__(self, bus_id, sda=None, scl=None, freq=400000):
        self.id, self.freq = bus_id, freq
        self._channels = 0
        self.regs = {}  # seat -> {register: value} written
        _buses.append(self)

    def _chip(self, addr):
        """The seat whose chip answers at addr now, or OSError (no acknowledge)."""
        imus = _imus_now()
        for seat in imus:
            if addr == 0x6A and self._channels == 1 << (seat - 1):
                return seat
        raise OSError(19)  # ENODEV: MicroPython's "no acknowledge"

    def writeto(self, addr, buf):
        if addr != 0x70:
            self._chip(addr)
            return
        self._channels = buf[0]

    def writeto_mem(self, addr, reg, buf):
        seat = self._chip(addr)
        self.regs.setdefault(seat, {})[reg] = buf[0]

    def readfrom_mem_into(self, addr, reg, buf):
        seat = self._chip(addr)
        if reg == 0x0F:
            buf[0] = 0x6A
            return
        if reg != 0x22 or len(buf) != 12:
            raise OSError(5)
        raw = _imus_now()[seat]
        for i in range(6):
            v = raw[i] & 0xFFFF
            buf[2 * i], buf[2 * i + 1] = v & 0xFF, v >> 8


_buses = []
_imu_i = [0]  # the IMUs' timeline only moves forward: where it stood last


def _imus_now():
    now = _now_us()
    i = _imu_i[0]
    while i + 1 < len(_imus) and _imus[i + 1][0] <= now:
        i += 1
    _imu_i[0] = i
    return _imus[i][1] if _imus and _imus[i][0] <= now else {}


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self.freq = freq
        self.duty = duty_u16
        _pwms[pin.id] = self

    def duty_u16(self, duty):
        self.duty = duty


_NO_IR = {}  # (a constant: the slot IRQ reads registers with the heap locked)


class _Registers:
    """`mem32`: the SIO's GPIO_IN (receivers, active low) and GPIO_OUT set/clear."""

    def __init__(self):
        self._out = 0

    def __getitem__(self, address):
        if address != GPIO_IN:
            raise ValueError(f"machine stub: no register {address:x}")
        carrier = _pwms.get(_CARRIER)
        table = _at(_ir, _NO_IR, slot_at_us)
        if carrier is not None and carrier.duty:
            seen = table.get((self._out >> _ADDRESS & 7) + 1, 0)
        else:
            seen = table.get(0, 0)
        return (self._out & ~0xFF) | (~seen & 0xFF)

    def __setitem__(self, address, value):
        if address == GPIO_OUT_SET:
            self._out |= value
        elif address == GPIO_OUT_CLR:
            self._out &= ~value
        else:
            raise ValueError(f"machine stub: no register {address:x}")


mem32 = _Registers()


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self._fed = time.ticks_ms()
        _wdts.append(self)

    def feed(self):
        _check_wdts()
        self._fed = time.ticks_ms()


def _check_wdts():
    for w in _wdts:
        if time.ticks_diff(time.ticks_ms(), w._fed) > w.timeout:
            sys.stderr.write("machine stub: watchdog reset\n")
            sys.exit(99)


class Timer:
    PERIODIC = 1
    ONE_SHOT = 0

    def __init__(self, id=-1, mode=PERIODIC, period=-1, callback=None):
        self.callback = callback
        sys.stderr.write(f"machine stub: timer every {period} ms\n")
        _timers.append(self)


def idle():
    _check_wdts()
    if _stalls and _stalls[0][0] <= _now_us():
        time.sleep_ms(_stalls.pop(0)[1])  # the loop is stuck; interrupts go on
    while _next[0] < len(_events) and _events[_next[0]][0] <= _now_us():
        _, pin_id, level = _events[_next[0]]
        _next[0] += 1
        if pin_id in _pins:
            _pins[pin_id]._level = level
        else:
            _levels[pin_id] = level
    time.sleep_ms(1)


_load_world()
