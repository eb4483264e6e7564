"""Standees and tilts on gpiozero's MockFactory pins, debounced against a FakeClock."""

import pytest
from gpiozero.pins.mock import MockFactory

from companion.clock import FakeClock
from companion.sensors.facts import CallbackSink
from companion.sensors.gpio import GpioBackend
from companion.sensors.scheduler import Scheduler
from companion.sensors.settings import GpioSettings, PinInput


@pytest.fixture
def rig():
    clock, facts, devices = FakeClock(), [], []
    factory = MockFactory()
    settings = GpioSettings(
        pin_factory="mock",
        standees=(PinInput(seat=2, pin=6, debounce_ms=20),),
        tilts=(PinInput(seat=3, pin=20, pull_up=None, active_high=True, debounce_ms=40),
               PinInput(seat=4, pin=21, pull_up=False, invert=True, debounce_ms=0)),
    )
    scheduler = Scheduler(clock)
    backend = GpioBackend(settings, CallbackSink(facts.append, devices.append), scheduler,
                          clock, pin_factory=factory)
    backend.open()
    factory.pin(6).drive_low()  # the standee stands: its switch closes to ground
    backend.start()
    yield clock, scheduler, backend, factory, facts, devices
    backend.stop()
    factory.close()


def readings(facts):
    return [(f.kind, f.seat, f.value) for f in facts]


def test_start_reports_every_switch_as_it_is(rig):
    clock, _, _, _, facts, devices = rig
    assert readings(facts) == [("posture", 2, "up"), ("raised", 3, False), ("raised", 4, True)]
    assert devices[0].online and devices[0].device == "gpio"
    assert all(f.t_ms == clock.now_ms() for f in facts)


def test_a_tipped_standee_counts_after_the_debounce_with_the_edge_time(rig):
    clock, scheduler, _, factory, facts, _ = rig
    facts.clear()
    edge = clock.advance(5)
    factory.pin(6).drive_high()  # laid down: the switch opens, the pull-up wins
    clock.advance(19)
    scheduler.run_due()
    assert facts == []
    clock.advance(1)
    scheduler.run_due()
    assert readings(facts) == [("posture", 2, "down")]
    assert facts[0].t_ms == edge


def test_bounce_shorter_than_the_debounce_changes_nothing(rig):
    clock, scheduler, backend, factory, facts, _ = rig
    facts.clear()
    for _ in range(3):
        factory.pin(6).drive_high()
        clock.advance(2)
        factory.pin(6).drive_low()
        clock.advance(2)
    clock.advance(100)
    scheduler.run_due()
    assert facts == []
    assert backend.debouncers[("posture", 2)].bounces >= 2


def test_active_high_and_inverted_tilts(rig):
    clock, scheduler, _, factory, facts, _ = rig
    facts.clear()
    factory.pin(20).drive_high()  # active high, no pull: raised
    factory.pin(21).drive_high()  # pulled down, inverted: high means lowered
    clock.advance(40)
    scheduler.run_due()
    assert readings(facts) == [("raised", 4, False), ("raised", 3, True)]


def test_stop_reports_offline(rig):
    _, _, backend, _, _, devices = rig
    backend.stop()
    assert devices[-1].online is False and devices[-1].reason == "stopped"
