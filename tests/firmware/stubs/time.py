"""A stand-in for MicroPython's `time` under the unix port: the board's clock.

It is the port's own clock less the time the host ran nothing of this process: no
board's hardware ever stops, but a busy host may leave the board's process unrun for a
second, booting or running. A board's process reads its clock every pass of its main
loop and every slot (stubs/rp2.py), so a read that finds the clock more than
`STOOD_STILL_US` past the last read by any thread, and past any sleep asked for, finds
such a gap: the board's clock stood still through it, and the firmware, the world the
stand-in `machine` plays on this clock and the slots all go on from where they stood,
with no gap a board could not have.

The main loop and the slot clock's thread read it, so a read and what it finds are
one step under a lock: two threads finding the same gap count it once, and a reading
is never taken on one side of a gap and turned into the board's time on the other
(either made the board's clock run backwards by the gap).
"""

import _thread
import sys

_path, sys.path = sys.path, []  # the port's own module, not this file again
try:
    import time as host
finally:
    sys.path = _path

STOOD_STILL_US = 50_000  # 25 slots of 2 ms: a tenth of the hub's ring

ticks_add = host.ticks_add
ticks_diff = host.ticks_diff
time = host.time

_lock = _thread.allocate_lock()
_stood_us = [0]  # the host's time this process stood still, in all
_seen = [None]  # the host's ticks_us at the latest read, or the end of a sleep asked for


def _read():
    """The host's ticks_us, a gap since the last read counted in `_stood_us`; the caller
    holds `_lock`. (Nothing allocated: a hard IRQ's handler reads the clock.)"""
    now = host.ticks_us()
    seen = _seen[0]
    if seen is None or host.ticks_diff(now, seen) > 0:
        if seen is not None and host.ticks_diff(now, seen) > STOOD_STILL_US:
            _stood_us[0] += host.ticks_diff(now, seen)
        _seen[0] = now
    return now


def host_and_stood():
    """The host's ticks_us and the time this process stood still up to it, read together."""
    with _lock:
        return _read(), _stood_us[0]


def host_us():
    """The host's ticks_us, a gap since the last read counted as standing still."""
    with _lock:
        return _read()


def sleep_us(us):
    """A sleep is the board's time passing, not standing still."""
    with _lock:
        end = host.ticks_add(_read(), us)
        if host.ticks_diff(end, _seen[0]) > 0:
            _seen[0] = end
    host.sleep_us(us)


def sleep_ms(ms):
    sleep_us(ms * 1000)


def ticks_us():
    with _lock:
        return host.ticks_add(_read(), -_stood_us[0])


def ticks_ms():
    # the port's ticks wrap at 2**62 µs, never in a test: its ms are its µs // 1000
    return ticks_us() // 1000
