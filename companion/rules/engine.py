"""`apply` and `legal_actions`, read from the phase table (`phases.TABLE`, R3).

After every action the state is *settled*: it moves on by itself through every step
where nobody can act, and rests where someone must (a choice, an aim, a share) or
may (an optional power). An action that belongs to a later step passes the optional
windows before it, as the scenario format says.
"""

from __future__ import annotations

from typing import Any

from companion.rules import phases, turn
from companion.rules.actions import Action
from companion.rules.errors import RuleError
from companion.rules.phases import PHASE, describe
from companion.rules.state import GameState
from companion.rules.steps import player_named


def start_round(s: GameState) -> None:
    """The next round begins, settled at its first decision (R2)."""
    turn.begin_round(s)
    settle(s)


# -- settling: move on until someone must or may act ---------------------------------------


def settle(s: GameState) -> None:
    """Go through every step where nobody can act, to rest where someone must or may."""
    while True:  # (`Phase.ends`, written out: this is the engine's innermost loop)
        ph = PHASE[s.phase]
        if ph.then is None or ph.waiting(s):
            return
        for w in ph.resting:
            if w.holder(s) is not None:
                return
        ph.then(s)


def window(s: GameState) -> str | None:
    """The optional step the state rests at, if any: an action of another kind passes it."""
    for w in PHASE[s.phase].resting:
        if w.holder(s) is not None:
            return w.name
    return None


def pass_window(s: GameState, name: str) -> None:
    w = next(w for w in PHASE[s.phase].windows if w.name == name)
    assert w.close is not None  # (a resting window)
    w.close(s)
    settle(s)


# -- applying actions ----------------------------------------------------------------------


def apply(state: GameState, action: Action) -> tuple[GameState, list[dict[str, Any]]]:
    """Return the state after `action` and the events it caused; raise RuleError if refused.

    The given state is never changed.
    """
    new = state.copy()
    n = len(new.events)
    apply_in_place(new, action)
    return new, new.events[n:]


def apply_in_place(s: GameState, a: Action) -> None:
    """Apply `a` to `s` itself: for callers that own `s` and only play legal actions
    (a refused action leaves `s` half-changed)."""
    ph = PHASE[s.phase]
    if ph.then is None:
        raise RuleError("R9", "the game is over")
    if a.type not in phases.ACTION_TYPES:
        raise RuleError("R3", f"unknown action type {a.type!r}")
    p = player_named(s, a.player, "player")
    if ph.resting:
        while (w := window(s)) is not None and a.type != w:
            pass_window(s, w)
        ph = PHASE[s.phase]
    handler = ph.accepts.get(a.type)
    if handler is None:
        raise RuleError("R3", f"{a.type} is not allowed now: {describe(s)}")
    if not p.alive:
        raise RuleError("R8", f"{p.name} is out of the game")
    handler(s, p, a)
    settle(s)


# -- legal actions -------------------------------------------------------------------------


def legal_actions(s: GameState) -> list[Action]:
    """Every action `apply` accepts now, those that pass an optional window included."""
    ph = PHASE[s.phase]
    open_ = ph.resting_window(s)
    if open_ is not None:
        w, holder = open_
        acts = w.actions(s, holder)
        passed = s.copy()
        pass_window(passed, w.name)
        return acts + legal_actions(passed)
    acts = ph.actions(s)
    for w in ph.windows:
        if not w.rests and (h := w.holder(s)) is not None:
            acts += w.actions(s, h)
    return acts
