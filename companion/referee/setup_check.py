"""Before a game: each seat's gun and standee checked live, by the players themselves.

A gun passes once seen raised and aimed at one player: by the IR (the hub's held aim, or
the visibility matrix seeing exactly one badge) when the hub reads its aims, else raised
by its tilt switch. A standee passes once tipped down and stood up again. What passed is
remembered until a game starts or ends: the matrix keeps only the last second.
"""

from __future__ import annotations

import threading
from typing import Any

from companion.referee.equipment import SEATS
from companion.referee.readings import Readings


class SetupCheck:
    """Fed by the table's listener (each seat's readings in the snapshot the table
    showed) and by the page's polls (the matrix, which has its own lock)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._game: object = None  # the game (id, over) the passes were made for
        self._raised: set[int] = set()  # guns raised now, as last heard
        self._tipped: set[int] = set()  # standees seen lying down
        self.gun_ok: set[int] = set()
        self.standee_ok: set[int] = set()

    def heard(self, seats: dict[int, dict[str, Any]], matrix_seats: tuple[int, ...],
              game: object) -> None:
        """After any change at the table: what each seat's gun and standee read in the
        snapshot the table showed, and the seats the hub's looks cover."""
        with self._lock:
            self._start(game)
            for seat in SEATS:
                now = seats[seat]
                self._raised.discard(seat)
                if now["raised"] is True:
                    self._raised.add(seat)
                    if isinstance(now["aim"], int) or seat not in matrix_seats:
                        self.gun_ok.add(seat)  # held an aim, or has no IR to aim with
                if now["posture"] == "down":
                    self._tipped.add(seat)
                elif seat in self._tipped:
                    self.standee_ok.add(seat)

    def read(self, readings: Readings, game: object, now_ms: float) -> dict[int, dict[str, Any]]:
        """Each seat's check now: the matrix's `sees` counts for a raised gun."""
        sees = readings.matrix.shares(now_ms)["sees"]
        with self._lock:
            self._start(game)
            for seat, badge in sees.items():
                if badge is not None and seat in self._raised:
                    self.gun_ok.add(seat)
            return {seat: {"gun_ok": seat in self.gun_ok, "standee_ok": seat in self.standee_ok,
                           "aims": seat in sees} for seat in SEATS}

    def _start(self, game: object) -> None:
        if game != self._game:
            self._game = game
            self._raised.clear()
            self._tipped.clear()
            self.gun_ok.clear()
            self.standee_ok.clear()
