"""`apply` and `legal_actions`, read from the phase table (`phases.TABLE`, R3).

After every action the state is *settled*: it moves on by itself through every step
where nobody can act, and rests where someone must (a choice, an aim, a share) or
may (an optional power). An action that belongs to a later step passes the optional
windows before it, as the scenario format says.

What is legal now is read from the same table, in `legal.py`.
"""

from __future__ import annotations

from companion.rules import turn
from companion.rules.actions import Action
from companion.rules.errors import RuleError
from companion.rules.events import Event
from companion.rules.phases import ACTION_TYPES, PHASE, describe
from companion.rules.state import GameState
from companion.rules.steps import player_named


def start_round(s: GameState) -> None:
    """The next round begins, settled at its first decision (R2)."""
    turn.begin_round(s)
    settle(s)


# -- settling: move on until someone must or may act ---------------------------------------


def settle(s: GameState, only_moving_on: bool = False) -> bool:
    """Go through every step where nobody can act, to rest where someone must or may;
    note in `s.rests_at` the window it rests at, if any.

    With `only_moving_on`, stop (and say False) before a step ends with more than moving
    on to the next one (`Phase.moves_on`): the state then differs from where it began only
    in its step, its count and its window (`legal.py` passes windows in place so)."""
    while True:  # (`Phase.ends`, written out: this is the engine's innermost loop)
        ph = PHASE[s.phase]
        if ph.then is None or (s.to_act if ph.pends else ph.busy(s)):
            s.rests_at = None  # (a step of everyone is busy while it has actions left)
            return True
        for w in ph.resting:
            if w.holder(s) is not None:
                s.rests_at = w.name
                return True
        if ph.following is not None:  # (`ph.then`, written out)
            s.phase = ph.following
        elif only_moving_on:
            return False
        else:
            ph.then(s)
        start = PHASE[s.phase].start
        if start is not None:
            start(s)


def window(s: GameState) -> str | None:
    """The optional step the state rests at, if any: an action of another kind passes it."""
    return s.rests_at


def pass_window(s: GameState, name: str) -> None:
    close = PHASE[s.phase].window_named[name].close
    assert close is not None  # (a resting window)
    close(s)
    settle(s)


# -- applying actions ----------------------------------------------------------------------


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
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
    handler = ph.accepts.get(a.type)
    if handler is not None and s.rests_at is None:  # (most actions: checked below, in order)
        try:
            p = s.players[s.index[a.player]]
        except (KeyError, TypeError):  # (not a player: refused below)
            p = None
        if p is not None and p.alive:
            handler(s, p, a)
            if not (ph.pends and s.to_act):  # (a step of everyone goes on: still settled)
                settle(s)
            return
    if ph.then is None:
        raise RuleError("R9", "the game is over")
    if a.type not in ACTION_TYPES:
        raise RuleError("R3", f"unknown action type {a.type!r}")
    seat = s.index.get(a.player) if isinstance(a.player, str) else None  # (`player_named`)
    p = player_named(s, a.player, "player") if seat is None else s.players[seat]
    if s.rests_at is not None:
        while (w := s.rests_at) is not None and a.type != w:
            pass_window(s, w)
        ph = PHASE[s.phase]
    handler = ph.accepts.get(a.type)
    if handler is None:
        raise RuleError("R3", f"{a.type} is not allowed now: {describe(s)}")
    if not p.alive:
        raise RuleError("R8", f"{p.name} is out of the game")
    handler(s, p, a)
    settle(s)
