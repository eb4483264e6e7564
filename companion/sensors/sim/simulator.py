"""The simulator's API: what a hand at the table would do, applied to simulated sensors.

Standees and GPIO tilts are gpiozero MockFactory pins driven to the level a real switch
would give; guns are SimBoards on ptys. `command()` reads the same actions as text
(`aim 3 5`, `tip 2`, ...), for the small CLI and the `sim/command` topic.
"""

from __future__ import annotations

import os
import random
import tempfile
from typing import Any

from companion.clock import SYSTEM_CLOCK, Clock
from companion.sensors.settings import PinInput, SensorSettings
from companion.sensors.sim.board import SimBoard

COMMANDS = {
    "aim": "aim GUN SEAT|none",
    "raise": "raise GUN",
    "lower": "lower GUN",
    "tip": "tip SEAT",
    "stand": "stand SEAT",
    "unplug": "unplug GUN",
    "replug": "replug GUN",
    "bounce": "bounce standee|tilt SEAT [EDGES]",
    "flicker": "flicker GUN [TIMES]",
    "noise": "noise GUN [LINES]",
}


class SimError(ValueError):
    """A simulator command that cannot be carried out; nothing was changed."""


class Simulator:
    def __init__(self, settings: SensorSettings, clock: Clock = SYSTEM_CLOCK) -> None:
        self.settings = settings
        self._tmp: tempfile.TemporaryDirectory | None = None
        link_dir = settings.sim.link_dir
        if link_dir is None and settings.sim.guns:
            self._tmp = tempfile.TemporaryDirectory(prefix="cashnguns-sim-")
            link_dir = self._tmp.name
        elif link_dir:
            os.makedirs(link_dir, exist_ok=True)
        self.boards = {
            seat: SimBoard(f"g{seat}", seat, os.path.join(link_dir, f"gun{seat}"), clock=clock)
            for seat in settings.sim.guns
        }
        self.gpio: Any = None  # the GpioBackend whose mock pins we drive, set by the bridge
        self._rng = random.Random(0)

    def start(self) -> None:
        """Plug the gun boards in; stand every simulated standee up (pins must be open)."""
        for board in self.boards.values():
            board.start()
        if self.gpio is not None and self.settings.gpio.pin_factory == "mock":
            for p in self.settings.gpio.standees:
                self.stand(p.seat)

    def stop(self) -> None:
        for board in self.boards.values():
            board.stop()
        if self._tmp:
            self._tmp.cleanup()

    # -- guns
    def aim(self, gun: int, target: int | None) -> None:
        self.board(gun).set_aim(target)

    def raise_gun(self, gun: int, raised: bool = True) -> None:
        if self._pin_input("raised", gun) is not None:
            self._drive("raised", gun, raised)
        else:
            self.board(gun).set_tilt(raised)

    def flicker(self, gun: int, times: int = 5) -> None:
        """The receiver loses and finds its target `times` times in a burst."""
        board = self.board(gun)
        target = board.aim
        for _ in range(times):
            board.send("AIM", "-" if target is not None else 1)
            board.send("AIM", "-" if target is None else target)

    def noise(self, gun: int, lines: int = 100) -> None:
        """Garbage on the gun's port: random bytes, torn lines, bad checksums, long lines."""
        board = self.board(gun)
        for i in range(lines):
            style = i % 4
            if style == 0:
                data = bytes(self._rng.randrange(256) for _ in range(self._rng.randrange(1, 60)))
                data = data.replace(b"\n", b"") + b"\n"
            elif style == 1:
                data = b"AIM 9 123 5*0000\n"
            elif style == 2:
                data = b"TILT 3 44\n"  # no checksum
            else:
                data = b"X" * 300 + b"\n"
            board.write(data)

    def unplug(self, gun: int) -> None:
        self.board(gun).unplug()

    def replug(self, gun: int) -> None:
        self.board(gun).plug()

    def board(self, gun: int) -> SimBoard:
        if gun not in self.boards:
            raise SimError(f"no simulated gun at seat {gun} (sensors.sim.guns: "
                           f"{sorted(self.boards) or 'none'})")
        return self.boards[gun]

    # -- standees and GPIO switches
    def tip(self, seat: int) -> None:
        self._drive("posture", seat, False)

    def stand(self, seat: int) -> None:
        self._drive("posture", seat, True)

    def bounce(self, kind: str, seat: int, edges: int = 6) -> None:
        """Toggle a switch `edges` times at once, as contacts chatter; even counts end as before."""
        kind = {"standee": "posture", "tilt": "raised"}.get(kind, kind)
        pin = self._mock_pin(kind, seat)
        for _ in range(edges):
            if pin.state:
                pin.drive_low()
            else:
                pin.drive_high()

    def _pin_input(self, kind: str, seat: int) -> PinInput | None:
        pins = self.settings.gpio.standees if kind == "posture" else self.settings.gpio.tilts
        return next((p for p in pins if p.seat == seat), None)

    def _mock_pin(self, kind: str, seat: int) -> Any:
        if self._pin_input(kind, seat) is None or self.gpio is None:
            what = "standee" if kind == "posture" else "tilt switch"
            raise SimError(f"no {what} for seat {seat} on simulated pins")
        pin = self.gpio.pin(kind, seat)
        if not hasattr(pin, "drive_low"):
            raise SimError("the GPIO pins are real (pin_factory is not mock); nothing to simulate")
        return pin

    def _drive(self, kind: str, seat: int, active: bool) -> None:
        """Put the pin at the level a closed (active) or open switch gives."""
        p = self._pin_input(kind, seat)
        pin = self._mock_pin(kind, seat)
        active_high = p.active_high if p.pull_up is None else not p.pull_up
        if (active != p.invert) == active_high:
            pin.drive_high()
        else:
            pin.drive_low()

    # -- text commands
    def command(self, text: str) -> None:
        """Carry out one text command (see COMMANDS); raises SimError when it is wrong."""
        words = text.split()
        if not words or words[0] not in COMMANDS:
            raise SimError(f"unknown command {text!r}; known: {', '.join(COMMANDS.values())}")
        verb, args = words[0], words[1:]
        usage = COMMANDS[verb]
        n_required = sum(1 for w in usage.split()[1:] if not w.startswith("["))
        if not n_required <= len(args) <= len(usage.split()) - 1:
            raise SimError(f"usage: {usage}")
        if verb == "bounce":
            if args[0] not in ("standee", "tilt"):
                raise SimError(f"usage: {usage}")
            self.bounce(args[0], *[_number(a, usage) for a in args[1:]])
            return
        if verb == "aim":
            target = None if args[1] == "none" else _number(args[1], usage)
            self.aim(_number(args[0], usage), target)
            return
        numbers = [_number(a, usage) for a in args]
        action = {
            "raise": lambda g: self.raise_gun(g, True), "lower": lambda g: self.raise_gun(g, False),
            "tip": self.tip, "stand": self.stand, "unplug": self.unplug, "replug": self.replug,
            "flicker": self.flicker, "noise": self.noise,
        }[verb]
        action(*numbers)


def _number(text: str, usage: str) -> int:
    if not text.isdigit() or not 0 < int(text) <= 100_000:
        raise SimError(f"{text!r} is not a positive whole number; usage: {usage}")
    return int(text)
