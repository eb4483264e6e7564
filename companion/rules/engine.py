"""`apply` and `legal_actions`: the turn's steps in order (R3), and the optional windows.

After every action the state is *settled*: it moves on by itself through every step
where nobody can act, and rests where someone must (a choice, an aim, a share) or
may (an optional power). An action that belongs to a later step passes the optional
windows before it, as the scenario format says.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from companion.rules import effects, split, steps
from companion.rules.actions import Action
from companion.rules.cards import BULLETS, KINDS, LOOT_KIND, ROUNDS
from companion.rules.errors import RuleError
from companion.rules.powers import CUNNING, DICTATOR, HUSTLER, JUNK_DEALER, KID, SMART
from companion.rules.scoring import finish
from companion.rules.state import GameState, Player

Handler = Callable[[GameState, Player, Action], None]

# action type -> (handler, the steps where it may be played)
HANDLERS: dict[str, tuple[Handler, tuple[str, ...]]] = {
    "deal": (steps.deal, ("loot",)),
    "hustle": (steps.hustle, ("loot",)),
    "choose": (steps.choose, ("choose",)),
    "aim": (steps.aim, ("holdup", "privilege")),
    "swap": (steps.swap, ("holdup",)),
    "privilege": (steps.privilege, ("privilege",)),
    "courage": (steps.courage, ("courage",)),
    "smart": (steps.smart, ("courage",)),
    "reveal": (steps.reveal, ("reveal",)),
    "take": (split.take, ("split",)),
    "forbid": (split.forbid, ("split",)),
    "junk": (split.junk, ("split",)),
}


# -- rounds (R2, R11, R12) -----------------------------------------------------------------


def start_round(s: GameState) -> None:
    s.round += 1
    if s.piles:
        s.table += s.piles.pop(0)
    s.token = True
    for p in s.players:
        p.reset_turn()
    s.done = s.used = frozenset()
    s.ordered = s.turn = s.forbidden = s.junk_card = s.new_godfather = None
    s.phase = "loot"
    s.event("round", godfather=s.players[s.godfather].name, loot=s.table[:])
    if len(s.living()) <= 1:  # R9, for a game begun from such a position
        finish(s)
    else:
        settle(s)


def end_round(s: GameState) -> None:
    if s.table:  # R11
        last = s.round == ROUNDS
        carried = s.variant["unclaimed_loot"] == "carry_over" and not last
        s.event("unclaimed", loot=s.table[:], carried=carried)
        if not carried:
            s.out += s.table
            s.table = []
    if s.round == ROUNDS:  # R12: no next round, the desk stays where it was
        finish(s)
        return
    if s.new_godfather is not None:  # R12
        s.godfather = s.new_godfather
    elif not s.players[s.godfather].alive:
        s.godfather = next(p.seat for p in s.clockwise_from(s.godfather) if p.alive)
    start_round(s)


# -- settling: move on until someone must or may act ---------------------------------------


def settle(s: GameState) -> None:
    while True:
        phase = s.phase
        if phase == "loot":
            if not s.dealt:
                return
            h = s.holder(HUSTLER)
            if "hustle" not in s.done and h is not None and steps.hustle_victims(s, h):
                return
            s.phase = "choose"
        elif phase == "choose":
            if any(steps.waiting_to_choose(s, p) for p in s.players):
                return
            s.phase = "holdup"
        elif phase == "holdup":
            if any(p.alive and not p.aimed for p in s.players):
                return
            if "swap" not in s.done and steps.can_swap(s):
                return
            s.phase = "privilege"
        elif phase == "privilege":
            if s.ordered is not None or ("privilege" not in s.done and steps.orderable(s)):
                return
            s.phase = "courage"
        elif phase == "courage":
            if any(p.alive and p.down is None for p in s.players):
                return
            if "smart" not in s.done and steps.can_smart(s):
                return
            s.phase = "reveal"
        elif phase == "reveal":
            if any(steps.must_reveal(s, p) for p in s.players):
                return
            effects.resolve(s)
            if s.phase != "over":
                split.start(s)
        elif phase == "split":
            if s.junk_card is not None or not split.over(s):
                return
            end_round(s)
            return
        else:
            return


def window(s: GameState) -> str | None:
    """The optional step the state rests at, if any: an action of another kind passes it."""
    phase = s.phase
    if phase == "loot":
        return "hustle" if s.dealt else None
    if phase == "holdup" and all(p.aimed or not p.alive for p in s.players):
        return "swap"
    if phase == "privilege" and s.ordered is None:
        return "privilege"
    if phase == "courage" and all(p.down is not None or not p.alive for p in s.players):
        return "smart"
    if phase == "split" and s.junk_card is not None:
        return "junk"
    return None


def pass_window(s: GameState, name: str) -> None:
    if name == "junk":
        s.junk_card = None
    else:
        s.done |= {name}
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
    if s.phase == "over":
        raise RuleError("R9", "the game is over")
    entry = HANDLERS.get(a.type)
    if entry is None:
        raise RuleError("R3", f"unknown action type {a.type!r}")
    handler, phases = entry
    p = steps.player_named(s, a.player, "player")
    while (w := window(s)) is not None and a.type != w:
        pass_window(s, w)
    if s.phase not in phases:
        raise RuleError("R3", f"{a.type} is not allowed now: {waiting_for(s)}")
    if not p.alive:
        raise RuleError("R8", f"{p.name} is out of the game")
    handler(s, p, a)
    settle(s)


STEP_NAMES = {
    "loot": "loot", "choose": "bullet choice", "holdup": "hold-up",
    "privilege": "Godfather's privilege", "courage": "courage",
    "reveal": "card reveals", "split": "split", "over": "end of the game",
}


def waiting_for(s: GameState) -> str:
    """Plain words for where the game rests, for error messages."""

    def names(ps: list[Player]) -> str:
        return ", ".join(p.name for p in ps)

    step = f"the game is at the {STEP_NAMES[s.phase]} step"
    match s.phase:
        case "loot" if not s.dealt:
            return f"{step}, waiting for the Godfather to enter the cards turned up"
        case "choose":
            who = [p for p in s.players if steps.waiting_to_choose(s, p)]
            return f"{step}, waiting for {names(who)} to choose a card"
        case "holdup":
            who = [p for p in s.living() if not p.aimed]
            return f"{step}, waiting for aims from {names(who)}"
        case "privilege" if s.ordered is not None:
            return f"{step}, waiting for {s.players[s.ordered].name} to aim again"
        case "courage":
            who = [p for p in s.living() if p.down is None]
            return f"{step}, waiting for {names(who)} to lie down or stand"
        case "reveal":
            who = [p for p in s.players if steps.must_reveal(s, p)]
            return f"{step}, waiting for {names(who)} to reveal their card"
        case "split" if s.turn is not None:
            return f"{step}, it is {s.players[s.turn].name}'s turn to take a share"
    return step


# -- legal actions -------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def _act(type_: str, player: str, field: str, value: Any, field2: str = "", value2: Any = None,
         ) -> Action:
    """Actions are immutable values: the same few are built once, not at every call."""
    fields = {field: value, field2: value2} if field2 else {field: value}
    return Action(type_, player, **fields)


@lru_cache(maxsize=1024)
def _aims(player: str, living: tuple[str, ...]) -> tuple[Action, ...]:
    """A player's aims: too slow, or at any other living player (R4, R8)."""
    return tuple(_act("aim", player, "target", t) for t in (None, *living) if t != player)


def legal_actions(s: GameState) -> list[Action]:
    """Every action `apply` accepts now, those that pass an optional window included."""
    w = window(s)
    acts = _own_actions(s, w)
    if w is not None:
        passed = s.copy()
        pass_window(passed, w)
        acts += legal_actions(passed)
    return acts


def _own_actions(s: GameState, w: str | None) -> list[Action]:
    phase = s.phase
    out: list[Action] = []
    if phase == "loot":
        h = s.holder(HUSTLER)
        if h is not None and s.dealt:  # (a deal cannot be listed: any 1 to 8 cards)
            out.append(_act("hustle", h.name, "victim", None))
            for v in steps.hustle_victims(s, h):
                gives = [None] if s.physical else steps.hustle_gives(h, v)
                out += [_act("hustle", h.name, "victim", v.name, "give", g) for g in gives]
    elif phase == "choose":
        for p in s.players:
            if steps.waiting_to_choose(s, p):
                cards = [None] if s.physical else [c for c in BULLETS if steps.hand_count(p, c)]
                out += [_act("choose", p.name, "card", c) for c in cards]
    elif phase == "holdup":
        living = s.living()
        waiting = [p for p in living if not p.aimed]
        kid_alone = len(waiting) == 1  # the Kid aims once every other player has
        names = tuple(p.name for p in living)
        for p in waiting:
            if p.power != KID or kid_alone:
                out += _aims(p.name, names)
        c = s.holder(CUNNING)
        if w == "swap" and c is not None:
            out += [_act("swap", c.name, "card", k) for k in steps.swap_options(s, c)]
    elif phase == "privilege":
        if s.ordered is not None:
            p = s.players[s.ordered]
            out += [_act("aim", p.name, "target", t.name) for t in steps.new_targets(s, p)]
        else:
            g = s.players[s.godfather].name
            out.append(_act("privilege", g, "order", None))
            out += [_act("privilege", g, "order", o.name) for o in steps.orderable(s)]
    elif phase == "courage":
        for p in s.living():
            if p.down is None:
                out += (_act("courage", p.name, "down", False),
                        _act("courage", p.name, "down", True))
        m = s.holder(SMART)
        if w == "smart" and m is not None:
            out += [_act("smart", m.name, "discard", k) for k in steps.smart_options(s, m)]
    elif phase == "reveal":
        for p in s.players:
            if steps.must_reveal(s, p):
                out += [_act("reveal", p.name, "card", c) for c in BULLETS]
    elif phase == "split":
        out += _split_actions(s)
    return out


def _split_actions(s: GameState) -> list[Action]:
    if s.junk_card is not None:
        jd = s.players[s.powers[JUNK_DEALER]]
        if s.physical_loot:
            return [_act("junk", jd.name, "got", c) for c in LOOT_KIND]
        return [_act("junk", jd.name, "pile", None)] + [
            _act("junk", jd.name, "pile", r) for r in split.later_piles(s)
        ]
    if s.turn is None:
        return []
    p = s.players[s.turn]
    out = [_act("take", p.name, "loot", x) for x in split.take_options(s, p)]
    if split.may_forbid(s) is not None:
        d = s.players[s.powers[DICTATOR]].name
        out += [_act("forbid", d, "target", p.name, "kind", k) for k in KINDS]
    return out

