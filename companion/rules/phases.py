"""The steps of a turn, declared once as data (R3): the one place that knows them by name.

Each `Phase` says who acts in it, the actions it accepts, the optional power windows it
opens, who the table waits for, what it lists as legal, whether the referee runs a
countdown in it, and what comes next. A phase ends when nobody is waited for and no
resting window is open; `engine.settle` then calls its `then`. Everything else (settling,
`legal_actions`, "waiting for", the referee's stage, the views) reads `TABLE` or the
helpers at the bottom instead of comparing phase names.

A *window* is an optional power (or the Godfather's privilege). A *resting* window holds
the game until its holder acts or an action of a later step passes it (R3, the scenario
format); the Dictator's window is open alongside the turn and never holds the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from companion.rules import effects, split, steps
from companion.rules.actions import Action
from companion.rules.cards import BULLETS, KINDS, LOOT_KIND, ROUNDS
from companion.rules.powers import CUNNING, DICTATOR, HUSTLER, JUNK_DEALER, KID, SMART
from companion.rules.scoring import finish
from companion.rules.state import (
    CHOOSE,
    COURAGE,
    HOLDUP,
    LOOT,
    OVER,
    PRIVILEGE,
    REVEAL,
    SPLIT,
    GameState,
    Player,
)

Handler = Callable[[GameState, Player, Action], None]

# Who acts in a phase.
ALL = "all"  # every player concerned, at once, in any order
TURN = "turn"  # one player at a time, clockwise
GODFATHER = "godfather"  # the Godfather (then, in the privilege, the player ordered)
NOBODY = "nobody"  # the game is over

COUNTDOWN = "countdown"  # the referee stage of the hold-up and courage steps


@dataclass(frozen=True, slots=True)
class Window:
    """An optional action: the game may rest for it; an action of a later step passes it."""

    name: str  # the action type; also its mark in `GameState.done` once passed or used
    power: str | None  # the power it belongs to; None for the Godfather's privilege
    rests: bool  # the game rests for it (False: open alongside the turn, never waited for)
    holder: Callable[[GameState], Player | None]  # who may use it now; None while closed
    actions: Callable[[GameState, Player], list[Action]]  # its legal actions, for `holder`
    handler: Handler
    words: str  # "waiting for {names} to ...", for messages
    close: Callable[[GameState], None] | None = None  # passing it (resting windows)


@dataclass(frozen=True, slots=True)
class Phase:
    """One step of the turn."""

    name: str
    words: str  # "the game is at the {words} step"
    acts: str  # ALL, TURN, GODFATHER or NOBODY
    handlers: Mapping[str, Handler]  # the step's own actions (windows add theirs)
    windows: tuple[Window, ...]
    stage: str | None  # the referee stage it needs: COUNTDOWN, or None
    duty: str  # what the table waits for when no window is open (a words key)
    waiting: Callable[[GameState], list[Player]]  # who must act now (no window open)
    waiting_words: str  # "waiting for {names} to ..."
    actions: Callable[[GameState], list[Action]]  # the legal actions of `waiting`
    then: Callable[[GameState], None] | None  # once it ends: on to the next step
    resting: tuple[Window, ...] = field(init=False)  # the windows the game rests for
    accepts: Mapping[str, Handler] = field(init=False)  # every action type played in it

    def __post_init__(self) -> None:
        object.__setattr__(self, "resting", tuple(w for w in self.windows if w.rests))
        object.__setattr__(self, "accepts",
                           {**self.handlers, **{w.name: w.handler for w in self.windows}})

    def resting_window(self, s: GameState) -> tuple[Window, Player] | None:
        """The resting window open now and its holder, if any (then nobody is `waiting`)."""
        for w in self.resting:
            if (h := w.holder(s)) is not None:
                return w, h
        return None

    def ends(self, s: GameState) -> bool:
        """The condition that ends the step: nobody to wait for, no window to rest at."""
        return self.then is not None and not self.waiting(s) and self.resting_window(s) is None


# -- listing actions -----------------------------------------------------------------------


@lru_cache(maxsize=8192)
def act(type_: str, player: str, key: str, value: Any, key2: str = "", value2: Any = None,
        ) -> Action:
    """Actions are immutable values: the same few are built once, not at every call."""
    fields = {key: value, key2: value2} if key2 else {key: value}
    return Action(type_, player, **fields)


@lru_cache(maxsize=1024)
def _aims(player: str, living: tuple[str, ...]) -> tuple[Action, ...]:
    """A player's aims: too slow, or at any other living player (R4, R8)."""
    return tuple(act("aim", player, "target", t) for t in (None, *living) if t != player)


def _nothing(_s: GameState) -> list[Action]:
    return []


def _nobody(_s: GameState) -> list[Player]:
    return []


def _mark_done(name: str) -> Callable[[GameState], None]:
    def close(s: GameState) -> None:
        s.done |= {name}
    return close


def _to(name: str) -> Callable[[GameState], None]:
    def then(s: GameState) -> None:
        s.phase = name
    return then


# -- loot (R2) and the Hustler (R23) -------------------------------------------------------


def _deal_waiting(s: GameState) -> list[Player]:
    return [] if s.dealt else [s.players[s.godfather]]


def _hustler(s: GameState) -> Player | None:
    h = s.holder(HUSTLER)
    if h is None or not s.dealt or "hustle" in s.done or not steps.hustle_victims(s, h):
        return None
    return h


def _hustles(s: GameState, h: Player) -> list[Action]:
    out = [act("hustle", h.name, "victim", None)]
    for v in steps.hustle_victims(s, h):
        gives: list[str | None] = [None] if s.physical else list(steps.hustle_gives(h, v))
        out += [act("hustle", h.name, "victim", v.name, "give", g) for g in gives]
    return out


# -- choose (R1) ---------------------------------------------------------------------------


def _chooses(s: GameState) -> list[Action]:
    out: list[Action] = []
    for p in steps.choosers(s):
        cards = [None] if s.physical else [c for c in BULLETS if steps.hand_count(p, c)]
        out += [act("choose", p.name, "card", c) for c in cards]
    return out


# -- hold-up (R4, R25) and the Cunning (R17) -----------------------------------------------


def _aiming(s: GameState) -> list[Player]:
    """Who may aim now: everyone who has not, the Kid only once alone (R25)."""
    left = [p for p in s.players if p.alive and not p.aimed]
    if len(left) > 1 and KID in s.powers:
        return [p for p in left if p.power != KID]
    return left


def _holdup_aims(s: GameState) -> list[Action]:
    names = tuple(p.name for p in s.players if p.alive)
    out: list[Action] = []
    for p in _aiming(s):
        out += _aims(p.name, names)
    return out


def _cunning(s: GameState) -> Player | None:
    if "swap" in s.done or not steps.can_swap(s) or any(p.alive and not p.aimed
                                                         for p in s.players):
        return None
    return s.holder(CUNNING)


def _swaps(s: GameState, c: Player) -> list[Action]:
    return [act("swap", c.name, "card", k) for k in steps.swap_options(s, c)]


# -- the Godfather's privilege (R5) --------------------------------------------------------


def _reaiming(s: GameState) -> list[Player]:
    return [] if s.ordered is None else [s.players[s.ordered]]


def _reaims(s: GameState) -> list[Action]:
    return [act("aim", p.name, "target", t.name)
            for p in _reaiming(s) for t in steps.new_targets(s, p)]


def _godfather_orders(s: GameState) -> Player | None:
    if s.ordered is not None or "privilege" in s.done or not steps.may_order(s):
        return None
    return s.players[s.godfather]


def _orders(s: GameState, g: Player) -> list[Action]:
    return [act("privilege", g.name, "order", None)] + [
        act("privilege", g.name, "order", o.name) for o in steps.orderable(s)]


# -- courage (R6) and the Smart (R28) ------------------------------------------------------


def _deciding(s: GameState) -> list[Player]:
    return [p for p in s.players if p.alive and p.down is None]


def _courages(s: GameState) -> list[Action]:
    out: list[Action] = []
    for p in _deciding(s):
        out += (act("courage", p.name, "down", False), act("courage", p.name, "down", True))
    return out


def _smart(s: GameState) -> Player | None:
    if "smart" in s.done or not steps.can_smart(s) or any(p.alive and p.down is None
                                                           for p in s.players):
        return None
    return s.holder(SMART)


def _smarts(s: GameState, m: Player) -> list[Action]:
    return [act("smart", m.name, "discard", k) for k in steps.smart_options(s, m)]


# -- card reveals (physical cards, R7), then the card effects ------------------------------


def _revealing(s: GameState) -> list[Player]:
    return [p for p in s.players if steps.must_reveal(s, p)]


def _reveals(s: GameState) -> list[Action]:
    return [act("reveal", p.name, "card", c) for p in _revealing(s) for c in BULLETS]


def _effects(s: GameState) -> None:
    if effects.resolve(s):
        s.phase = SPLIT
        split.start(s)


# -- the split (R10 to R14), the Dictator (R19), the Junk Dealer (R24) ---------------------


def _taking(s: GameState) -> list[Player]:
    """Whose turn it is, while the split goes on (after the Junk Dealer's window)."""
    if s.turn is None or s.junk_card is not None or split.over(s):
        return []
    return [s.players[s.turn]]


def _takes(s: GameState) -> list[Action]:
    return [act("take", p.name, "loot", x) for p in _taking(s)
            for x in split.take_options(s, p)]


def _forbids(s: GameState, d: Player) -> list[Action]:
    assert s.turn is not None  # (may_forbid: someone's turn)
    t = s.players[s.turn].name
    return [act("forbid", d.name, "target", t, "kind", k) for k in KINDS]


def _junk_dealer(s: GameState) -> Player | None:
    return None if s.junk_card is None else s.players[s.powers[JUNK_DEALER]]


def _junks(s: GameState, jd: Player) -> list[Action]:
    if s.physical_loot:
        return [act("junk", jd.name, "got", c) for c in LOOT_KIND]
    return [act("junk", jd.name, "pile", None)] + [
        act("junk", jd.name, "pile", r) for r in split.later_piles(s)]


def _drop_junk(s: GameState) -> None:
    s.junk_card = None


# -- rounds (R2, R11, R12) -----------------------------------------------------------------


def begin_round(s: GameState) -> None:
    """Turn up the next pile and reset the turn; the caller settles."""
    s.round += 1
    if s.piles:
        s.table += s.piles.pop(0)
    s.token = True
    for p in s.players:
        p.reset_turn()
    s.done = s.used = frozenset()
    s.ordered = s.turn = s.forbidden = s.junk_card = s.new_godfather = None
    s.phase = TABLE[0].name
    s.event("round", godfather=s.players[s.godfather].name, loot=s.table[:])
    if len(s.living()) <= 1:  # R9, for a game begun from such a position
        finish(s)


def end_round(s: GameState) -> None:
    """After the split: the leftovers, then the next round or the end (R11, R12)."""
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
    begin_round(s)


# -- the table -----------------------------------------------------------------------------

TABLE: tuple[Phase, ...] = (
    Phase(LOOT, "loot", GODFATHER, {"deal": steps.deal},
          (Window("hustle", HUSTLER, True, _hustler, _hustles, steps.hustle,
                  "waiting for {names} (the Hustler) to hustle or pass", _mark_done("hustle")),),
          None, "deal", _deal_waiting,
          "waiting for the Godfather ({names}) to enter the cards turned up",
          _nothing, _to(CHOOSE)),
    Phase(CHOOSE, "bullet choice", ALL, {"choose": steps.choose}, (),
          None, "choose", steps.choosers, "waiting for {names} to choose a card",
          _chooses, _to(HOLDUP)),
    Phase(HOLDUP, "hold-up", ALL, {"aim": steps.aim},
          (Window("swap", CUNNING, True, _cunning, _swaps, steps.swap,
                  "waiting for {names} (the Cunning) to swap or pass", _mark_done("swap")),),
          COUNTDOWN, "holdup", _aiming, "waiting for aims from {names}",
          _holdup_aims, _to(PRIVILEGE)),
    Phase(PRIVILEGE, "Godfather's privilege", GODFATHER, {"aim": steps.aim_ordered},
          (Window("privilege", None, True, _godfather_orders, _orders, steps.privilege,
                  "waiting for the Godfather ({names}) to give an order or not",
                  _mark_done("privilege")),),
          None, "reaim", _reaiming, "waiting for {names} to aim again",
          _reaims, _to(COURAGE)),
    Phase(COURAGE, "courage", ALL, {"courage": steps.courage},
          (Window("smart", SMART, True, _smart, _smarts, steps.smart,
                  "waiting for {names} (the Smart) to take the card back or pass",
                  _mark_done("smart")),),
          COUNTDOWN, "courage", _deciding, "waiting for {names} to lie down or stand",
          _courages, _to(REVEAL)),
    Phase(REVEAL, "card reveals", ALL, {"reveal": steps.reveal}, (),
          None, "reveal", _revealing, "waiting for {names} to reveal their card",
          _reveals, _effects),
    Phase(SPLIT, "split", TURN, {"take": split.take},
          (Window("forbid", DICTATOR, False, split.may_forbid, _forbids, split.forbid,
                  "{names} (the Dictator) may forbid a kind"),
           Window("junk", JUNK_DEALER, True, _junk_dealer, _junks, split.junk,
                  "waiting for {names} (the Junk Dealer) to swap the card taken or pass",
                  _drop_junk)),
          None, "split", _taking, "it is {names}'s turn to take a share",
          _takes, end_round),
    Phase(OVER, "end of the game", NOBODY, {}, (), None, "over", _nobody, "", _nothing, None),
)

PHASE: dict[str, Phase] = {ph.name: ph for ph in TABLE}  # (names and order: state.PHASES)

ACTION_TYPES = frozenset(t for ph in TABLE for t in ph.accepts)


# -- for the referee and the views ---------------------------------------------------------


def phase_of(s: GameState) -> Phase:
    """The record of the step the game is at: who acts, its windows, its referee stage."""
    return PHASE[s.phase]


class Wait(NamedTuple):
    """What the table waits for: a key naming the duty or window, and who."""

    key: str  # a phase's duty (deal, choose, holdup, reaim, courage, reveal, split, over)
    #           or a resting window (hustle, swap, privilege, smart, junk)
    players: tuple[str, ...]


def waiting(s: GameState) -> Wait:
    """What and whom the table waits for now."""
    ph = PHASE[s.phase]
    open_ = ph.resting_window(s)
    if open_ is not None:
        return Wait(open_[0].name, (open_[1].name,))
    return Wait(ph.duty, tuple(p.name for p in ph.waiting(s)))


def waiting_for(s: GameState) -> tuple[str, ...]:
    """The players the table waits for now: those who must act, or a resting window's holder.

    In the hold-up the Kid is waited for only once every other living player has aimed.
    """
    return waiting(s).players


def open_windows(s: GameState) -> tuple[tuple[str, str], ...]:
    """Every optional power that may be used now, as (window, player): resting or not."""
    return tuple((w.name, h.name) for w in PHASE[s.phase].windows
                 if (h := w.holder(s)) is not None)


def countdown_step(s: GameState) -> str | None:
    """The countdown allowed now, if any: the phase's name, or None.

    The hold-up and courage steps have one while someone still has to aim or decide;
    it reads the players `waiting_for` names. Once only the Kid has still to aim
    (R25: after every other living player), the hold-up has a countdown for the Kid alone.
    """
    ph = PHASE[s.phase]
    return ph.name if ph.stage == COUNTDOWN and ph.waiting(s) else None


def describe(s: GameState) -> str:
    """Plain words for where the game rests, for error messages."""
    ph = PHASE[s.phase]
    step = f"the game is at the {ph.words} step"
    open_ = ph.resting_window(s)
    if open_ is not None:
        return f"{step}, " + open_[0].words.format(names=open_[1].name)
    who = ph.waiting(s)
    if not who:
        return step
    return f"{step}, " + ph.waiting_words.format(names=", ".join(p.name for p in who))
