"""Playing a scenario's actions through the engine, stopping at the first refused one."""

from __future__ import annotations

from companion.rules import GameState, RuleError, apply_in_place, new_game, state_to_dict

TYPE_CHECKING = False  # (typing is not imported to run: a replay starts faster without it)
if TYPE_CHECKING:
    from typing import Any

    from companion.scenario.load import Scenario


class Replay:
    """Where a replay stopped: the state, the JSON the spec prints (with "error" when an
    action was refused) and the message for standard error naming that action."""

    __slots__ = ("error", "output", "state")

    def __init__(self, state: GameState, output: dict[str, Any], error: str | None) -> None:
        self.state, self.output, self.error = state, output, error


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
