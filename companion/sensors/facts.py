"""What the sensor layer tells the rest of the companion: facts with the time they happened."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

FactKind = Literal["aim", "raised", "posture", "lock", "seen"]


@dataclass(frozen=True)
class Fact:
    """What one sensor said, by kind (docs/MQTT.md):

    `aim`: the target seat (held), None (no aim) or a sorted tuple of seats (ambiguous);
    `raised`: bool; `posture`: "up"/"down"; `lock`: the aimer's indicator 0/1/2;
    `seen` (seat 0, the hub): each gun's look in one round, a tuple of masks in slot order.
    """

    kind: FactKind
    seat: int
    value: int | bool | str | tuple[int, ...] | None
    t_ms: float  # when it happened, on the companion's clock (companion.clock)
    device: str


@dataclass(frozen=True)
class DeviceInfo:
    """A sensor device's availability and what is known about it."""

    device: str
    backend: str  # gpio, serial
    kind: str  # hub, pins
    online: bool
    reason: str  # why it is (off|on)line: "started", "hello", "unplugged", "silent", ...
    t_ms: float
    seat: int | None = None
    firmware: str | None = None
    port: str | None = None
    name: str | None = None  # the config entry it answers to
    slot_us: int | None = None  # a hub: the slot schedule in force
    seats: tuple[int, ...] = ()  # a hub: the seats in play, in slot order (`seen` masks)


class FactSink:
    """Where backends send what they learn; the MQTT publisher is one, tests have others."""

    def fact(self, fact: Fact) -> None:
        raise NotImplementedError

    def device(self, info: DeviceInfo) -> None:
        raise NotImplementedError

    def health(self, device: str, figures: dict[str, Any], t_ms: float) -> None:
        """A device's own counters (a hub's STAT with the link's drops); optional."""


class CallbackSink(FactSink):
    def __init__(self, on_fact: Callable[[Fact], None],
                 on_device: Callable[[DeviceInfo], None] = lambda _info: None) -> None:
        self._on_fact, self._on_device = on_fact, on_device

    def fact(self, fact: Fact) -> None:
        self._on_fact(fact)

    def device(self, info: DeviceInfo) -> None:
        self._on_device(info)
