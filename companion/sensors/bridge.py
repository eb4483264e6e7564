"""The sensor bridge: every backend in the config, their facts published on the bus.

Built from a checked config by `companion sensors`, and by `companion run`, once the
table's broker runs (`companion.runner` starts it: the bridge is one of its clients). Start
order: bus, simulated hub, pins, the Pi's IMUs, serial links, the scheduler thread (switch
debounce and the simulated hub's slots); stop in reverse, so the last words on the bus are
each device going offline and then the bridge's own `offline` status.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Any

from companion.bus.client import BusClient
from companion.bus.topics import Topics
from companion.clock import SYSTEM_CLOCK, Clock
from companion.config import Config
from companion.sensors.codec import MqttPublisher
from companion.sensors.facts import DeviceInfo, Fact, FactSink
from companion.sensors.gpio import GpioBackend
from companion.sensors.pi_imu import PiImus
from companion.sensors.scheduler import Scheduler
from companion.sensors.serial_link import HubLink
from companion.sensors.settings import BoardSettings, SensorSettings
from companion.sensors.sim.simulator import SimError, Simulator

log = logging.getLogger(__name__)


class Tee(FactSink):
    """Sends everything to several sinks, in the order they were added."""

    def __init__(self, sinks: list[FactSink]) -> None:
        self.sinks = sinks

    def fact(self, fact: Fact) -> None:
        for sink in self.sinks:
            sink.fact(fact)

    def device(self, info: DeviceInfo) -> None:
        for sink in self.sinks:
            sink.device(info)

    def health(self, device: str, figures: dict[str, Any], t_ms: float) -> None:
        for sink in self.sinks:
            sink.health(device, figures, t_ms)


class SensorBridge:
    def __init__(self, config: Config, clock: Clock = SYSTEM_CLOCK, publish: bool = True,
                 pin_factory: Any = None) -> None:
        self.config, self.clock = config, clock
        self.settings: SensorSettings = config.sensors
        self.topics = Topics(config.table)
        self.sinks: list[FactSink] = []
        self.scheduler = Scheduler(clock)
        self.bus: BusClient | None = None
        self.publisher: MqttPublisher | None = None
        if publish:
            self.bus = BusClient(config.mqtt, _client_id(config.table), self.topics.status,
                                 user="sensors")
            self.publisher = MqttPublisher(self.bus, self.topics)
            self.sinks.append(self.publisher)
        sink = self._fan_out()
        self.sim = Simulator(self.settings, clock, self.scheduler.lock)
        self.gpio: GpioBackend | None = None
        gpio = self.settings.gpio
        if gpio.standees or gpio.tilts:
            self.gpio = GpioBackend(gpio, sink, self.scheduler, clock, pin_factory)
            self.sim.gpio = self.gpio
        self.imus = PiImus(gpio.imu, sink, clock, self.scheduler.lock) if gpio.imu.seats \
            else None
        boards = list(self.settings.boards)
        if self.sim.hub is not None:
            self.scheduler.add(self.sim.hub)
            boards.append(BoardSettings(name=SensorSettings.SIM_HUB,
                                        port=self.sim.hub.port.link_path))
        self.links = [HubLink(b, self.settings.filters, sink, self.scheduler, clock)
                      for b in boards]

    def add_sink(self, sink: FactSink) -> None:
        """Another consumer of the facts (e.g. the referee in the same process, the doctor's
        probe): from now on every backend hands its facts to each sink, in order."""
        self.sinks.append(sink)
        fan_out = self._fan_out()
        for backend in (self.gpio, self.imus, *self.links):
            if backend is not None:
                backend.sink = fan_out

    def _fan_out(self) -> FactSink:
        """What the backends hand their facts to: the one sink itself (a plain run: the
        publisher), or a Tee when there are several, so a fact passes no module it needs not."""
        return self.sinks[0] if len(self.sinks) == 1 else Tee(list(self.sinks))

    def start(self) -> SensorBridge:
        if self.bus is not None:
            self.bus.start()
            self.bus.subscribe(self.topics.sim_command, self._sim_command)
        if self.gpio:
            self.gpio.open()
        self.sim.start()
        if self.gpio:
            self.gpio.start()
        if self.imus:
            self.imus.start()
        for link in self.links:
            link.start()
        self.scheduler.start()
        return self

    def stop(self) -> None:
        for link in self.links:
            link.stop()
        if self.imus:
            self.imus.stop()
        if self.gpio:
            self.gpio.stop()
        self.sim.stop()
        self.scheduler.stop()
        if self.bus is not None:
            self.bus.stop()

    def __enter__(self) -> SensorBridge:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def _sim_command(self, _topic: str, payload: bytes) -> None:
        try:
            self.sim.command(payload.decode("ascii"))
        except (SimError, UnicodeDecodeError) as exc:
            log.warning("simulator command %r refused: %s", payload[:80], exc)


def _client_id(table: str) -> str:
    return f"cashnguns-{table}-sensors-{socket.gethostname()[:16]}-{os.getpid()}"
