"""Runs the board code under MicroPython on requests from the CPython tests.

Reads one JSON list of requests on stdin, answers one JSON list on stdout, so a
test can generate cases in CPython and check what the real runtime makes of them.
"""

import json
import sys
import time

import beacons as beacons_module
import irframe
import machine
from beacons import Beacons, play
from debounce import Debouncer
from edgelog import EdgeLog
from gun import Gun
from hub import Hub


def receive(edges):
    receiver = irframe.Receiver()
    got = []
    for dt, level in edges:
        seat = receiver.edge(dt, level)
        if seat is not None:
            got.append(seat)
    return got


def debounce(stable_ms, initial, readings):
    d = Debouncer(stable_ms, initial)
    changes = []
    for t, raw in readings:
        v = d.update(t, raw)
        if v is not None:
            changes.append([t, v])
    return changes


def _drive(board, events):
    """Feed events to a board; return the lines it sent, as text."""
    for ev in events:
        kind, now = ev[0], ev[1]
        if kind == "hello":
            board.hello(now)
        elif kind == "tick":
            board.tick(now)
        elif kind == "rx":
            board.receive(ev[2].encode(), now)
        elif kind == "edge":
            board.edge(now, ev[2], ev[3])
        elif kind == "tilt":
            board.tilt(now, ev[2])
        elif kind == "seq":
            board.seq = ev[2]
        elif kind == "switch":
            board.switch(now, ev[2], ev[3])
    return [line.decode() for line in board.out]


def gun(args, events):
    return _drive(Gun(*args), events)


def hub(args, events):
    return _drive(Hub(*args), events)


def hub_slots(args, events, n):
    """The slot length and the seats of the next `n` slots after `events`."""
    board = Hub(*args)
    _drive(board, events)
    return [board.slot_us, [board.next_seat() for _ in range(n)]]


def beacon(seat, duty_u16):
    """The carrier switching that `play` makes for one frame: [[µs since start, duty]]."""
    pwm = machine.PWM(machine.Pin(2), freq=38000, duty_u16=0)
    del pwm.log[:]
    play(pwm, irframe.encode(seat), duty_u16)
    t0 = pwm.log[0][0]
    return [[time.ticks_diff(t, t0), duty] for t, duty in pwm.log]


class VirtualTime:
    """A µs clock that moves a little on every look, as a busy loop sees a real one, but
    never jumps: the slot logic is checked free of this host's preemption."""

    now = 0

    @classmethod
    def ticks_us(cls):
        cls.now += 3
        return cls.now

    @staticmethod
    def ticks_add(t, delta):
        return t + delta

    @staticmethod
    def ticks_diff(a, b):
        return a - b


def beacon_slots(hub_args, events, slots):
    """Run the hub's beacon slots on virtual time; each beacon's duty changes as
    [[ticks_us, duty], ...]."""
    board = Hub(*hub_args)
    _drive(board, events)
    real = beacons_module.time
    beacons_module.time = machine.time = VirtualTime
    try:
        pwms = {}
        for i, seat in enumerate(board.seats):
            pwms[seat] = machine.PWM(machine.Pin(2 + i), freq=38000, duty_u16=0)
            del pwms[seat].log[:]
        beacons = Beacons(board, pwms, 21845)
        for _ in range(slots):
            beacons.next_slot()
    finally:
        beacons_module.time = machine.time = real
    return [[seat, pwms[seat].log] for seat in board.seats]


def edge_log(board_args, levels, size):
    """Drive the receiver pin through `levels`, let EdgeLog capture them, drain into a Gun.

    Returns the levels the gun was handed and how many edges the full ring lost.
    """
    pin = machine.Pin(15, machine.Pin.IN, machine.Pin.PULL_UP)
    log = EdgeLog(size)
    pin.irq(log.irq)
    handed = []

    class Recorder(Gun):
        def edge(self, now_ms, dt_us, level):
            handed.append(level)

    for level in levels:
        pin._drive(level)
    log.drain(Recorder(*board_args), 0)
    return [handed, log.lost]


HANDLERS = {
    "encode": irframe.encode,
    "decode": irframe.decode,
    "receive": receive,
    "debounce": debounce,
    "gun": gun,
    "hub": hub,
    "hub_slots": hub_slots,
    "beacon": beacon,
    "beacon_slots": beacon_slots,
    "edge_log": edge_log,
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
