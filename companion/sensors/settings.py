"""The `sensors:` config section: filters, GPIO pins, serial boards, simulated boards.

Reference with defaults and their reasons: docs/SENSORS.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from companion.config import Node
from companion.wire.irframe import MIN_SLOT_US

MAX_SEAT = 8
PIN_FACTORIES = ("default", "mock", "lgpio", "rpigpio", "pigpio", "native")
PIN_NAME = re.compile(r"(GPIO|BCM|BOARD|J8:|WPI)?[0-9]{1,2}|[A-Z0-9]+:[0-9]+")
USB_ID = re.compile(r"([0-9a-fA-F]{4}):([0-9a-fA-F]{4})")
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")


@dataclass(frozen=True)
class Filters:
    debounce_ms: float = 20.0  # a switch state must hold this long to count
    aim_acquire_ms: float = 120.0  # a target must be seen this long to count
    aim_release_ms: float = 250.0  # a target lost for less than this still counts
    board_silence_ms: float = 700.0  # a board silent this long is offline (3 heartbeats)


@dataclass(frozen=True)
class PinInput:
    """A switch on a Pi pin; `active` (pulled to the active level) means up / raised."""

    seat: int
    pin: int | str
    pull_up: bool | None = True
    active_high: bool | None = None
    invert: bool = False
    debounce_ms: float = 20.0


@dataclass(frozen=True)
class GpioSettings:
    pin_factory: str = "default"
    standees: tuple[PinInput, ...] = ()
    tilts: tuple[PinInput, ...] = ()


@dataclass(frozen=True)
class BoardSettings:
    """A board on a serial port, found by path or by USB VID:PID (and serial number)."""

    name: str
    port: str | None = None
    usb: tuple[int, int] | None = None
    serial_number: str | None = None
    board_id: str | None = None  # when set, a board saying another id is refused
    seat: int | None = None  # overrides the seat the gun board reports
    baud: int = 115200
    slot_us: int | None = None  # hub: beacon slot length, sent with SLOTS
    slot_seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class SimSettings:
    guns: tuple[int, ...] = ()  # seats with a simulated gun board on a pseudo-terminal
    link_dir: str | None = None  # where the boards' port links go (a temporary folder)


@dataclass(frozen=True)
class SensorSettings:
    filters: Filters = field(default_factory=Filters)
    gpio: GpioSettings = field(default_factory=GpioSettings)
    boards: tuple[BoardSettings, ...] = ()
    sim: SimSettings = field(default_factory=SimSettings)

    def sim_board_name(self, seat: int) -> str:
        return f"sim-g{seat}"


def parse(node: Node) -> SensorSettings:
    filters = _filters(node.section("filters"))
    gpio = _gpio(node.section("gpio"), filters)
    boards = tuple(_board(item) for item in node.items("serial"))
    sim_node = node.section("sim")
    sim = SimSettings(
        guns=tuple(sim_node.int_list("guns", lo=1, hi=MAX_SEAT)),
        link_dir=sim_node.str("link_dir", None),
    )
    sim_node.done()
    _unique(node, "gpio", "standees", [p.seat for p in gpio.standees])
    _unique(node, "gpio", "tilts", [p.seat for p in gpio.tilts])
    _unique(node, "sim", "guns", list(sim.guns))
    names = [b.name for b in boards]
    if len(set(names)) != len(names):
        raise node.error("serial", "two boards have the same name; give each a distinct `name`")
    return SensorSettings(filters, gpio, boards, sim)


def _filters(node: Node) -> Filters:
    d = Filters()
    result = Filters(
        debounce_ms=node.number("debounce_ms", d.debounce_ms, lo=0, hi=1000),
        aim_acquire_ms=node.number("aim_acquire_ms", d.aim_acquire_ms, lo=0, hi=2000),
        aim_release_ms=node.number("aim_release_ms", d.aim_release_ms, lo=0, hi=5000),
        board_silence_ms=node.number("board_silence_ms", d.board_silence_ms, lo=250, hi=60000),
    )
    node.done()
    return result


def _gpio(node: Node, filters: Filters) -> GpioSettings:
    factory = node.str("pin_factory", "default", choices=PIN_FACTORIES)
    pull_up = _pull_up(node, True)
    active_high = node.bool("active_high", None)
    result = GpioSettings(
        pin_factory=factory,
        standees=tuple(_pin(p, pull_up, active_high, filters) for p in node.items("standees")),
        tilts=tuple(_pin(p, pull_up, active_high, filters) for p in node.items("tilts")),
    )
    node.done()
    return result


def _pull_up(node: Node, default: bool | None) -> bool | None:
    if "pull_up" in node and node.data["pull_up"] is None:
        node.bool("pull_up", None)
        return None  # `pull_up: null`: the circuit has its own resistor
    return node.bool("pull_up", default)


def _pin(node: Node, pull_up: bool | None, active_high: bool | None,
         filters: Filters) -> PinInput:
    pin = node.raw("pin", None)
    if isinstance(pin, bool) or not (
        (isinstance(pin, int) and 0 <= pin <= 53)
        or (isinstance(pin, str) and PIN_NAME.fullmatch(pin))
    ):
        raise node.error("pin", f"must be a GPIO number (0 to 53) or a name like GPIO17: {pin!r}")
    result = PinInput(
        seat=node.int("seat", lo=1, hi=MAX_SEAT),
        pin=pin,
        pull_up=_pull_up(node, pull_up),
        active_high=node.bool("active_high", active_high),
        invert=node.bool("invert", False),
        debounce_ms=node.number("debounce_ms", filters.debounce_ms, lo=0, hi=1000),
    )
    if result.pull_up is None and result.active_high is None:
        raise node.error("active_high", "is required when pull_up is null (no internal resistor)")
    if result.pull_up is not None and result.active_high is not None:
        raise node.error("active_high", "only applies with pull_up: null (with a pull resistor "
                                        "the active level is the opposite of the pull)")
    node.done()
    return result


def _board(node: Node) -> BoardSettings:
    port = node.str("port", None)
    usb_text = node.str("usb", None, pattern=USB_ID)
    if (port is None) == (usb_text is None):
        raise node.error("port", "give exactly one of `port` (a path) or `usb` (VID:PID)")
    usb = None
    if usb_text is not None:
        vid, pid = USB_ID.fullmatch(usb_text).groups()
        usb = (int(vid, 16), int(pid, 16))
    slots = node.section("slots")
    slot_us = slots.int("slot_us", None, lo=MIN_SLOT_US, hi=50000)  # a whole IR frame fits
    slot_seats = tuple(slots.int_list("seats", lo=1, hi=MAX_SEAT))
    if (slot_us is None) != (not slot_seats):
        raise slots.error("slot_us", "give both slot_us and seats, or neither")
    slots.done()
    default_name = re.sub(r"[^a-z0-9-]+", "-", (port or usb_text).lower()).strip("-")[-32:]
    result = BoardSettings(
        name=node.str("name", default_name or "board", pattern=NAME),
        port=port,
        usb=usb,
        serial_number=node.str("serial_number", None),
        board_id=node.str("id", None, pattern=re.compile(r"[a-z0-9-]{1,16}")),
        seat=node.int("seat", None, lo=1, hi=MAX_SEAT),
        baud=node.int("baud", 115200, lo=300, hi=4_000_000),
        slot_us=slot_us,
        slot_seats=slot_seats,
    )
    node.done()
    return result


def _unique(node: Node, section: str, key: str, seats: list[int]) -> None:
    dup = {s for s in seats if seats.count(s) > 1}
    if dup:
        sub = node.section(section)
        raise sub.error(key, f"seat {min(dup)} appears twice")
