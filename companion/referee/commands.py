"""What every command shares: who sends it, and how a refusal is told."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Commands that must be made against the very latest state, not only the current step.
EXACT_VERSION = ("new_game", "undo", "recount")


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
