"""What the referee decides to do: the effects `core.reduce` returns for the shell to carry
out (the journal's writes, a change to show, a refusal, a line to log).

They are records, like the inputs (companion.referee.inputs): the core makes them with no
clock, thread or I/O, the table carries them out under its lock (the writes first, on disk
before anything is shown), and the journal keeps them with each input (`inputs.decided`),
so a replay compares them decision for decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import Action


@dataclass(frozen=True)
class NewGame:
    game: int
    setup: dict[str, Any]
    at_ms: float


@dataclass(frozen=True)
class Record:
    game: int
    seq: int
    action: Action
    source: str
    at_ms: float


@dataclass(frozen=True)
class Finish:
    game: int


@dataclass(frozen=True)
class Undo:
    game: int
    seq: int


@dataclass(frozen=True)
class Rewrite:
    game: int
    first: int
    actions: tuple[tuple[Action, str, float], ...]


@dataclass(frozen=True)
class Hold:
    """A phone holds a seat (its claim's digest), or (digest None) no longer does."""

    game: int
    seat: int
    digest: str | None
    at_ms: float


@dataclass(frozen=True)
class Countdowns:
    """The round's countdowns as read ("Show me"), kept as they now stand: a restart shows
    them again without deciding its last start's inputs again."""

    game: int
    replays: tuple[dict[str, Any], ...]


Write = NewGame | Record | Finish | Undo | Rewrite | Hold | Countdowns


@dataclass(frozen=True)
class Changed:
    """The table changed: `game` when the game or the referee's stage did (a new version),
    else only a reading (a new revision)."""

    game: bool


@dataclass(frozen=True)
class Refused:
    """The input was refused: the refusal's kind, its words and what it adds."""

    kind: str
    message: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Log:
    message: str


Effect = Write | Changed | Refused | Log
