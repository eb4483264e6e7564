"""The board's plumbing: config file, USB serial link, watchdog, main loop, error blink.

Kept thin on purpose: the logic worth testing lives in proto and hubcore; this only
moves bytes and readings in and out, so it runs unchanged on a board and under the
unix port with a stand-in `machine` module.
"""

import json
import select
import sys
import time

import linecodec
import machine

CONFIG_PATH = "config.json"
FAIL_BLINK = b"\x01\x00\x01\x00\x01\x00\x00\x00\x00\x00"  # 3 flashes, then dark
FAIL_STEP_MS = 200


def load_config(defaults, path=CONFIG_PATH):
    """The board's config file (JSON) over `defaults`; a missing key raises naming it."""
    config = dict(defaults)
    with open(path) as f:
        config.update(json.load(f))
    for key in ("id", "pins"):
        if key not in config:
            raise KeyError("config.json: missing " + key)
    return config


def fail(error, led_pin):
    """A board that cannot start: say why on the USB REPL, blink, and stay at the REPL.

    The LED flashes three times every 2 s from a timer, so the board can be seen to be
    stuck, while main.py returns to the REPL (no watchdog is running yet) for a fixed
    config.json to be copied over.
    """
    sys.print_exception(error)
    print("board not started: fix config.json (firmware/README.md)")
    led = machine.Pin(led_pin, machine.Pin.OUT)
    step = [0]

    def blink(timer):
        led.value(FAIL_BLINK[step[0]])
        step[0] = (step[0] + 1) % len(FAIL_BLINK)

    machine.Timer(mode=machine.Timer.PERIODIC, period=FAIL_STEP_MS, callback=blink)


class Link:
    """Lines over USB serial (stdin/stdout) that never block the board.

    Input is read only while `poll` says a byte is there; a line is written only when
    the port takes it, else dropped and counted: with no host reading, the board goes
    on and the host asks `WHO` when it is back.
    """

    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._readable = select.poll()
        self._readable.register(sys.stdin, select.POLLIN)
        self._writable = select.poll()
        self._writable.register(sys.stdout, select.POLLOUT)
        self._line = bytearray()
        self.dropped = 0

    def lines(self, budget=256):
        """The lines completed since the last call, without `\\n`; overlong ones cut short.

        At most `budget` bytes are read per call, so a flood of input can neither fill
        the memory nor keep the loop from the sensors and the watchdog.
        """
        got = []
        while budget and self._can(self._readable, select.POLLIN):
            budget -= 1
            try:
                b = self._in.read(1)
            except OSError:  # the host side of the port went away
                break
            if not b:
                break
            if b == b"\n":
                got.append(bytes(self._line))
                self._line = bytearray()
            elif len(self._line) <= linecodec.MAX_LINE + 1:
                self._line.extend(b)  # beyond this the line is too long anyway
        return got

    def write(self, lines):
        """Write framed lines, dropping those the port cannot take now."""
        for line in lines:
            if self._can(self._writable, select.POLLOUT):
                try:
                    self._out.write(line)
                    continue
                except OSError:
                    pass
            self.dropped += 1

    @staticmethod
    def _can(poller, event):
        return any(entry[1] & event for entry in poller.poll(0))  # (stream, events, ...)


def run(board, step, config, stop):
    """The main loop: `step(now_ms)` reads the hardware, then commands, heartbeat, output.

    The watchdog resets the board if the loop stops for `wdt_ms`. It cannot be stopped
    once started, so after Ctrl-C (what `mpremote` sends to reach the REPL) `stop()`
    quiets the hardware and a timer keeps the watchdog fed, so the board can be
    maintained; a soft reset ends the timer, and the watchdog then restarts the board.
    Hence `mpremote resume` in firmware/README.md.
    """
    link = Link()
    wdt = None
    try:
        wdt = machine.WDT(timeout=config["wdt_ms"])
        board.hello(time.ticks_ms())
        while True:
            now = time.ticks_ms()
            step(now)
            for line in link.lines():
                board.receive(line, now)
            board.tick(now)
            link.write(board.out)
            del board.out[:]
            board.dropped = link.dropped
            wdt.feed()
            machine.idle()
    except KeyboardInterrupt:
        stop()
        if wdt is not None:
            period = config["wdt_ms"] // 2
            machine.Timer(mode=machine.Timer.PERIODIC, period=period, callback=lambda t: wdt.feed())
