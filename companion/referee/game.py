"""A game in play: its journal id, its setup and seating, the engine's state, its log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    history: dict[str, Any] | None = None  # the end chart, built once the game is over

    def __post_init__(self) -> None:
        self.player_at = {seat: name for name, seat in self.seat_of.items()}
