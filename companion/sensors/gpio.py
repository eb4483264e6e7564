"""Standee switches and gun tilt switches wired to the Pi's pins, through gpiozero.

A gun wired to the Pi is read by its IMU (companion/sensors/pi_imu.py); a tilt switch here
is for builders who kept v2's guns, with its faults (docs/SENSORS.md).

gpiozero's `bounce_time` is not used: it behaves differently on each pin backend and
does nothing on mock pins. Every edge is fed, with its time, to our own Debouncer.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

from gpiozero import DigitalInputDevice

from companion.clock import Clock
from companion.sensors.facts import DeviceInfo, Fact, FactSink
from companion.sensors.filters import Debouncer
from companion.sensors.scheduler import Scheduler
from companion.sensors.settings import GpioSettings, PinInput

log = logging.getLogger(__name__)

DEVICE = "gpio"


def make_pin_factory(name: str) -> Any:
    """The gpiozero pin factory named in config; None lets gpiozero choose (lgpio on a Pi 5)."""
    if name == "default":
        return None
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    module, cls = {
        "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
        "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
        "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
        "native": ("gpiozero.pins.native", "NativeFactory"),
    }[name]
    return getattr(importlib.import_module(module), cls)()


class GpioBackend:
    def __init__(self, settings: GpioSettings, sink: FactSink, scheduler: Scheduler,
                 clock: Clock, pin_factory: Any = None) -> None:
        self.settings, self.sink, self.scheduler, self.clock = settings, sink, scheduler, clock
        self.factory = pin_factory
        self.devices: dict[tuple[str, int], DigitalInputDevice] = {}
        self.debouncers: dict[tuple[str, int], Debouncer] = {}

    def open(self) -> None:
        """Claim the pins; the simulator may set them before `start` reads them."""
        if self.factory is None:
            self.factory = make_pin_factory(self.settings.pin_factory)
        for kind, pins in (("posture", self.settings.standees), ("raised", self.settings.tilts)):
            for p in pins:
                self.devices[(kind, p.seat)] = DigitalInputDevice(
                    p.pin, pull_up=p.pull_up, active_state=p.active_high,
                    pin_factory=self.factory)

    def start(self) -> None:
        """Report every switch as it is now, then every change that holds."""
        if not self.devices:
            self.open()
        for p in self.settings.standees:
            self._watch("posture", p, lambda active: "up" if active else "down")
        for p in self.settings.tilts:
            self._watch("raised", p, bool)
        self.sink.device(DeviceInfo(DEVICE, "gpio", "pins", True, "started",
                                    self.clock.now_ms()))

    def stop(self) -> None:
        for dev in self.devices.values():
            dev.close()
        self.devices.clear()
        self.sink.device(DeviceInfo(DEVICE, "gpio", "pins", False, "stopped", self.clock.now_ms()))

    def pin(self, kind: str, seat: int) -> Any:
        """The gpiozero pin behind a standee (`posture`) or tilt (`raised`), for the simulator."""
        return self.devices[(kind, seat)].pin

    def _watch(self, kind: str, p: PinInput, value_of: Callable[[bool], Any]) -> None:
        dev = self.devices[(kind, p.seat)]

        def emit(active: bool, t_ms: float) -> None:
            self.sink.fact(Fact(kind, p.seat, value_of(active), t_ms,  # type: ignore[arg-type]
                                DEVICE))

        deb = Debouncer(p.debounce_ms, emit)
        self.scheduler.add(deb)
        dev.when_activated = lambda: self.scheduler.feed(deb, not p.invert, self.clock.now_ms())
        dev.when_deactivated = lambda: self.scheduler.feed(deb, p.invert, self.clock.now_ms())
        with self.scheduler.lock:
            deb.set(dev.is_active != p.invert, self.clock.now_ms())
        self.debouncers[(kind, p.seat)] = deb
        log.info("gpio: %s of seat %d on pin %s", kind, p.seat, p.pin)
