"""A stand-in for MicroPython's `rp2` module under the unix port: the PIO slot clock.

`asm_pio` keeps the program unassembled. A `StateMachine` given a count with `put`
and made active plays the hub's slot clock (firmware/hub/main.py) on a thread of its
own: PIO flag 0 at each slot's start, flag 1 1000 µs later, a slot every count + 1004
µs, each flag handed to the PIO's IRQ handler at once. The thread stands for the
hardware: it goes on whatever the main loop does, as a hard interrupt would.
"""

import _thread
import time

_BURST_US = 1000
_OVERHEAD = 1004


def asm_pio(**kwargs):
    def keep(program):
        return program

    return keep


class _Irq:
    def __init__(self):
        self._flags = 0

    def flags(self):
        return self._flags


_pios = {}  # PIO block id -> the last one made, whose handler gets the flags


class PIO:
    IRQ_SM0 = 0x100
    IRQ_SM1 = 0x200

    def __init__(self, pio_id):
        self._irq = _Irq()
        self._handler = None
        _pios[pio_id] = self

    def irq(self, handler=None, trigger=0, hard=False):
        if handler is not None:
            self._handler = handler
        return self._irq

    def _raise(self, flags):
        self._irq._flags = flags
        if self._handler is not None:
            self._handler(self)


_running = {}  # state machine id -> the generation of its thread still allowed to run


class StateMachine:
    def __init__(self, sm_id, program, freq=125000000):
        self.id = sm_id
        self._count = None
        _running[sm_id] = _running.get(sm_id, 0) + 1
        self._generation = _running[sm_id]

    def put(self, word):
        self._count = word

    def active(self, on=None):
        if on:
            _thread.start_new_thread(self._run, ())
        elif on is not None:
            _running[self.id] += 1  # the thread stops at its next edge

    def _live(self):
        return _running[self.id] == self._generation

    def _run(self):
        pio = _pios[self.id // 4]
        slot_us = self._count + _OVERHEAD
        start = time.ticks_us()
        while self._live():
            _wait(start)
            if not self._live():
                return
            pio._raise(PIO.IRQ_SM0)
            _wait(time.ticks_add(start, _BURST_US))
            pio._raise(PIO.IRQ_SM1)
            start = time.ticks_add(start, slot_us)


def _wait(t_us):
    left = time.ticks_diff(t_us, time.ticks_us())
    if left > 300:
        time.sleep_us(left - 200)
    while time.ticks_diff(t_us, time.ticks_us()) > 0:
        pass
