"""Runs the board code under MicroPython on requests from the CPython tests.

Reads one JSON list of requests on stdin, answers one JSON list on stdout, so a
test can generate cases in CPython and check what the real runtime makes of them.
"""

import json
import sys
import time

import aimrule
import hubhw
import machine
import micropython
import rp2
from debounce import Debouncer
from drive import drive_hub
from hubcore import Hub


def debounce(stable_ms, initial, readings):
    d = Debouncer(stable_ms, initial)
    changes = []
    for t, raw in readings:
        v = d.update(t, raw)
        if v is not None:
            changes.append([t, v])
    return changes


def aim(window, looks):
    """The changes of a tracker fed `looks` ([t, mask]) as [index, state, value, t]."""
    tracker = aimrule.AimTracker(window)
    out = []
    for i, (t, mask) in enumerate(looks):
        change = tracker.look(t, mask)
        if change is not None:
            out.append([i, change[0], change[1], change[2]])
    return out


def hub(args, events):
    return drive_hub(Hub, args, events)


class _Recorder:
    """Takes the slots a ring hands over, as the hub core would."""

    def __init__(self):
        self.slots = []
        self.late = 0

    def slot(self, now_ms, seat, rx_mask):
        self.slots.append([seat, rx_mask])


def _hard_irq(pio, flags):
    """Raise PIO flags with the heap locked, as in a hard IRQ: any allocation fails."""
    micropython.heap_lock()
    try:
        pio._raise(flags)
    finally:
        micropython.heap_unlock()


class _SlotTime:
    """The microsecond clock hubhw reads, moved only by `slot_irq`'s plan: when a slot
    counts as late is then decided by the plan, not by how busy the host is."""

    def __init__(self):
        self.us = 0

    def ticks_us(self):
        return self.us

    def ticks_ms(self):
        return self.us // 1000

    def ticks_add(self, t, delta):
        return time.ticks_add(t, delta)

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)


def slot_irq(config, schedule, ir, plan):
    """The slot IRQ of hubhw.Slots, its edges raised here one by one (no clock thread),
    with the heap locked as in a hard IRQ, on a clock of its own (`_SlotTime`).

    `ir` is the world's {"seat": gun mask}; `plan` is a list of steps: ["slots", n, gap_us]
    (n slots, a slot start every gap_us), ["drain"]. Returns, per slot, [seat on the
    address or 0, carrier duty during the burst, duty after it], what each drain handed
    over, and the late count.
    """
    machine._ir.append((0, {int(k): v for k, v in ir.items()}))
    rp2.StateMachine.active = lambda self, on=None: None  # edges come from this function
    clock = _SlotTime()
    hubhw.time = clock
    slots = hubhw.Slots(config)
    slots.play(schedule, config["slot_us"])
    pio = rp2._pios[0]
    played = []
    drained = []
    for step in plan:
        if step[0] == "drain":
            hub = _Recorder()
            slots.drain(hub)
            drained.append(hub.slots)
            continue
        for _ in range(step[1]):
            _hard_irq(pio, rp2.PIO.IRQ_SM0)
            address = (machine.mem32._out >> 9 & 7) + 1
            duty = slots._carrier.duty
            _hard_irq(pio, rp2.PIO.IRQ_SM1)
            played.append([address if duty else 0, duty, slots._carrier.duty])
            clock.us += step[2]
    return {"played": played, "drained": drained, "late": slots.late}


def pio_clock(lengths):
    """When the hub's PIO program raises its flags, given the count for each slot length."""
    return [rp2.flag_times(hubhw.slot_clock, n - hubhw.CLOCK_OVERHEAD) for n in lengths]


HANDLERS = {
    "debounce": debounce,
    "aim": aim,
    "lock": aimrule.lock,
    "window_rounds": aimrule.window_rounds,
    "hub": hub,
    "slot_irq": slot_irq,
    "pio_clock": pio_clock,
}


def main():
    answers = []
    for req in json.loads(sys.stdin.read()):
        try:
            answers.append({"ok": HANDLERS[req[0]](*req[1:])})
        except Exception as e:
            answers.append({"error": f"{type(e).__name__}: {e}"})
    print(json.dumps(answers))


main()
