"""A referee table in the test's process, on a fake clock, with facts handed in directly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.clock import FakeClock
from companion.referee.access import who_taps
from companion.referee.commands import Auth
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table
from companion.sensors.facts import Fact

CONTROL = Auth(control=True)
NAMES8 = ["Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"]


class LocalPort:
    """The bot's view of a table: commands as the tablet, sensors as facts, time as a knob."""

    def __init__(self, journal: Path | str = ":memory:", clock: FakeClock | None = None,
                 keep_games: int = 0) -> None:
        self.clock = clock or FakeClock()
        self.table = Table("test", RefereeSettings(pin="2468"), Journal(journal, keep_games),
                           self.clock)

    def control(self) -> dict[str, Any]:
        return self.table.control_state()

    def legal(self, _state: dict[str, Any]) -> list[dict[str, Any]]:
        return [a.to_dict() for a in self.table.legal()]

    def command(self, cmd: dict[str, Any], auth: Auth | None = None) -> dict[str, Any]:
        """As `auth`; by default a tap on the tablet, or on the player's phone for a card
        from their hand (the tablet may not play one)."""
        seat_of = self.table.game.seat_of if self.table.game else {}
        return self.table.command(cmd, auth or who_taps(cmd.get("action"), seat_of))

    def fact(self, kind: str, seat: int, value: Any, dt: float = 0.0) -> None:
        self.table.on_fact(Fact(kind, seat, value, self.clock.now_ms() + dt, "test"))  # type: ignore[arg-type]

    def aim(self, seat: int, target: int | None) -> None:
        self.fact("raised", seat, target is not None)
        self.fact("aim", seat, target)

    def posture(self, seat: int, down: bool) -> None:
        self.fact("posture", seat, "down" if down else "up")

    def settle(self, _state: dict[str, Any] | None = None, ms: float = 50.0) -> None:
        self.clock.advance(ms)
        self.table.tick()

    def run_for(self, ms: float) -> None:
        for _ in range(int(ms // 50) + 1):
            self.settle()

    def round_the_table(self, n: int = 4) -> None:
        """Every gun held on the next player, every standee up; the hold-up counted."""
        for seat in range(1, n + 1):
            self.aim(seat, seat % n + 1)
            self.posture(seat, False)
        self.do("countdown")
        self.run_for(3000)

    def act(self, **action: Any) -> dict[str, Any]:
        return self.command({"type": "action", "version": self.table.version, "action": action})

    def do(self, kind: str, **fields: Any) -> dict[str, Any]:
        return self.command({"type": kind, "version": self.table.version, **fields})
