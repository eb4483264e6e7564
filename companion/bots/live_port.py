"""The table bot's port onto a running table in the same process, at a human pace."""

from __future__ import annotations

import threading
from typing import Any

from companion.referee.access import who_taps
from companion.referee.table import Table


class LivePort:
    """Taps as the Godfather and the phones, sensors through the simulator, time as it
    passes."""

    def __init__(self, table: Table, simulator: Any, stop: threading.Event,
                 pace_s: float = 0.6) -> None:
        self.table, self.sim, self.stop, self.pace_s = table, simulator, stop, pace_s

    def _until(self, condition: Any, timeout_s: float) -> None:
        clock = self.table.clock
        deadline = clock.now_ms() + timeout_s * 1000
        while not condition() and clock.now_ms() < deadline and not self.stop.is_set():
            self.stop.wait(0.02)

    def _reading(self, seat: int, kind: str) -> Any:
        return self.table.readings.now(seat, kind, self.table.clock.now_ms())

    def control(self) -> dict[str, Any]:
        """The table as the Godfather sees it, looked at once the people watching have
        followed the last move; a tap made from it follows at once, as a quick player's
        does, so a table that moves on faster than the pace still takes the bots' taps."""
        self.stop.wait(self.pace_s)
        return self.table.control_state()

    def legal(self, _state: dict[str, Any]) -> list[dict[str, Any]]:
        return [a.to_dict() for a in self.table.legal()]

    def command(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """A tap on the tablet, or on a player's phone for a card from their hand."""
        seat_of = self.table.game.seat_of if self.table.game else {}
        return self.table.command(cmd, who_taps(cmd.get("action"), seat_of))

    def aim(self, seat: int, target: int | None) -> None:
        self.sim.raise_gun(seat, target is not None)
        self.sim.aim(seat, target)
        self._until(lambda: self._reading(seat, "aim") == target, 3)

    def posture(self, seat: int, down: bool) -> None:
        (self.sim.tip if down else self.sim.stand)(seat)
        self._until(lambda: self._reading(seat, "posture") == ("down" if down else "up"), 3)

    def wait_for_people(self, seats: list[int], timeout_s: float) -> None:
        """People play some seats: give them time to raise their guns before "three"."""
        self._until(lambda: all(self._reading(seat, "raised") for seat in seats), timeout_s)

    def settle(self, state: dict[str, Any]) -> None:
        self._until(lambda: self.table.version != state["version"], 10)
