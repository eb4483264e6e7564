"""The hub's hardware layer: the slot IRQ and its ring, the lock LEDs, the inputs.

Slots are clocked by a PIO state machine, not by `machine.Timer`: on the RP2040
MicroPython's Timer is a soft timer with whole-millisecond periods, which cannot place
a 1000 µs burst in a 1500 µs slot. The state machine counts microseconds exactly and
raises two PIO interrupts per slot; their handler (a hard IRQ, so nothing the main loop
does can hold it back, a blocked USB write included) does the slot's work in a few
register accesses and allocates nothing:

- slot start: put the slot's seat on the 74HC238's address (GP9..GP11) and start the
  38 kHz carrier (PWM on GP8, the decoder's enable) unless it is the dark slot;
- end of the 1000 µs burst: take the receivers' three reads, stop the carrier, and store
  seat, mask and time in a ring.

The state machine itself reads all eight receivers (GP0..GP7, active low) at once, three
times, 698, 848 and 998 µs after the slot's start: a TSOP382's output goes low at most 15
carrier cycles (395 µs) after a burst starts and stays low until at least 2 cycles after
it ends, so the three reads fall inside every receiver's answer even when the handler
starts the carrier up to 300 µs late, and the carrier is stopped only after the last one.
A receiver counts as seeing the badge only if it was low at all three reads (150 µs
apart, 5.7 carrier periods): a spike on its line (the badge's own current pulses share
the seat cable) or a short noise pulse cannot make a look. hardware/IR.md has the timing.

The main loop (main.py) drains the ring into the hub core, shifts the lock LEDs out
through the 74HC595 and reads the standees through the 74HC165 (imu.py reads the guns).
"""

import array
import time

import machine
import rp2

GPIO_OUT_SET = 0xD0000014  # SIO registers
GPIO_OUT_CLR = 0xD0000018
RING = 256  # slots the main loop may fall behind by: half a second at 2 ms
LATE_US = 250  # a slot started this much later than due counts as late
CLOCK_HZ = 1000000  # the state machine's clock: one cycle per µs
CLOCK_OVERHEAD = 1003  # cycles of a slot besides the silence loop: y + 1003 in all


@rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT)
def slot_clock():  # PIO assembly: the names below are its instructions
    pull()  # noqa: F821 - the silence's count, kept in OSR
    wrap_target()  # noqa: F821
    irq(0)  # noqa: F821 - slot start (cycle 0)
    set(x, 20)[24]  # noqa: F821 - 25 cycles
    label("first")  # noqa: F821
    jmp(x_dec, "first")[31]  # noqa: F821 - 21 x 32 cycles
    in_(pins, 8)[10]  # noqa: F821 - read 1 at 698 µs
    set(x, 3)[10]  # noqa: F821
    label("second")  # noqa: F821
    jmp(x_dec, "second")[31]  # noqa: F821 - 4 x 32 cycles: 150 in all since read 1
    in_(pins, 8)[10]  # noqa: F821 - read 2 at 848 µs
    set(x, 3)[10]  # noqa: F821
    label("third")  # noqa: F821
    jmp(x_dec, "third")[31]  # noqa: F821
    in_(pins, 8)  # noqa: F821 - read 3 at 998 µs
    push(noblock)  # noqa: F821 - the three reads, read 1 in the top byte
    irq(1)  # noqa: F821 - end of the burst, 1000 µs after irq 0
    mov(y, osr)  # noqa: F821
    label("silence")  # noqa: F821
    jmp(y_dec, "silence")  # noqa: F821
    wrap()  # noqa: F821


class Slots:
    """The slot IRQ and its ring; `drain` hands the slots to the hub in the main loop."""

    def __init__(self, config):
        pins = config["pins"]
        self._rx_base = machine.Pin(pins["receivers"][0], machine.Pin.IN)
        self._addr_shift = pins["address"][0]
        for p in pins["address"]:
            machine.Pin(p, machine.Pin.OUT, value=0)
        self._carrier = machine.PWM(machine.Pin(pins["carrier"]), freq=config["carrier_hz"],
                                    duty_u16=0)
        self._duty = config["duty_u16"]
        self._seats = bytearray(RING)
        self._masks = bytearray(RING)
        self._times = array.array("i", [0] * RING)
        self._head = 0  # written by the IRQ only
        self._tail = 0  # written by the main loop only
        self._sched = bytearray(1)
        self._k = 0
        self._seat = 0
        self._started = 0
        self._slot_us = 0
        self.late = 0
        self._sm = None
        pio = rp2.PIO(0)
        pio.irq(self._edge, trigger=rp2.PIO.IRQ_SM0 | rp2.PIO.IRQ_SM1, hard=True)

    def stop(self):
        """Stop the slots and the carrier (at the REPL, or before new slots)."""
        if self._sm is not None:
            self._sm.active(0)
        self._carrier.duty_u16(0)

    def play(self, schedule, slot_us):
        """(Re)start the slots: `schedule` = seats of a round, 0 (dark) first."""
        self.stop()
        self._sched = bytearray(schedule)
        self._k = 0
        self._slot_us = slot_us
        self._started = time.ticks_us()
        self._sm = rp2.StateMachine(0, slot_clock, freq=CLOCK_HZ, in_base=self._rx_base)
        self._sm.put(slot_us - CLOCK_OVERHEAD)
        self._sm.active(1)

    def _edge(self, pio):
        """The hard IRQ: the end of a burst before a new start, should both be pending."""
        flags = pio.irq().flags()
        if flags & rp2.PIO.IRQ_SM1:
            self._end()
        if flags & rp2.PIO.IRQ_SM0:
            self._start()

    def _start(self):
        now = time.ticks_us()
        if time.ticks_diff(now, self._started) > self._slot_us + LATE_US:
            self.late += 1
        self._started = now
        seat = self._sched[self._k]
        self._seat = seat
        if seat:
            machine.mem32[GPIO_OUT_CLR] = 7 << self._addr_shift
            machine.mem32[GPIO_OUT_SET] = (seat - 1) << self._addr_shift
            self._carrier.duty_u16(self._duty)

    def _end(self):
        reads = 0xFFFFFF  # nothing seen, should the program have pushed nothing
        while self._sm.rx_fifo():  # the last word: after a handler late by a whole slot,
            reads = self._sm.get()  # an older one left behind would shift every slot
        rx = ~(reads | reads >> 8 | reads >> 16) & 0xFF  # receivers pull low: at all three
        self._carrier.duty_u16(0)
        head = self._head
        nxt = (head + 1) % RING
        if nxt == self._tail:
            self.late += 1  # the main loop is half a second behind: this slot is lost
        else:
            self._seats[head] = self._seat
            self._masks[head] = rx
            self._times[head] = time.ticks_ms()
            self._head = nxt
        self._k = (self._k + 1) % len(self._sched)

    def drain(self, hub):
        """Hand the slots done since the last call to the hub, in order."""
        tail = self._tail
        while tail != self._head:
            hub.slot(self._times[tail], self._seats[tail], self._masks[tail])
            tail = (tail + 1) % RING
        self._tail = tail
        hub.late = self.late


class Panel:
    """The seats' other wires: lock LEDs out through a 74HC595, standee reeds in through
    a 74HC165 (seat s on input D(s-1))."""

    def __init__(self, config):
        pins = config["pins"]
        out = machine.Pin.OUT
        self._led_data = machine.Pin(pins["lock"][0], out, value=0)
        self._led_clock = machine.Pin(pins["lock"][1], out, value=0)
        self._led_latch = machine.Pin(pins["lock"][2], out, value=0)
        self._load = machine.Pin(pins["inputs"][0], out, value=1)
        self._clock = machine.Pin(pins["inputs"][1], out, value=0)
        self._data = machine.Pin(pins["inputs"][2], machine.Pin.IN)
        self._post_flip = 0 if config["post_up_level"] else 0xFF
        self._lit = None

    def show(self, lit):
        """Light the lock LEDs of `lit` (bit s-1 = seat s, Q(s-1) of the 74HC595)."""
        if lit == self._lit:
            return
        self._lit = lit
        for i in range(7, -1, -1):
            self._led_data.value(lit >> i & 1)
            self._led_clock.value(1)
            self._led_clock.value(0)
        self._led_latch.value(1)
        self._led_latch.value(0)

    def read(self):
        """The standees as a mask, 1 = standing."""
        self._load.value(0)  # parallel load while low
        self._load.value(1)
        word = 0
        for _ in range(8):
            word = word << 1 | self._data.value()
            self._clock.value(1)
            self._clock.value(0)
        return word ^ self._post_flip
