"""The guns' IMUs read from the Pi's I2C header: a fake TCA9548A and LSM6DS3TR-Cs on a fake
bus, read pass by pass on a FakeClock. Angles come from hardware/IMU.md: lowered below
-65°, raised again above -55°, still at 7 °/s or less."""

import logging

import pytest

from companion.clock import FakeClock
from companion.sensors.facts import CallbackSink
from companion.sensors.pi_imu import PiImus
from companion.sensors.settings import ImuSettings
from tests.sensors.fake_i2c import FakeBus, FakeImu

STEP_MS = 20  # 50 samples a second, IMU.md's rate


class Table:
    """Three guns on channels 0 to 2 (seats 1 to 3), a reader, what it said."""

    def __init__(self, imus=None):
        self.clock = FakeClock()
        self.imus = imus or {c: FakeImu() for c in range(3)}
        self.bus = FakeBus(self.imus)
        self.facts, self.devices, self.stats = [], [], []
        sink = CallbackSink(self.facts.append, self.devices.append)
        sink.health = lambda device, figures, t: self.stats.append(figures)
        self.reader = PiImus(ImuSettings(seats=(1, 2, 3)), sink, self.clock,
                             open_bus=lambda n: self.bus)

    def run(self, ms):
        for _ in range(round(ms / STEP_MS)):
            self.clock.advance(STEP_MS)
            self.reader.poll(self.clock.now_ms())

    def move(self, seat, to_deg, dps=150.0):
        """Turn the gun's nose to `to_deg` at `dps`, then hold it there."""
        imu = self.imus[seat - 1]
        sign = 1 if to_deg > imu.elevation else -1
        imu.pitch_dps = sign * dps
        while (to_deg - imu.elevation) * sign > 0:
            imu.elevation = imu.elevation + sign * min(dps * STEP_MS / 1000,
                                                       (to_deg - imu.elevation) * sign)
            self.run(STEP_MS)
        imu.pitch_dps = 0.0

    def raised(self, seat=None):
        return [f.value for f in self.facts if f.kind == "raised" and seat in (None, f.seat)]

    def gun(self, seat):
        """The gun's figures in the next `stat` (published once a second)."""
        published = len(self.stats)
        while len(self.stats) == published:
            self.run(STEP_MS)
        return self.stats[-1]["guns"][str(seat)]


@pytest.fixture
def table():
    t = Table()
    t.reader.open()
    t.run(1500)  # lowered, at rest: the gyro's bias is learnt (64 samples)
    return t


def test_the_chip_is_checked_and_set_up_as_the_datasheet_asks():
    t = Table()
    t.reader.open()
    t.run(STEP_MS)
    assert (0x10, 0x40) in t.imus[0].writes and (0x11, 0x44) in t.imus[0].writes
    assert t.devices[-1].online and t.devices[-1].port == "/dev/i2c-1"
    assert t.reader.faults == {}


def test_every_gun_is_lowered_at_start_and_stays_so_hanging_down(table):
    assert [(f.seat, f.value, f.device) for f in table.facts] == [
        (1, False, "pi-imu"), (2, False, "pi-imu"), (3, False, "pi-imu")]
    gun = table.gun(1)
    assert gun["elevation"] == pytest.approx(-80, abs=1) and gun["still"]


def test_a_gun_raised_level_is_one_raised_fact_and_still_once_held(table):
    table.move(1, 0)
    table.run(600)
    assert table.raised(1) == [False, True]
    assert table.raised(2) == [False]
    gun = table.gun(1)
    assert gun["raised"] and gun["still"] and gun["elevation"] == pytest.approx(0, abs=1)
    assert gun["rate"] <= 1.0  # a perfectly still fake: the bias was learnt while lowered


def test_a_standing_player_aiming_down_stays_raised(table):
    table.move(2, 0)
    table.move(2, -30)  # at a seated neighbour: the ball switch's trip angle
    table.run(3000)
    table.move(2, -50)  # steeper, still above the -55° the gun is raised again at
    table.run(3000)
    assert table.raised(2) == [False, True]
    assert table.gun(2)["elevation"] == pytest.approx(-50, abs=1)


def test_lowering_has_hysteresis_between_minus_65_and_minus_55(table):
    table.move(3, -60)  # up from the side, but not past -55°
    table.run(1000)
    assert table.raised(3) == [False]
    table.move(3, -20)
    table.move(3, -60)  # down from raised, not past -65°
    table.run(1000)
    assert table.raised(3) == [False, True]
    table.move(3, -80)
    table.run(500)
    assert table.raised(3) == [False, True, False]


def test_a_sweep_is_not_still_and_does_not_lower_the_gun(table):
    table.move(1, -10)
    table.run(600)
    table.imus[0].yaw_dps = 30.0  # a slow sweep round the table
    table.run(2000)
    gun = table.gun(1)
    assert not gun["still"] and gun["rate"] == pytest.approx(30, abs=3)
    table.imus[0].yaw_dps = 10.0  # the slowest sweep the rule must tell from a hold
    table.run(1000)
    assert not table.gun(1)["still"]
    table.imus[0].yaw_dps = 0.0
    table.run(500)
    assert table.gun(1)["still"]
    assert table.raised(1) == [False, True]


def test_an_unplugged_gun_is_said_once_lowered_and_back_when_replugged(table, caplog):
    table.move(2, 0)
    assert table.raised(2)[-1] is True
    caplog.set_level(logging.INFO, "companion.sensors.pi_imu")
    table.bus.unplugged.add(1)
    before = table.bus.transfers
    table.run(5000)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "seat 2" in warnings[0] and "no answer" in warnings[0]
    assert table.raised(2) == [False, True, False]  # a silent IMU cannot keep a gun raised
    assert "no answer" in table.stats[-1]["faults"]["2"]
    assert table.raised(1) == [False] and table.raised(3) == [False]  # the others read on
    # 250 passes: two guns read (select, burst); the silent one tried (select, WHO_AM_I)
    # once a second only, not every pass
    assert table.bus.transfers - before <= 2 * 2 * 250 + 2 * 6
    table.bus.unplugged.clear()
    table.run(1500)
    assert table.stats[-1]["faults"] == {}
    assert table.raised(2) == [False, True, False, True]
    assert any("answers again" in r.getMessage() for r in caplog.records)


def test_a_chip_that_is_not_an_lsm6ds3tr_c_is_refused_and_never_raises_a_gun(caplog):
    t = Table({0: FakeImu(who=0x69), 1: FakeImu(), 2: FakeImu()})
    t.imus[0].elevation = 0.0  # raised, but its readings cannot be trusted
    t.reader.open()
    t.run(3000)
    assert "WHO_AM_I reads 0x69" in t.stats[-1]["faults"]["1"]
    assert t.raised(1) == [False]  # lowered at start, and so it stays
    assert (0x10, 0x40) not in t.imus[0].writes
    assert sum("0x69" in r.getMessage() for r in caplog.records) == 1


def test_a_gun_whose_chip_restarted_is_set_up_again_and_not_read_as_level(table):
    table.move(1, -80 + 1)  # still lowered
    table.imus[0].restart()  # its cord pulled and pushed back between two reads
    table.run(100)
    assert "restarted" in table.stats[-1]["faults"]["1"]
    assert table.raised(1) == [False]  # zeros would read as a level, raised gun
    table.run(1500)
    assert table.stats[-1]["faults"] == {}
    assert table.gun(1)["elevation"] == pytest.approx(-79, abs=1)


def test_no_i2c_bus_is_said_once_and_the_reader_keeps_looking(caplog):
    clock, devices, opened = FakeClock(), [], []
    bus = FakeBus({0: FakeImu()})

    def open_bus(n):
        opened.append(n)
        if len(opened) < 3:
            raise FileNotFoundError(2, "No such file or directory", f"/dev/i2c-{n}")
        return bus

    reader = PiImus(ImuSettings(seats=(1,), hz=50), CallbackSink(lambda f: None,
                                                                 devices.append),
                    clock, open_bus=open_bus)
    reader.open()
    reader.open()
    assert [(d.online, d.reason) for d in devices] == [(False, "no_bus")]
    assert "no I2C bus /dev/i2c-1" in reader.figures()["bus_fault"]
    assert sum("no I2C bus" in r.getMessage() for r in caplog.records) == 1
    reader.open()
    assert devices[-1].online and reader.figures()["bus_fault"] is None
