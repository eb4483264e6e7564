"""A game in play: its journal id, its setup and seating, the engine's state, its log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.referee.journal import Entry
from companion.rules import Action, GameState, Setup


def engine_setup(setup: dict[str, Any]) -> Setup:
    """The rules engine's setup from the journal's record of a game."""
    return Setup(players=tuple(setup["players"]), powers=dict(setup.get("powers", {})),
                 seed=int(setup["seed"]), variant=dict(setup.get("variant", {})),
                 cards=setup.get("cards", "digital"), loot_mode=setup.get("loot", "digital"))


@dataclass
class Game:
    id: int
    setup: dict[str, Any]
    state: GameState
    seat_of: dict[str, int]  # player -> seat
    player_at: dict[int, str] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # who or what made each action
    seqs: list[int] = field(default_factory=list)  # each action's number in the journal
    times: list[float] = field(default_factory=list)  # when each was journaled
    last_seq: int = 0  # the highest number the game has used (undone actions too)
    history: dict[str, Any] | None = None  # the end chart, built once the game is over

    def __post_init__(self) -> None:
        self.player_at = {seat: name for name, seat in self.seat_of.items()}

    def entries(self) -> list[Entry]:
        """The game's actions in force, as the journal holds them."""
        return [Entry(*e) for e in zip(self.seqs, self.actions, self.sources, self.times,
                                       strict=True)]
