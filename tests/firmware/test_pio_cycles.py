"""The hub's slot clock, assembled by an independent PIO assembler (adafruit_pioasm) and
run cycle by cycle on an RP2040 PIO emulator (rp2040-pio-emulator), at 4 to 8 seats.

The expectations come from firmware/PROTOCOL.md's slot timing (read from the doc) and the
TSOP382's datasheet: slot lengths, the burst's IRQs, and when the receivers are read
relative to the burst. The program's text is taken from firmware/hub/hubhw.py's
MicroPython assembly (one line per instruction), so what runs here is what the board runs.
"""

import ast
import itertools
import re
from collections import deque
from dataclasses import replace

import pytest
from adafruit_pioasm import Program
from firmware_harness import FIRMWARE
from pioemu import State, emulate

from companion.tablesim import parts

DOC = (FIRMWARE / "PROTOCOL.md").read_text()
READS_US = [int(n) for n in re.search(r"at (\d+), (\d+) and (\d+) µs", DOC).groups()]
BURST_US = int(re.search(r"the burst starts at 0 µs and ends at (\d+) µs", DOC)[1])
SLOT_MIN, SLOT_MAX = (int(n) for n in
                      re.search(r"slot length in µs \((\d+)\.\.(\d+)", DOC).groups())
DEFAULT_SLOT = int(re.search(r"`SLOT_US`, (\d+) µs by default", DOC)[1])
CYCLE_US = 1e6 / parts.CARRIER_HZ  # one carrier cycle
IRQ = 6  # an instruction's top three bits: the emulator does not model irq, the test does


def _operand(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return {"x_dec": "x--", "y_dec": "y--"}.get(node.id, node.id)
    return str(ast.literal_eval(node))


def pioasm_text() -> str:
    """hubhw.slot_clock as pioasm source: each `name(args)[delay]` line an instruction."""
    tree = ast.parse((FIRMWARE / "hub" / "hubhw.py").read_text())
    [func] = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "slot_clock"]
    lines = []
    for stmt in func.body:
        call, delay = stmt.value, None
        if isinstance(call, ast.Subscript):
            call, delay = call.value, ast.literal_eval(call.slice)
        name = call.func.id.rstrip("_")
        args = [_operand(a) for a in call.args]
        if name == "label":
            lines.append(f"{args[0]}:")
        elif name in ("wrap_target", "wrap"):
            lines.append(f".{name}")
        else:
            lines.append(f"{name} {', '.join(args)}" + (f" [{delay}]" if delay else ""))
    return "\n".join(lines)


def hub_constant(name: str) -> int:
    """A module-level number of hubhw.py (it imports board modules CPython has not)."""
    tree = ast.parse((FIRMWARE / "hub" / "hubhw.py").read_text())
    [value] = [n.value for n in tree.body if isinstance(n, ast.Assign)
               and [t.id for t in n.targets if isinstance(t, ast.Name)] == [name]]
    return ast.literal_eval(value)


CLOCK_OVERHEAD = hub_constant("CLOCK_OVERHEAD")  # the hub puts SLOT_US minus this
PROGRAM = Program(pioasm_text())
OPCODES = list(PROGRAM.assembled)


def run(slot_us: int, slots: int, pins=lambda clock: 0xFF) -> tuple[list, list]:
    """Run the slot clock for `slots` slots and the next one's start, with the count the
    hub puts for `slot_us`.
    Returns ([(cycle, irq number)], [(cycle, pushed word)]), cycles from the first irq 0;
    `pins(cycle)` is what GP0..GP7 read at that cycle."""
    irqs: list[tuple[int, int]] = []
    pushes: list[tuple[int, int]] = []
    state = State(transmit_fifo=deque([slot_us - CLOCK_OVERHEAD]))

    def source(clock: int) -> int:
        return pins(clock - (irqs[0][0] if irqs else 0))

    kwargs = {"wrap_target": PROGRAM.pio_kwargs["wrap_target"],
              "wrap_top": PROGRAM.pio_kwargs["wrap"], "shift_isr_right": False,
              "input_source": source}
    while sum(n == 0 for _, n in irqs) <= slots:
        last = state
        for _, last in emulate(OPCODES, stop_when=lambda op, s: op >> 13 == IRQ,
                               initial_state=state, **kwargs):
            if last.receive_fifo:
                pushes.append((last.clock - 1, last.receive_fifo.popleft()))
        state = last
        op = OPCODES[state.program_counter]
        irqs.append((state.clock, op & 7))
        pc = state.program_counter
        pc = kwargs["wrap_target"] if pc == kwargs["wrap_top"] else pc + 1
        state = replace(state, program_counter=pc, clock=state.clock + 1 + (op >> 8 & 31))
    start = irqs[0][0]
    return [(c - start, n) for c, n in irqs], [(c - start, w) for c, w in pushes]


def reads_of(word: int) -> list[int]:
    """The pushed word's three reads, the first in its top byte."""
    return [word >> 16 & 0xFF, word >> 8 & 0xFF, word & 0xFF]


@pytest.mark.parametrize("seats", range(4, 9))
def test_a_round_is_seats_plus_one_slots_each_a_1000_us_burst_then_silence(seats):
    irqs, _ = run(DEFAULT_SLOT, seats + 1)
    starts = [c for c, n in irqs if n == 0]
    ends = [c for c, n in irqs if n == 1]
    assert starts == [k * DEFAULT_SLOT for k in range(seats + 2)]
    assert ends == [k * DEFAULT_SLOT + BURST_US for k in range(seats + 1)]
    assert [n for _, n in irqs] == [0, 1] * (seats + 1) + [0]  # each burst ends before the next
    assert starts[seats + 1] == (seats + 1) * DEFAULT_SLOT  # the round: (N + 1) x SLOT_US


@pytest.mark.parametrize("slot_us", [SLOT_MIN, DEFAULT_SLOT, 3333, SLOT_MAX])
def test_every_allowed_slot_length_is_kept_to_the_cycle(slot_us):
    irqs, pushes = run(slot_us, 3)
    assert [c for c, n in irqs if n == 0] == [0, slot_us, 2 * slot_us, 3 * slot_us]
    assert len(pushes) == 3


@pytest.mark.parametrize("seats", [4, 8])
def test_the_receivers_are_read_three_times_at_the_docs_cycles_then_pushed(seats):
    """The pins read the low byte of the cycle number: each read's byte says its cycle."""
    irqs, pushes = run(DEFAULT_SLOT, seats + 1, pins=lambda clock: clock & 0xFF)
    ends = [c for c, n in irqs if n == 1]
    assert len(pushes) == seats + 1
    for k, (cycle, word) in enumerate(pushes):
        start = k * DEFAULT_SLOT
        assert reads_of(word) == [(start + r) & 0xFF for r in READS_US]
        assert start + READS_US[-1] < cycle < ends[k]  # pushed after the last read, before irq 1


def tsop_answer(start_us: float, end_us: float, delay: int, width: int):
    """A TSOP382's output for a burst from start_us to end_us: low (0) from `delay` carrier
    cycles after the start for the burst's length plus `width` cycles (datasheet Fig. 1)."""
    low_from = start_us + delay * CYCLE_US
    low_to = low_from + (end_us - start_us) + width * CYCLE_US
    return lambda t: 0x00 if low_from <= t < low_to else 0xFF


@pytest.mark.parametrize("late_us", [0, 150, 300])
@pytest.mark.parametrize("delay", parts.RX_DELAY_CYCLES)
@pytest.mark.parametrize("width", parts.RX_WIDTH_CYCLES)
def test_every_read_falls_inside_the_slowest_and_quickest_receivers_answer(late_us, delay,
                                                                           width):
    """The carrier starts when the slot IRQ's handler runs (up to 300 µs late) and stops
    after irq 1 (a few µs late); every read must see every receiver's answer."""
    slot = DEFAULT_SLOT
    answer = tsop_answer(late_us, BURST_US + 5, delay, width)
    _, pushes = run(slot, 2, pins=lambda clock: answer(clock % slot) if clock < slot
                       else 0xFF)
    assert reads_of(pushes[0][1]) == [0, 0, 0]  # seen at all three reads
    assert reads_of(pushes[1][1]) == [0xFF] * 3  # the next slot's badge: not lit here


def test_the_reads_lie_where_the_datasheet_guarantees_an_answer():
    slowest = parts.RX_DELAY_CYCLES[1] * CYCLE_US
    assert READS_US[0] - slowest >= 300  # a carrier started 300 µs late is still answered
    assert READS_US[-1] < BURST_US  # the last read before the carrier stops
    assert min(b - a for a, b in itertools.pairwise(READS_US)) > 4 * CYCLE_US
