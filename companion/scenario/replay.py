"""Playing a scenario's actions through the engine, stopping at the first refused one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules import GameState, RuleError, apply_in_place, new_game, state_to_dict
from companion.scenario.load import Scenario


@dataclass
class Replay:
    state: GameState
    output: dict[str, Any]  # the JSON the spec prints, with "error" when refused
    error: str | None  # the message for standard error, naming the action


def replay(scenario: Scenario) -> Replay:
    state = new_game(scenario.setup)
    for number, (action, line) in enumerate(
        zip(scenario.actions, scenario.action_lines, strict=True), start=1
    ):
        trial = state.copy()
        try:
            apply_in_place(trial, action)
        except RuleError as e:
            output = state_to_dict(state)
            output["error"] = {"action": number, "message": str(e)}
            where = f"{scenario.filename}:{line}" if line else scenario.filename
            return Replay(state, output, f"{where}: action {number} {action}: refused: {e}")
        state = trial
    return Replay(state, state_to_dict(state), None)
