"""Who has still to aim or to decide in the step a game rests at, told from the actions
played and the rules (R3: everyone aims at once, then everyone decides at once; R25: the
Kid aims after every other living player): an expectation computed apart from the
engine's flags and phase table, for the tests of what the rules and the pages offer."""

from __future__ import annotations

from typing import Any


class StillToAct:
    """Fed every action played, in order (`played`); `left(state)` then says who has still
    to act in the hold-up or the courage step the state rests at."""

    def __init__(self) -> None:
        self.done: dict[str, set[str]] = {"aim": set(), "courage": set()}

    def played(self, action: Any) -> None:
        if action.type == "choose":  # a turn's bullet choice: nobody has aimed or decided
            self.done = {"aim": set(), "courage": set()}
        elif action.type in self.done:
            self.done[action.type].add(action.player)

    def left(self, state: Any) -> list[Any]:
        """The living players still to aim (hold-up) or decide (courage); [] elsewhere."""
        kind = {"holdup": "aim", "courage": "courage"}.get(state.phase)
        if kind is None:
            return []
        return [p for p in state.living() if p.name not in self.done[kind]]
