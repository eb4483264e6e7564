"""The `sensors:` config section: filters, GPIO pins and I2C IMUs, the serial hub, the
simulated table.

Reference with defaults and their reasons: docs/SENSORS.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from companion.config import Node
from companion.wire import aimrule
from companion.wire.linecodec import SLOT_US

MAX_SEAT = 8
PIN_FACTORIES = ("default", "mock", "lgpio", "rpigpio", "pigpio", "native")
PIN_NAME = re.compile(r"(GPIO|BCM|BOARD|J8:|WPI)?[0-9]{1,2}|[A-Z0-9]+:[0-9]+")
USB_ID = re.compile(r"([0-9a-fA-F]{4}):([0-9a-fA-F]{4})")
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
SEATING = re.compile(r"[1-8](\+[0-8]){0,3}")


@dataclass(frozen=True)
class Filters:
    debounce_ms: float = 20.0  # a switch state must hold this long to count
    hold_ms: float = 500.0  # an aim counts once held this long (companion/wire/aimrule.py)
    board_silence_ms: float = 700.0  # a hub silent this long is offline (7 heartbeats)


@dataclass(frozen=True)
class PinInput:
    """A switch on a Pi pin; `active` (pulled to the active level) means up / raised."""

    seat: int
    pin: int | str
    pull_up: bool | None = True
    active_high: bool | None = None
    invert: bool = False
    debounce_ms: float = Filters.debounce_ms  # (the section's filters give each pin its own)


@dataclass(frozen=True)
class ImuSettings:
    """The guns' IMUs on the Pi's I2C header through a TCA9548A: seat s on channel s-1."""

    seats: tuple[int, ...] = ()
    bus: int = 1  # /dev/i2c-1: GPIO2 SDA, GPIO3 SCL (header pins 3 and 5)
    mux: int = 0x70  # the TCA9548A's address, A0..A2 low
    hz: float = 50.0  # samples a second per gun, as the hub reads 8 (hardware/IMU.md)


IMU_SAMPLE_MS = 1.8  # one gun's sample on a 100 kHz bus: 1.58 ms of bits, 0.2 of the kernel's
IMU_BUS_SHARE = 0.8  # at most this share of the bus's time is planned for the samples


@dataclass(frozen=True)
class GpioSettings:
    pin_factory: str = "default"
    standees: tuple[PinInput, ...] = ()
    tilts: tuple[PinInput, ...] = ()
    imu: ImuSettings = field(default_factory=ImuSettings)


@dataclass(frozen=True)
class BoardSettings:
    """The hub on a serial port, found by path or by USB VID:PID (and serial number)."""

    name: str
    port: str | None = None
    usb: tuple[int, int] | None = None
    serial_number: str | None = None
    board_id: str | None = None  # when set, a board saying another id is refused
    baud: int = 115200
    slot_us: int | None = None  # the slot schedule sent with SLOTS (None: the hub's own)
    slot_seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class HandSettings:
    """How the simulated players point (companion/tablesim)."""

    offset_deg: float = 3.0  # a person's steady pointing offset, held for one aim
    feedback: bool = True  # the aimer sees the lock LED and corrects onto the target
    ideal: bool = False  # no offset, drift or tremor, and turns at once: exact, fast aims


@dataclass(frozen=True)
class SimSettings:
    guns: tuple[int, ...] = ()  # the seats 1..N of the simulated table (badge, gun, pod)
    shape: str = "round"  # the table top: round or rect
    size_m: float = 1.2  # its diameter, or its long side
    seating: str | None = None  # rect: players per side, "3+3+1+1" (default: N on 2 sides)
    width_m: float | None = None  # rect: the short side (default: companion.tablesim's)
    slot_us: int = 2000
    hand: HandSettings = field(default_factory=HandSettings)
    seed: int = 0  # the hands' randomness
    link_dir: str | None = None  # where the hub's port link goes (a temporary folder)


@dataclass(frozen=True)
class SensorSettings:
    filters: Filters = field(default_factory=Filters)
    gpio: GpioSettings = field(default_factory=GpioSettings)
    boards: tuple[BoardSettings, ...] = ()
    sim: SimSettings = field(default_factory=SimSettings)

    SIM_HUB = "sim-hub"  # the config name of the simulated hub's link

    @property
    def simulated(self) -> bool:
        """Some of the table is simulated (a simulated hub, or mock pins): its broker lets
        the simulator be commanded, and its referee drives the simulator."""
        return bool(self.sim.guns) or self.gpio.pin_factory == "mock"


def parse(node: Node) -> SensorSettings:
    filters = _filters(node.section("filters"))
    gpio = _gpio(node.section("gpio"), filters)
    boards = tuple(_board(item, filters) for item in node.items("serial"))
    sim = _sim(node.section("sim"), filters)
    _unique(node, "gpio", "standees", [p.seat for p in gpio.standees])
    _unique(node, "gpio", "tilts", [p.seat for p in gpio.tilts])
    _unique(node, "sim", "guns", list(sim.guns))
    for key, seats in (("standees", {p.seat for p in gpio.standees}),
                       ("tilts", {p.seat for p in gpio.tilts}), ("imu", set(gpio.imu.seats))):
        both = sorted(seats & set(sim.guns))
        if both:
            raise node.section("gpio").error(key, f"seat {both[0]} is on the simulated hub "
                                                  "(sensors.sim.guns) too; give it one")
    for board in boards:  # the hub reads its own seats' IMUs
        both = sorted(set(board.slot_seats) & set(gpio.imu.seats))
        if both:
            raise node.section("gpio").section("imu").error(
                "seats", f"seat {both[0]} is in the slots of the hub {board.name!r} too, "
                         "which reads that gun's IMU; give it one")
    names = [b.name for b in boards]
    if len(set(names)) != len(names):
        raise node.error("serial", "two boards have the same name; give each a distinct `name`")
    return SensorSettings(filters, gpio, boards, sim)


def _filters(node: Node) -> Filters:
    d = Filters()
    result = Filters(
        debounce_ms=node.number("debounce_ms", d.debounce_ms, lo=0, hi=1000),
        hold_ms=node.number("hold_ms", d.hold_ms, lo=100, hi=3000),
        board_silence_ms=node.number("board_silence_ms", d.board_silence_ms, lo=250, hi=60000),
    )
    node.done()
    return result


def _gpio(node: Node, filters: Filters) -> GpioSettings:
    factory = node.text("pin_factory", GpioSettings.pin_factory, choices=PIN_FACTORIES)
    pull_up = _pull_up(node, PinInput.pull_up)
    active_high = node.flag("active_high", None)
    result = GpioSettings(
        pin_factory=factory,
        standees=tuple(_pin(p, pull_up, active_high, filters) for p in node.items("standees")),
        tilts=tuple(_pin(p, pull_up, active_high, filters) for p in node.items("tilts")),
        imu=_imu(node.section("imu")),
    )
    if result.tilts and result.imu.seats:
        raise node.error("imu", "a table reads its guns by tilt switches (`tilts`) or by "
                                "IMUs (`imu`), not both")
    node.done()
    return result


def _imu(node: Node) -> ImuSettings:
    """The IMUs' bus, within what a 100 kHz bus can read (hardware/IMU.md, "On the Pi")."""
    d = ImuSettings()
    seats = tuple(node.int_list("seats", lo=1, hi=MAX_SEAT))
    _unique_in(node, "seats", list(seats))
    result = ImuSettings(seats=seats, bus=node.integer("bus", d.bus, lo=0, hi=31),
                         mux=node.integer("mux", d.mux, lo=0x70, hi=0x77),
                         hz=node.number("hz", d.hz, lo=10, hi=100))
    busy = len(seats) * result.hz * IMU_SAMPLE_MS / 1000
    if busy > IMU_BUS_SHARE:
        raise node.error("hz", f"{len(seats)} guns at {result.hz:g} samples a second keep "
                               f"the 100 kHz bus {busy:.0%} busy, more than "
                               f"{IMU_BUS_SHARE:.0%}; at most "
                               f"{int(IMU_BUS_SHARE * 1000 / IMU_SAMPLE_MS / len(seats))}")
    node.done()
    return result


def _pull_up(node: Node, default: bool | None) -> bool | None:
    if "pull_up" in node and node.data["pull_up"] is None:
        node.flag("pull_up", None)
        return None  # `pull_up: null`: the circuit has its own resistor
    return node.flag("pull_up", default)


def _pin(node: Node, pull_up: bool | None, active_high: bool | None,
         filters: Filters) -> PinInput:
    pin = node.raw("pin", None)
    if isinstance(pin, bool) or not (
        (isinstance(pin, int) and 0 <= pin <= 53)
        or (isinstance(pin, str) and PIN_NAME.fullmatch(pin))
    ):
        raise node.error("pin", f"must be a GPIO number (0 to 53) or a name like GPIO17: {pin!r}")
    result = PinInput(
        seat=node.integer("seat", lo=1, hi=MAX_SEAT),
        pin=pin,
        pull_up=_pull_up(node, pull_up),
        active_high=node.flag("active_high", active_high),
        invert=node.flag("invert", PinInput.invert),
        debounce_ms=node.number("debounce_ms", filters.debounce_ms, lo=0, hi=1000),
    )
    if result.pull_up is None and result.active_high is None:
        raise node.error("active_high", "is required when pull_up is null (no internal resistor)")
    if result.pull_up is not None and result.active_high is not None:
        raise node.error("active_high", "only applies with pull_up: null (with a pull resistor "
                                        "the active level is the opposite of the pull)")
    node.done()
    return result


def _slot_us(node: Node, key: str, default: int | None, seats: int,
             filters: Filters) -> int | None:
    """A slot length whose round ((seats + 1) slots, the dark one first) fits three times
    in the aim hold, so a hold spans at least three looks (companion/wire/aimrule.py)."""
    slot_us = node.integer(key, default, lo=SLOT_US[0], hi=SLOT_US[1])
    if slot_us is not None and seats and not aimrule.round_fits(filters.hold_ms,
                                                                (seats + 1) * slot_us):
        raise node.error(key, f"a round of {seats + 1} slots of {slot_us} us is "
                              f"{(seats + 1) * slot_us / 1000:g} ms, longer than a third of "
                              f"sensors.filters.hold_ms ({filters.hold_ms:g} ms)")
    return slot_us


def _board(node: Node, filters: Filters) -> BoardSettings:
    port = node.text("port", None)
    usb_text = node.text("usb", None, pattern=USB_ID)
    if (port is None) == (usb_text is None):
        raise node.error("port", "give exactly one of `port` (a path) or `usb` (VID:PID)")
    usb = None
    if usb_text is not None:
        vid, pid = USB_ID.fullmatch(usb_text).groups()  # type: ignore[union-attr]  # text()
        usb = (int(vid, 16), int(pid, 16))
    slots = node.section("slots")
    slot_seats = tuple(slots.int_list("seats", lo=1, hi=MAX_SEAT))
    slot_us = _slot_us(slots, "slot_us", None, len(slot_seats), filters)
    if (slot_us is None) != (not slot_seats):
        raise slots.error("slot_us", "give both slot_us and seats, or neither")
    _unique(node, "slots", "seats", list(slot_seats))
    slots.done()
    default_name = re.sub(r"[^a-z0-9-]+", "-", (port or usb_text).lower()).strip("-")[-32:]
    result = BoardSettings(
        name=node.text("name", default_name or "board", pattern=NAME),
        port=port,
        usb=usb,
        serial_number=node.text("serial_number", None),
        board_id=node.text("id", None, pattern=re.compile(r"[a-z0-9-]{1,16}")),
        baud=node.integer("baud", 115200, lo=300, hi=4_000_000),
        slot_us=slot_us,
        slot_seats=slot_seats,
    )
    node.done()
    return result


def _sim(node: Node, filters: Filters) -> SimSettings:
    d = SimSettings()
    guns = tuple(node.int_list("guns", lo=1, hi=MAX_SEAT))
    table, hand = node.section("table"), node.section("hand")
    if guns and guns != tuple(range(1, len(guns) + 1)):
        raise node.error("guns", "must be the seats 1 to N in order round the table")
    shape = table.text("shape", d.shape, choices=("round", "rect"))
    size_m = table.number("size_m", d.size_m, lo=0.5, hi=3.0)
    width_m = table.number("width_m", None, lo=0.4, hi=3.0)
    seating = table.text("seating", None, pattern=SEATING)
    for key, value in (("width_m", width_m), ("seating", seating)):
        if value is not None and shape != "rect":
            raise table.error(key, "only for shape: rect")
    if seating and sum(map(int, seating.split("+"))) != len(guns):
        raise table.error("seating", f"seats {seating} players, but sim.guns has {len(guns)}")
    table.done()
    dh = HandSettings()
    result = SimSettings(
        guns=guns, shape=shape, size_m=size_m, seating=seating, width_m=width_m,
        slot_us=_slot_us(node, "slot_us", d.slot_us, len(guns), filters) or d.slot_us,
        hand=HandSettings(offset_deg=hand.number("offset_deg", dh.offset_deg, lo=0, hi=20),
                          feedback=hand.flag("feedback", dh.feedback),
                          ideal=hand.flag("ideal", dh.ideal)),
        seed=node.integer("seed", d.seed, lo=0, hi=2**31),
        link_dir=node.text("link_dir", None),
    )
    hand.done()
    node.done()
    return result


def _unique(node: Node, section: str, key: str, seats: list[int]) -> None:
    _unique_in(node.section(section), key, seats)


def _unique_in(node: Node, key: str, seats: list[int]) -> None:
    dup = {s for s in seats if seats.count(s) > 1}
    if dup:
        raise node.error(key, f"seat {min(dup)} appears twice")
