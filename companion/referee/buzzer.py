"""The countdown out loud on the Pi: a piezo buzzer on a GPIO pin beeps "one, two, three".

Short beeps for "one" and "two", a long one for "three", so players who are not looking
at the tablet keep the rhythm. It listens to the table like any other view.
"""

from __future__ import annotations

from typing import Any

from companion.referee.table import Table

SHORT_S, LONG_S = 0.08, 0.35


class CountdownBuzzer:
    def __init__(self, table: Table, buzzer: Any) -> None:
        """`buzzer` is a gpiozero `Buzzer` (any pin factory, MockFactory in tests)."""
        self.table, self.buzzer = table, buzzer
        self._beat = 0
        table.subscribe(self._changed)

    def _changed(self, _revision: int) -> None:
        stage = self.table.stage
        beat = stage.beat if stage.name == "countdown" else 0
        if beat > self._beat:
            on = LONG_S if beat == 3 else SHORT_S
            self.buzzer.beep(on_time=on, off_time=0.01, n=1, background=True)
        self._beat = beat


def buzzer_for(table: Table, pin: int, pin_factory: Any) -> CountdownBuzzer:
    from gpiozero import Buzzer

    return CountdownBuzzer(table, Buzzer(pin, pin_factory=pin_factory))
