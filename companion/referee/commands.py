"""What every command shares: who sends it, and how a refusal is told."""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

# Commands that must be made against the very latest state, not only the current step.
EXACT_VERSION = ("new_game", "undo", "recount")
REFUSAL_LOG_S = 10.0  # refused logins and claims are logged at most this often
log = logging.getLogger("companion.referee")


class CommandError(Exception):
    """A refused command: `status` is the HTTP status the API answers with."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


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
        now = time.monotonic()
        if now - self._logged_at >= REFUSAL_LOG_S:
            self._logged_at = now
            log.warning("%s refused: %s, %s (so far: %s)", self.what, reason, detail,
                        dict(self.counts))
