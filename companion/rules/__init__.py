"""The pure rules engine of Cash 'n Guns (second edition).

No I/O and no clock: `apply(state, action)` returns a new state and the events
it caused, or raises `RuleError` and leaves the state as it was. Every random
effect draws from the seeded generator carried in the state.
"""

from companion.rules.actions import Action, action_from_dict
from companion.rules.engine import apply, apply_in_place, legal_actions
from companion.rules.errors import RuleError
from companion.rules.report import state_to_dict
from companion.rules.setup import Setup, new_game
from companion.rules.state import GameState

__all__ = [
    "Action",
    "GameState",
    "RuleError",
    "Setup",
    "action_from_dict",
    "apply",
    "apply_in_place",
    "legal_actions",
    "new_game",
    "state_to_dict",
]
