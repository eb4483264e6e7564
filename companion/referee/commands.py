"""What every command shares: who sends it, and how a refusal is told."""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from typing import Any

from companion.clock import SYSTEM_CLOCK

# Commands that must be made against the very latest state, not only the current step.
EXACT_VERSION = ("new_game", "undo", "recount")
REFUSAL_LOG_S = 10.0  # refused logins and claims are logged at most this often
log = logging.getLogger("companion.referee")


# The kinds of refusal, each with what it means; the HTTP layer gives each its status
# (companion.dashboard.api.STATUS).
KINDS = {
    "invalid": "the command or request is malformed",
    "unauthorized": "who sends it is not known (a PIN, a seat's claim is needed)",
    "forbidden": "who sends it may not do this",
    "conflict": "the table moved on, or the seat is held: look again",
    "too_large": "the request is larger than any command",
    "rule": "the rules or the referee's stage do not allow it now",
    "too_many": "too many wrong tries: wait",
    "blind": "a link is down: the referee would decide blind",
    "seating": "the seating check fails these seats at this table (a warning: confirm it)",
    "unwritten": "the journal cannot be written: nothing changed",
}


class CommandError(Exception):
    """A refused command: its `kind` (one of KINDS), words for people, and what it adds."""

    def __init__(self, kind: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        assert kind in KINDS, kind
        self.kind, self.message, self.extra = kind, message, extra


@dataclass(frozen=True)
class Auth:
    """Who sends a command: the Godfather's tablet (control) or a phone for one seat."""

    control: bool = False
    seat: int | None = None


class Refusals:
    """Refused tries (a wrong PIN, a claim on a taken seat) counted by reason and logged at
    most every REFUSAL_LOG_S, so a flood of them is one line a while, not a full disk."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.counts: Counter[str] = Counter()
        self._logged_at = float("-inf")

    def count(self, reason: str, detail: str) -> None:
        self.counts[reason] += 1
        now = SYSTEM_CLOCK.now_ms() / 1000
        if now - self._logged_at >= REFUSAL_LOG_S:
            self._logged_at = now
            log.warning("%s refused: %s, %s (so far: %s)", self.what, reason, detail,
                        dict(self.counts))
