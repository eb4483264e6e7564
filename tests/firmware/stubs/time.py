"""A stand-in for MicroPython's `time` under the unix port: the board's clock.

It is the port's own clock less the time the host ran nothing of this process: no
board's hardware ever stops, but a busy host may leave the board's process unrun for a
second, booting or running. A board's process reads its clock every pass of its main
loop and every slot (stubs/rp2.py), so a read that finds the clock more than
`STOOD_STILL_US` past the last read by any thread, and past any sleep asked for, finds
such a gap: the board's clock stood still through it, and the firmware, the world the
stand-in `machine` plays on this clock and the slots all go on from where they stood,
with no gap a board could not have.
"""

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

_stood_us = [0]  # the host's time this process stood still, in all
_seen = [None]  # the host's ticks_us at the latest read, or the end of a sleep asked for


def host_us():
    """The host's ticks_us, a gap since the last read counted as standing still."""
    now = host.ticks_us()
    seen = _seen[0]
    if seen is None or host.ticks_diff(now, seen) > 0:
        if seen is not None and host.ticks_diff(now, seen) > STOOD_STILL_US:
            _stood_us[0] += host.ticks_diff(now, seen)
        _seen[0] = now
    return now


def sleep_us(us):
    """A sleep is the board's time passing, not standing still."""
    end = host.ticks_add(host_us(), us)
    if host.ticks_diff(end, _seen[0]) > 0:
        _seen[0] = end
    host.sleep_us(us)


def sleep_ms(ms):
    sleep_us(ms * 1000)


def stood_us():
    """The host's time this process stood still so far."""
    return _stood_us[0]


def on_board(at_us):
    """The board's ticks_us at the host's `at_us`."""
    return host.ticks_add(at_us, -_stood_us[0])


def ticks_us():
    return on_board(host_us())


def ticks_ms():
    host_us()
    return host.ticks_add(host.ticks_ms(), -(_stood_us[0] // 1000))
