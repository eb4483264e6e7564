"""The pure rules engine of Cash 'n Guns (second edition).

No I/O and no clock: `apply(state, action)` returns a new state and the events
it caused, or raises `RuleError` and leaves the state as it was. Every random
effect draws from the seeded generator carried in the state.
"""

from companion.rules.actions import Action, action_from_dict
from companion.rules.engine import apply, apply_in_place
from companion.rules.errors import RuleError
from companion.rules.legal import (
    LegalActions,
    draw_legal,
    legal_actions,
    play_legal,
    play_random,
)
from companion.rules.phases import (
    TABLE,
    Phase,
    Wait,
    countdown_step,
    open_windows,
    phase_of,
    waiting,
    waiting_for,
)
from companion.rules.report import state_to_dict
from companion.rules.setup import Setup, new_game
from companion.rules.state import GameState

__all__ = [
    "TABLE",
    "Action",
    "GameState",
    "LegalActions",
    "Phase",
    "RuleError",
    "Setup",
    "Wait",
    "action_from_dict",
    "apply",
    "apply_in_place",
    "countdown_step",
    "draw_legal",
    "legal_actions",
    "new_game",
    "open_windows",
    "phase_of",
    "play_legal",
    "play_random",
    "state_to_dict",
    "waiting",
    "waiting_for",
]
