"""Playing the beacon frames on PWM carriers, slot after slot.

Only `time` and the PWM objects passed in are touched, so the timing can be checked
under the unix port with a stand-in PWM that logs its duty changes.
"""

import gc
import time

import irframe


def play(pwm, durations, duty_u16):
    """Play one frame: carrier on for marks, off for spaces, each edge on its own deadline.

    Deadlines count from the start of the frame, so a late edge does not push the
    next one; busy waiting is what keeps the marks within tens of µs.
    """
    deadline = time.ticks_us()
    on = True
    for d in durations:
        pwm.duty_u16(duty_u16 if on else 0)
        deadline = time.ticks_add(deadline, d)
        while time.ticks_diff(deadline, time.ticks_us()) > 0:
            pass
        on = not on
    pwm.duty_u16(0)


class Beacons:
    """The beacons' slots: one frame per slot, one beacon at a time, never overlapping."""

    def __init__(self, hub, pwms, duty_u16):
        self._hub = hub
        self._pwms = pwms  # seat -> PWM
        self._duty = duty_u16
        self._frames = {}
        for seat in pwms:
            self._frames[seat] = irframe.encode(seat)
        self._slot_start = time.ticks_us()

    def next_slot(self):
        """Wait for the next slot and play its seat's frame."""
        while time.ticks_diff(self._slot_start, time.ticks_us()) > 0:
            pass
        seat = self._hub.next_seat()
        start = time.ticks_us()
        self._slot_start = time.ticks_add(start, self._hub.slot_us)
        play(self._pwms[seat], self._frames[seat], self._duty)
        if seat == self._hub.order[0]:
            gc.collect()  # once a round, in the gap, so a collection never cuts a frame
