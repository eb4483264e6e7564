"""The countdown on a buzzer: gpiozero's mock pins record what the Pi's pin would do."""

from __future__ import annotations

import pytest
from gpiozero import Buzzer
from gpiozero.pins.mock import MockFactory
from local_table import NAMES8, LocalPort
from waiting import wait_for

from companion.referee.buzzer import LONG_S, CountdownBuzzer


@pytest.fixture
def buzzer():
    b = Buzzer(17, pin_factory=MockFactory())
    yield b
    b.close()


def test_one_two_three_beeps_short_short_long(buzzer):
    port = LocalPort()
    CountdownBuzzer(port.table, buzzer)
    port.do("new_game", players=NAMES8[:4], seed=1)
    for name in NAMES8[:4]:
        port.act(type="choose", player=name, card="click")
    pin = buzzer.pin
    port.do("countdown")  # "one"
    for beat in (1, 2, 3):
        if beat > 1:
            port.settle(ms=port.table.timing.beat_ms)
        wait_for(lambda b=beat: sum(1 for s in pin.states if s.state) == b)
        wait_for(lambda: not buzzer.is_active)
    rises = [s for s in pin.states if s.state]
    assert len(rises) == 3
    # the third beep is the long one: its "on" lasts about LONG_S
    i = pin.states.index(rises[-1])
    assert pin.states[i + 1].timestamp - rises[-1].timestamp >= LONG_S * 0.9
