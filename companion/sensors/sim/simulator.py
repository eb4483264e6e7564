"""The simulator's API: what the players at the table do, applied to simulated sensors.

The table is companion.tablesim's 3-D model read by a simulated hub (sim/hub.py) that runs
the hub firmware's own code on a pty; switches wired straight to the Pi are gpiozero
MockFactory pins. `aim 3 5` means: the hand of seat 3 turns its gun to seat 5's badge and
holds it there, with the pointing offset, drift and tremor of a person (or none, with an
ideal hand). `command()` reads the same actions as text, for the small CLI, the
`sim/command` topic and the /sim page.
"""

from __future__ import annotations

import os
import random
import tempfile
import threading
from typing import Any

from companion.clock import SYSTEM_CLOCK, Clock
from companion.sensors.settings import HandSettings, PinInput, SensorSettings, SimSettings
from companion.sensors.sim.hub import SimHub
from companion.tablesim import Hand, Optics, TableModel, rect_table, round_table

COMMANDS = {
    "aim": "aim GUN SEAT|none",
    "raise": "raise GUN",
    "lower": "lower GUN",
    "sweep": "sweep GUN SEAT SEAT [DEG_PER_S]",
    "between": "between GUN SEAT SEAT",
    "tip": "tip SEAT",
    "stand": "stand SEAT",
    "unplug": "unplug [SEAT]",
    "replug": "replug [SEAT]",
    "hang": "hang",
    "bounce": "bounce standee|tilt SEAT [EDGES]",
    "noise": "noise [LINES]",
}
IDEAL_HAND = Hand(offset_deg=0.0, drift_deg=0.0, tremor_deg=(0.0, 0.0), roll_deg=0.0,
                  boresight_deg=0.0, acquire_ms=(0.0, 0.0))


class SimError(ValueError):
    """A simulator command that cannot be carried out; nothing was changed."""


class Simulator:
    def __init__(self, settings: SensorSettings, clock: Clock = SYSTEM_CLOCK,
                 lock: Any = None) -> None:
        self.settings, self.clock = settings, clock
        self.lock = lock or threading.RLock()  # the hub's slots run under it
        sim = settings.sim
        self._tmp: tempfile.TemporaryDirectory | None = None
        link_dir = sim.link_dir
        if link_dir is None and sim.guns:
            self._tmp = tempfile.TemporaryDirectory(prefix="cashnguns-sim-")
            link_dir = self._tmp.name
        elif link_dir:
            os.makedirs(link_dir, exist_ok=True)
        self.model: TableModel | None = None
        self.hub: SimHub | None = None
        if sim.guns:
            self.model = table_model(sim)
            self.hub = SimHub(self.model, sim.guns, sim.slot_us, settings.filters.hold_ms,
                              settings.filters.debounce_ms,
                              os.path.join(link_dir, "hub"), clock,  # type: ignore[arg-type]
                              sim.hand.feedback)
        self.gpio: Any = None  # the GpioBackend whose mock pins we drive, set by the bridge
        self._rng = random.Random(sim.seed)

    @property
    def boards(self) -> tuple[int, ...]:
        """The seats with a simulated gun (the /sim page shows one panel each)."""
        return self.settings.sim.guns

    def start(self) -> None:
        """Plug the hub in; stand every simulated standee up (pins must be open)."""
        if self.hub is not None:
            self.hub.start()
        if self.gpio is not None and self.settings.gpio.pin_factory == "mock":
            for p in self.settings.gpio.standees:
                self.stand(p.seat)

    def stop(self) -> None:
        if self.hub is not None:
            self.hub.stop()
        if self._tmp:
            self._tmp.cleanup()

    # -- guns
    def aim(self, gun: int, target: int | None) -> None:
        """The hand turns the gun to `target`'s badge and holds it (None: lets it down)."""
        if target is None:
            self._intent(gun, "lower")
        else:
            self._intent(gun, "hold", self._seat(target))

    def sweep(self, gun: int, a: int, b: int, speed_dps: float = 60.0) -> None:
        """The gun is raised and swept across `a` then `b` at `speed_dps`, then let down."""
        self._intent(gun, "sweep", self._seat(a), self._seat(b), speed_dps=float(speed_dps))

    def between(self, gun: int, a: int, b: int) -> None:
        """The gun points midway between two players and stays there."""
        self._intent(gun, "between", self._seat(a), self._seat(b))

    def raise_gun(self, gun: int, raised: bool = True) -> None:
        if self._pin_input("raised", gun) is not None:
            self._drive("raised", gun, raised)
            return
        model = self._model_of(gun)
        with self.lock:
            if raised and not model.raised(gun):
                model.raise_gun(gun)
            elif not raised:
                model.lower(gun)

    def noise(self, lines: int = 100) -> None:
        """Garbage on the hub's port: random bytes, torn lines, bad checksums, long lines."""
        hub = self._hub()
        for i in range(lines):
            style = i % 4
            if style == 0:
                data = bytes(self._rng.randrange(256) for _ in range(self._rng.randrange(1, 60)))
                data = data.replace(b"\n", b"") + b"\n"
            elif style == 1:
                data = b"SEEN 9 123 5 1*0000\n"
            elif style == 2:
                data = b"TILT 3 44 1 1\n"  # no checksum
            else:
                data = b"X" * 300 + b"\n"
            hub.port.write(data)

    def unplug(self, seat: int | None = None) -> None:
        """The hub's USB cable out (no seat), or one seat's pod cable."""
        hub = self._hub()
        with self.lock:
            if seat is None:
                hub.port.unplug()
            else:
                hub.cut |= 1 << (self._seat(seat) - 1)

    def replug(self, seat: int | None = None) -> None:
        hub = self._hub()
        with self.lock:
            if seat is not None:
                hub.cut &= ~(1 << (self._seat(seat) - 1))
            elif hub.hung:
                hub.reboot()
            else:
                hub.port.plug()

    def hang(self) -> None:
        """The hub's firmware stops: the port stays open but says nothing (`replug` resets)."""
        hub = self._hub()
        with self.lock:
            hub.hung = True

    def _intent(self, gun: int, kind: str, *seats: int, **options: Any) -> None:
        model = self._model_of(gun)
        with self.lock:
            model.intent(gun, kind, *seats, at_ms=self.clock.now_ms(),  # type: ignore[misc, arg-type]
                         **options)

    def _hub(self) -> SimHub:
        if self.hub is None:
            raise SimError("no simulated table (sensors.sim.guns is empty)")
        return self.hub

    def _model_of(self, gun: int) -> TableModel:
        self._hub()
        if gun not in self.settings.sim.guns:
            raise SimError(f"no simulated gun at seat {gun} (sensors.sim.guns: "
                           f"{list(self.settings.sim.guns)})")
        return self.model  # type: ignore[return-value]

    def _seat(self, seat: int) -> int:
        if seat not in self.settings.sim.guns:
            raise SimError(f"no player at seat {seat} on the simulated table")
        return seat

    # -- standees and GPIO switches
    def tip(self, seat: int) -> None:
        self._standee(seat, False)

    def stand(self, seat: int) -> None:
        self._standee(seat, True)

    def _standee(self, seat: int, up: bool) -> None:
        """A standee on the hub (its reed switch in the seat's pod) or on a Pi pin."""
        if self._pin_input("posture", seat) is not None or self.hub is None:
            self._drive("posture", seat, up)
            return
        bit = 1 << (self._seat(seat) - 1)
        with self.lock:
            self.hub.posts = self.hub.posts | bit if up else self.hub.posts & ~bit
            self.hub.poll(self.clock.now_ms())  # the hub reads its inputs at once, as on a board

    def bounce(self, kind: str, seat: int, edges: int = 6) -> None:
        """Toggle a switch `edges` times at once, as contacts chatter; even counts end as before."""
        kind = {"standee": "posture", "tilt": "raised"}.get(kind, kind)
        if self._pin_input(kind, seat) is None and kind == "posture" and self.hub is not None:
            hub, bit = self.hub, 1 << (self._seat(seat) - 1)
            with self.lock:
                for _ in range(edges):
                    hub.posts ^= bit
                    hub.poll(self.clock.now_ms())
            return
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
        assert p is not None  # _mock_pin refuses a switch that is not configured
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
        action: Any = {
            "raise": lambda g: self.raise_gun(g, True), "lower": lambda g: self.raise_gun(g, False),
            "sweep": self.sweep, "between": self.between, "tip": self.tip, "stand": self.stand,
            "unplug": self.unplug, "replug": self.replug, "hang": self.hang, "noise": self.noise,
        }[verb]
        action(*numbers)


def _number(text: str, usage: str) -> int:
    if not text.isdigit() or not 0 < int(text) <= 100_000:
        raise SimError(f"{text!r} is not a positive whole number; usage: {usage}")
    return int(text)


def table_model(sim: SimSettings) -> TableModel:
    """The 3-D table of `sensors.sim`, with people's hands or ideal ones."""
    n = len(sim.guns)
    table = (round_table(sim.size_m, n) if sim.shape == "round"
             else rect_table(sim.size_m, sim.seating or n, sim.width_m))
    return TableModel(table, random.Random(sim.seed), hand=hand_of(sim.hand),
                      optics=Optics(ambient=0.0) if sim.hand.ideal else None,
                      feedback=sim.hand.feedback)


def hand_of(hand: HandSettings) -> Hand:
    """An ideal hand points exactly and at once, in a dark room: exact, fast aims for tests."""
    return IDEAL_HAND if hand.ideal else Hand(offset_deg=hand.offset_deg)
