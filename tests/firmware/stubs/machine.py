"""A stand-in for MicroPython's `machine` module under the unix port.

Pins, PWM, the watchdog and timers cannot exist here. This module keeps their state
and plays a scripted world onto the input pins: the JSON file named by the
environment variable MACHINE_WORLD lists events, each `{"at_ms": T, "pin": P}` with
either `"level": L` (the pin reads L from then on; at 0 ms, from power on) or
`"pulses": [µs, ...]` (a train of marks and spaces, mark first, seen as level 0
like a TSOP's output), optionally
repeated `"every_ms"` apart `"times"` times. `idle()`, which the board loops call,
applies due events and fires pin interrupts at the events' exact times, busy
waiting for them as a real edge would come. PWM duty changes are logged with their
time, a watchdog left unfed for its timeout ends the process with status 99, and a
timer says on stderr that it was started (it cannot tick here).
"""

import json
import os
import sys
import time

_HORIZON_US = 20000  # idle() fires the edges due this soon, so a frame is played whole

_pins = {}
_levels = {}  # world levels of pins not created yet
_events = []  # (t_us from start, pin id, level), in time order
_next = [0]
_wdts = []
_start = time.ticks_us()


def _load_world():
    path = os.getenv("MACHINE_WORLD")
    if not path:
        return
    with open(path) as f:
        world = json.load(f)
    for ev in world:
        base = ev["at_ms"] * 1000
        for k in range(ev.get("times", 1)):
            t = base + k * ev.get("every_ms", 0) * 1000
            if "level" in ev:
                if t == 0:
                    _levels[ev["pin"]] = ev["level"]  # the level from power on
                else:
                    _events.append((t, ev["pin"], ev["level"]))
                continue
            level = 0
            for d in ev["pulses"]:
                _events.append((t, ev["pin"], level))
                t += d
                level = 1 - level
            _events.append((t, ev["pin"], 1))
    _events.sort(key=lambda e: e[0])


def _now_us():
    return time.ticks_diff(time.ticks_us(), _start)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, pin_id, mode=IN, pull=None):
        self.id = pin_id
        self.mode = mode
        self._level = _levels.get(pin_id, 1 if pull == Pin.PULL_UP else 0)
        self._handler = None
        self._trigger = 0
        _pins[pin_id] = self

    def value(self, v=None):
        if v is None:
            return self._level
        self._level = 1 if v else 0
        return None

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self._handler = handler
        self._trigger = trigger

    def _drive(self, level):
        if level == self._level:
            return
        self._level = level
        edge = Pin.IRQ_RISING if level else Pin.IRQ_FALLING
        if self._handler is not None and self._trigger & edge:
            self._handler(self)


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self.freq = freq
        self.log = []  # (ticks_us, duty) per change
        self.duty_u16(duty_u16)

    def duty_u16(self, duty):
        self.log.append((time.ticks_us(), duty))


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


def idle():
    _check_wdts()
    fired = False
    while _next[0] < len(_events) and _events[_next[0]][0] <= _now_us() + _HORIZON_US:
        t, pin_id, level = _events[_next[0]]
        _next[0] += 1
        while _now_us() < t:
            pass
        if pin_id in _pins:
            _pins[pin_id]._drive(level)
        else:
            _levels[pin_id] = level
        fired = True
    if not fired:
        time.sleep_ms(1)


_load_world()
