"""The stream overlay's hidden values, each shown only once the Godfather's delay has passed.

A broadcast may show the bullet cards chosen and the hands, but only late enough that no
player can learn from the stream what the table hides. The server keeps the delay: every
change of the hidden values is taped with its time on the table's clock (the clock seam),
and `GET /api/overlay` serves the values of time T only once the clock reads T + delay;
with the delay off (the default) it never serves any. The delay is set by the Godfather
(session and CSRF) and kept in the journal's `meta` table, so a restart keeps it.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request

from companion.dashboard.access import require_control_post
from companion.dashboard.pages import render
from companion.referee.journal import JournalError
from companion.referee.table import Table
from companion.referee.views import Snapshot

LOG = logging.getLogger(__name__)
DELAYS_S = (30, 60, 120, 300, 600)  # what the Godfather may choose; 0 is off
DELAY_KEY = "overlay_delay_s"  # the journal's meta row


def hidden_of(t: Snapshot) -> dict[str, Any] | None:
    """What the table hides at this instant: each player's card down, hand and loot."""
    game = t.game
    if game is None:
        return None
    s = game.state
    return {"game": game.id, "round": s.round, "players": [
        {"name": p.name, "card": p.card, "loot": p.loot[:],
         "hand": None if s.physical else {"bang": p.bang, "click": p.click}}
        for p in s.players]}


class Tape:
    """The hidden values with the time each began, kept as long as the longest delay
    needs them (the one in force at that time, and every later change)."""

    def __init__(self, keep_ms: float = max(DELAYS_S) * 1000) -> None:
        self.keep_ms = keep_ms
        self._rows: deque[tuple[float, dict[str, Any] | None]] = deque()
        self._lock = threading.Lock()

    def record(self, at_ms: float, hidden: dict[str, Any] | None) -> None:
        with self._lock:
            if self._rows and self._rows[-1][1] == hidden:
                return  # (nothing hidden changed)
            self._rows.append((at_ms, hidden))
            while len(self._rows) > 1 and self._rows[1][0] <= at_ms - self.keep_ms:
                self._rows.popleft()  # (the next row is old enough for every delay)

    def at(self, when_ms: float) -> tuple[float, dict[str, Any] | None] | None:
        """The row in force at `when_ms` (its start and values), None before the first."""
        with self._lock:
            kept = [row for row in self._rows if row[0] <= when_ms]
        return kept[-1] if kept else None


class Overlay:
    """The delay and the tape of one table; records on every change of the table."""

    def __init__(self, table: Table) -> None:
        self.table, self.tape = table, Tape()
        self.delay_s = self._stored_delay()
        self.record()
        table.subscribe(lambda _revision: self.record())

    def record(self) -> None:
        """Tape what the table last showed (the outbox's snapshot, never the table again)."""
        t = self.table.frame().t
        self.tape.record(t.now_ms, hidden_of(t))

    def state(self) -> dict[str, Any]:
        now = self.table.clock.now_ms()
        row = self.tape.at(now - self.delay_s * 1000) if self.delay_s else None
        revealed = None if row is None or row[1] is None else {"at_ms": row[0], **row[1]}
        return {"delay_s": self.delay_s, "now_ms": now, "revealed": revealed}

    def set_delay(self, delay_s: int) -> None:
        with self.table.journal.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                       (DELAY_KEY, str(delay_s)))
        self.delay_s = delay_s
        LOG.info("overlay: hidden cards shown %s", f"{delay_s} s late" if delay_s else "never")

    def _stored_delay(self) -> int:
        """The delay kept in the journal; off when it cannot be read (the table plays on)."""
        try:
            with self.table.journal.transaction() as db:
                row = db.execute("SELECT value FROM meta WHERE key = ?",
                                 (DELAY_KEY,)).fetchone()
        except JournalError as e:
            LOG.warning("overlay: the delay is off: %s", e)
            return 0
        return int(row[0]) if row else 0


def check_delay(data: Any) -> int:
    """`{"delay_s": 0 or one of DELAYS_S}`, or a 400 saying what was wrong."""
    value = data.get("delay_s") if isinstance(data, dict) else None
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, *DELAYS_S):
        abort(400, f"delay_s: 0 (never) or one of {', '.join(map(str, DELAYS_S))} seconds, "
                   f"not {value!r}")
    return value


def overlay_blueprint(table: Table) -> Blueprint:
    """`GET /api/overlay`: the delay and the hidden values now due (public: the delay is
    what keeps them from the players); `POST /api/overlay/delay`: the Godfather sets it."""
    bp = Blueprint("overlay", __name__)
    overlay = Overlay(table)

    @bp.get("/overlay")
    def page() -> str:
        """The browser source for OBS: a transparent page of the table and the late cards."""
        return render("overlay.html", delays=DELAYS_S)

    @bp.get("/api/overlay")
    def hidden() -> Response:
        response = jsonify(overlay.state())
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.post("/api/overlay/delay")
    def delay() -> Response:
        require_control_post()
        try:
            overlay.set_delay(check_delay(request.get_json(silent=True)))
        except JournalError as e:
            abort(503, f"the delay is not changed: {e}")
        return jsonify(overlay.state())

    return bp
