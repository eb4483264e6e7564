"""A stand-in for MicroPython's `rp2` module under the unix port: the PIO slot clock.

`asm_pio` records a program's instructions as the real one assembles them (running the
function with the instruction names in its globals). A `StateMachine` made active runs
that program cycle by cycle on paper (one cycle per µs at 1 MHz) to find when it raises
its IRQ flags, then plays those flags on a thread of its own, each handed to the PIO's
IRQ handler at once. The thread stands for the hardware: it goes on whatever the main
loop does, as a hard interrupt would, and each slot is played at its own time on the clock's
schedule (`machine.slot_at_us`: what the receivers see is the world's at that time, even if
a busy host runs the thread late and it catches up). The thread keeps its schedule on the
host's clock, shifted by the time the board's clock stood still (stubs/time.py: the host ran
nothing of this process, as no board's hardware ever stops), so the slots go on from where
they stood instead of racing through a backlog that would overflow the ring. A world with
`"clock": "off"` runs no thread.
"""

import _thread
import time

import machine

_X, _Y, _OSR, _X_DEC, _Y_DEC = "x", "y", "osr", "x_dec", "y_dec"
_GPIO_IN = 0xD0000004  # where the machine stand-in plays what the receivers see


class _Instruction:
    def __init__(self, program, op, args):
        self.op = op
        self.args = args
        self.delay = 0
        program.append(self)

    def __getitem__(self, delay):
        self.delay = delay
        return self


def asm_pio(**kwargs):
    def assemble(function):
        program = []

        def op(name):
            return lambda *args: _Instruction(program, name, args)

        names = {"x": _X, "y": _Y, "osr": _OSR, "x_dec": _X_DEC, "y_dec": _Y_DEC,
                 "pins": "pins", "noblock": "noblock"}
        for name in ("pull", "wrap_target", "wrap", "irq", "set", "jmp", "mov", "label",
                     "in_", "push"):
            names[name] = op(name)
        scope = function.__globals__
        saved = dict(scope)
        scope.update(names)
        try:
            function()
        finally:
            for name in names:
                del scope[name]
            scope.update(saved)
        return program

    return assemble


def flag_times(program, word, flags=3):
    """Run `program` with `word` in the TX FIFO: the cycles at which it raises its
    first `flags` IRQ flags, as [[cycle, flag], ...]."""
    labels = {}
    steps = []
    for ins in program:
        if ins.op == "label":
            labels[ins.args[0]] = len(steps)
        elif ins.op == "wrap_target":
            labels[None] = len(steps)
        elif ins.op != "wrap":
            steps.append(ins)
    regs = {_X: 0, _Y: 0, _OSR: 0}
    pc, cycle, raised = 0, 0, []
    while len(raised) < flags:
        ins = steps[pc]
        pc += 1
        if ins.op == "pull":
            regs[_OSR] = word
        elif ins.op == "irq":
            raised.append([cycle, ins.args[0]])
        elif ins.op == "set":
            regs[ins.args[0]] = ins.args[1]
        elif ins.op == "mov":
            regs[ins.args[0]] = regs[ins.args[1]]
        elif ins.op == "jmp":
            reg = _X if ins.args[0] == _X_DEC else _Y
            if regs[reg]:
                pc = labels[ins.args[1]]
            regs[reg] -= 1  # post-decrement, as the PIO does
        cycle += 1 + ins.delay
        if pc == len(steps):
            pc = labels[None]
    return raised


class _Irq:
    def __init__(self):
        self._flags = 0

    def flags(self):
        return self._flags


_pios = {}  # PIO block id -> the last one made, whose handler gets the flags
_running = {}  # state machine id -> the generation of its thread still allowed to run
_machines = {}  # state machine id -> the last one made, whose program pushes a word a burst


class PIO:
    SHIFT_LEFT = 0
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
        if flags & PIO.IRQ_SM1 and 0 in _machines:
            _machines[0]._unread = True  # the program pushed its reads before irq 1
        self._irq._flags = flags
        if self._handler is not None:
            self._handler(self)


class StateMachine:
    def __init__(self, sm_id, program, freq=125000000, in_base=None):
        if freq != 1000000:
            raise ValueError("rp2 stub: the slot clock runs at 1 MHz (a cycle per µs)")
        self.id = sm_id
        self._program = program
        self._word = None
        self._in_base = in_base.id if in_base is not None else 0
        self._unread = False
        _machines[sm_id] = self
        self._stopped = True
        _running[sm_id] = _running.get(sm_id, 0) + 1
        self._generation = _running[sm_id]

    def put(self, word):
        self._word = word

    def get(self):
        """The word the program pushed: its three reads of the receivers, which the
        machine stand-in plays for the burst in progress."""
        self._unread = False
        pins = machine.mem32[_GPIO_IN] >> self._in_base & 0xFF
        return pins << 16 | pins << 8 | pins

    def rx_fifo(self):
        return 1 if self._unread else 0

    def active(self, on=None):
        if on and machine.clock_thread:
            self._stopped = False
            _thread.start_new_thread(self._run, ())
        elif on is not None:
            _running[self.id] += 1  # the thread stops at its next edge
            while not self._stopped:  # as the hardware does at once
                time.sleep_ms(1)

    def _live(self):
        return _running[self.id] == self._generation

    def _run(self):
        try:
            self._play()
        finally:
            self._stopped = True

    def _play(self):
        pio = _pios[self.id // 4]
        (start0, _), (end, _), (start1, _) = flag_times(self._program, self._word)
        burst_us, slot_us = end - start0, start1 - start0
        start, stood = time.host_and_stood()
        while self._live():
            _, now_stood = time.host_and_stood()
            if now_stood != stood:  # the board's clock stood still: so does the PIO
                start = time.ticks_add(start, now_stood - stood)
                stood = now_stood
            _wait(start)
            if not self._live():
                return
            # its time on the board's clock, as scheduled: a stop in the wait is not in it
            at = time.ticks_diff(time.ticks_add(start, -stood), machine._start)
            machine.slot_at_us = at
            pio._raise(PIO.IRQ_SM0)
            _wait(time.ticks_add(start, burst_us))
            machine.slot_at_us = at + burst_us
            pio._raise(PIO.IRQ_SM1)
            start = time.ticks_add(start, slot_us)


def _wait(t_us):
    """Until `t_us` on the host's clock."""
    left = time.ticks_diff(t_us, time.host_us())
    if left > 300:
        time.sleep_us(left - 200)
    while time.ticks_diff(t_us, time.host_us()) > 0:
        pass
