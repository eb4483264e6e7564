"""The guns' IMUs read straight from the Pi's I2C header, for a table without a hub.

The same parts as the hub's (hardware/IMU.md): one LSM6DS3TR-C per gun, each behind its
own channel of a TCA9548A, here on the Pi's GPIO2/GPIO3, read with smbus2 on a thread of
its own (a pass over eight guns holds the bus for about 14 ms). Each sample goes through
the hub's own motion code (`companion/wire/motion.py`), so a gun is raised and lowered at
the same angles, with the same hysteresis, as on a hub; its `raised` facts are the ones
the hub link makes of the hub's `GUN` lines: every gun lowered at start, then each change.
Its rate and stillness are in the device's figures (`stat`): aims still need the hub.
The chip's registers, setup and scaling are the hub's too (`companion/wire/lsm6.py`).

A gun whose IMU does not answer (an `OSError` from the bus: unplugged, a cable out),
answers as another chip, or was restarted (its cord replugged: the chip wakes in
power-down, reading zeros, which would be a level gun) is logged once, shown in the
figures until it answers again, and retried every `RETRY_MS`; after `motion.MAX_GAP_MS`
without a sample it counts as lowered.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from companion.clock import Clock
from companion.sensors.facts import DeviceInfo, Fact, FactSink
from companion.sensors.settings import ImuSettings
from companion.wire import lsm6
from companion.wire.motion import TICKS_MASK, GunMotion

log = logging.getLogger(__name__)

DEVICE = "pi-imu"
RETRY_MS = 1000.0  # a gun that failed is tried again after this long
STAT_MS = 1000.0  # the figures are published this often
BUS_RETRY_S = 1.0  # a missing /dev/i2c-N is looked for again this often


class I2CBus(Protocol):
    """The part of smbus2's SMBus this reader uses (tests give a fake chip behind it)."""

    def write_byte(self, i2c_addr: int, value: int) -> None: ...
    def read_byte_data(self, i2c_addr: int, register: int) -> int: ...
    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None: ...
    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]: ...
    def close(self) -> None: ...


def open_smbus(number: int) -> I2CBus:
    """The Pi's /dev/i2c-N; OSError when it is not there (I2C not enabled) or smbus2 is not
    installed (the `pi` extra)."""
    try:
        from smbus2 import SMBus
    except ImportError as exc:
        raise OSError(f"smbus2 is not installed (pip install -e '.[pi]'): {exc}") from exc
    return SMBus(number)


class ImuFault(Exception):
    """A gun's IMU that cannot be read: what was wrong, for the log and the doctor."""


class PiImus:
    """Every configured gun's IMU, read in turn `settings.hz` times a second."""

    def __init__(self, settings: ImuSettings, sink: FactSink, clock: Clock,
                 lock: Any = None, open_bus: Callable[[int], I2CBus] = open_smbus) -> None:
        self.settings, self.sink, self.clock = settings, sink, clock
        self.lock = lock if lock is not None else threading.RLock()
        self.port = f"/dev/i2c-{settings.bus}"
        self.open_bus = open_bus
        self.bus: I2CBus | None = None
        self.guns = {seat: GunMotion() for seat in settings.seats}
        self.faults: dict[int, str] = {}  # seat -> why its IMU cannot be read
        self.bus_fault: str | None = None  # why the bus itself cannot be opened
        self._ready: set[int] = set()  # seats whose chip was checked and set up
        self._tried: dict[int, float] = {}  # seat -> when it last failed
        self.reads = self.failed = 0
        self._stat_at: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def open(self) -> None:
        """Every gun lowered until its IMU says otherwise; the bus opened if it is there."""
        now = self.clock.now_ms()
        for seat in self.settings.seats:
            self._emit(seat, False, now)
        self._connect(now)

    def start(self) -> None:
        """`open`, then a pass every 1/hz s on the reader thread (tests call `poll`)."""
        self.open()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="pi-imu", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        if self.bus is not None:
            self.bus.close()
            self.bus = None
        self.sink.device(self._info(False, "stopped", self.clock.now_ms()))

    def _run(self) -> None:
        """A pass every 1/hz s of real time (the bus's), wherever the last one ended; a
        late pass starts the next at once rather than a burst to catch up."""
        period_s = 1.0 / self.settings.hz
        due = time.monotonic()
        while not self._stop.is_set():
            if self.bus is None and not self._connect(self.clock.now_ms()):
                self._stop.wait(BUS_RETRY_S)
                due = time.monotonic()
                continue
            self.poll(self.clock.now_ms())
            due = max(due + period_s, time.monotonic())
            self._stop.wait(due - time.monotonic())

    def _connect(self, now_ms: float) -> bool:
        """Open the bus; a missing one is said once, then looked for again."""
        try:
            self.bus = self.open_bus(self.settings.bus)
        except OSError as exc:
            said, self.bus_fault = self.bus_fault, f"no I2C bus {self.port} ({exc})"
            if said is None:
                log.error("IMUs: %s: enable I2C (raspi-config)", self.bus_fault)
                self.sink.device(self._info(False, "no_bus", now_ms))
                self.sink.health(DEVICE, self.figures(), now_ms)
            return False
        self.bus_fault = None
        self._ready.clear()
        log.info("IMUs: guns %s on %s through the TCA9548A at 0x%02x",
                 ", ".join(map(str, self.settings.seats)), self.port, self.settings.mux)
        self.sink.device(self._info(True, "started", now_ms))
        return True

    def poll(self, now_ms: float) -> None:
        """One pass: a sample of every gun (the ones that failed, once per RETRY_MS)."""
        ticks = int(now_ms) & TICKS_MASK
        for seat in self.settings.seats:
            sample = self._sample(seat, now_ms)
            gun = self.guns[seat]
            if gun.lost(ticks) if sample is None else gun.update(ticks, *sample):
                self._emit(seat, gun.raised, now_ms)
        if self._stat_at is None or now_ms - self._stat_at >= STAT_MS:
            self._stat_at = now_ms
            self.sink.health(DEVICE, self.figures(), now_ms)

    def figures(self) -> dict[str, Any]:
        """Each gun's elevation, rate and stillness, the reads and the faults: `stat`."""
        guns = {str(s): {"raised": g.raised, "still": g.still(),
                         "elevation": None if g.el is None else round(g.el, 1),
                         "rate": round(g.rate, 1)} for s, g in self.guns.items()}
        return {"reads": self.reads, "failed": self.failed, "guns": guns,
                "bus_fault": self.bus_fault,
                "faults": {str(s): why for s, why in sorted(self.faults.items())}}

    def _sample(self, seat: int, now_ms: float) -> tuple[float, ...] | None:
        if seat in self.faults and now_ms - self._tried.get(seat, now_ms) < RETRY_MS:
            return None
        self.reads += 1
        try:
            raw = self._read(seat)
        except (OSError, ImuFault) as exc:
            self.failed += 1
            self._ready.discard(seat)
            self._tried[seat] = now_ms
            self._fault(seat, str(exc) if isinstance(exc, ImuFault) else f"no answer ({exc})")
            return None
        if self.faults.pop(seat, None) is not None:
            log.info("IMUs: seat %d's gun answers again", seat)
            self._stat_at = None  # the doctor sees it at once
        return lsm6.sample(bytes(raw))

    def _read(self, seat: int) -> list[int]:
        """Select the gun's channel, set its chip up the first time, read the 12 bytes."""
        bus = self.bus
        if bus is None:
            raise OSError("the I2C bus is closed")
        bus.write_byte(self.settings.mux, 1 << (seat - 1))
        if seat not in self._ready:
            who = bus.read_byte_data(lsm6.CHIP, lsm6.WHO_AM_I)
            if who != lsm6.WHO:
                raise ImuFault(f"WHO_AM_I reads 0x{who:02x}, not 0x{lsm6.WHO:02x}: not an "
                               "LSM6DS3TR-C")
            for register, value in lsm6.SETUP:
                bus.write_byte_data(lsm6.CHIP, register, value)
            self._ready.add(seat)
        raw = bus.read_i2c_block_data(lsm6.CHIP, lsm6.OUTX_L_G, lsm6.BURST)
        if len(raw) != lsm6.BURST:
            raise ImuFault(f"a short read: {len(raw)} of {lsm6.BURST} bytes")
        if not any(raw[6:]) and not bus.read_byte_data(lsm6.CHIP, lsm6.STATUS_REG) & lsm6.XLDA:
            self._ready.discard(seat)  # its cord was replugged: the chip is back in power-down
            raise ImuFault("restarted (no data: its cord replugged?); set up again")
        return raw

    def _fault(self, seat: int, why: str) -> None:
        """Said once per fault (and again only if the reason changes)."""
        if self.faults.get(seat) == why:
            return
        self.faults[seat] = why
        self._stat_at = None  # the doctor sees it at once
        log.warning("IMUs: seat %d's gun (channel %d of the TCA9548A on %s): %s", seat,
                    seat - 1, self.port, why)

    def _emit(self, seat: int, raised: bool, t_ms: float) -> None:
        with self.lock:
            self.sink.fact(Fact("raised", seat, raised, t_ms, DEVICE))

    def _info(self, online: bool, reason: str, t_ms: float) -> DeviceInfo:
        return DeviceInfo(DEVICE, "i2c", "imus", online, reason, t_ms, port=self.port,
                          name="imu")
