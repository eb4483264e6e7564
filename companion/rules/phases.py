"""The steps of a turn, declared once as data (R3): the one place that knows them by name.

Each `Phase` says who acts in it, the actions it accepts, the optional power windows it
opens, who the table waits for, what it offers as legal, whether the referee runs a
countdown in it, what it counts when it begins and what comes next; the functions it names
are in `turn.py`. A phase ends when nobody is waited for and no resting window is open;
`engine.settle` then calls its `then`, and the `start` of the phase that follows.
Everything else (settling, `legal_actions`, "waiting for", the referee's stage, the views)
reads `TABLE` or the helpers at the bottom instead of comparing phase names.

A *window* is an optional power (or the Godfather's privilege). A *resting* window holds
the game until its holder acts or an action of a later step passes it (R3, the scenario
format); the Dictator's window is open alongside the turn and never holds the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, TypeAlias, TypeVar, cast

from companion.rules import fastplay, loot_step, split, steps, turn
from companion.rules.actions import (
    Action,
    Aim,
    Choose,
    Courage,
    Deal,
    Forbid,
    Hustle,
    Junk,
    Privilege,
    Reveal,
    Smart,
    Swap,
    Take,
)
from companion.rules.menu import Menu
from companion.rules.powers import CUNNING, DICTATOR, HUSTLER, JUNK_DEALER, SMART
from companion.rules.state import (
    CHOOSE,
    COURAGE,
    HOLDUP,
    LOOT,
    OVER,
    PHASES,
    PRIVILEGE,
    REVEAL,
    SPLIT,
    GameState,
    Player,
)

if TYPE_CHECKING:
    from random import Random  # (a caller's generator: a replay does not import it)

# a step's handler of one kind of action (`Phase.accepts` hands it only that kind: `handles`)
Handler = Callable[[GameState, Player, Action], None]
# a step's fast path (`Phase.plays`): the state, the generator, the actions played so far,
# how many more at most, the actions of windows passed to reach the step (drawn among too)
Play: TypeAlias = (
    "Callable[[GameState, Random, list[Action], int, Sequence[Action]], Action | None]")
A = TypeVar("A", bound=Action)


def handles(kind: type[A], handler: Callable[[GameState, Player, A], None]) -> Handler:
    """`handler`, for the actions of `kind` only: the engine looks it up by the action's
    type (`Phase.accepts`), so it is handed no other kind."""
    return cast(Handler, handler)

# Who acts in a phase.
ALL = "all"  # every player concerned, at once, in any order
TURN = "turn"  # one player at a time, clockwise
GODFATHER = "godfather"  # the Godfather (then, in the privilege, the player ordered)
NOBODY = "nobody"  # the game is over

COUNTDOWN = "countdown"  # the referee stage of the hold-up and courage steps



@dataclass(frozen=True, slots=True)
class Window:
    """An optional action: the game may rest for it; an action of a later step passes it."""

    name: str  # the action type (and, for most, its mark in `GameState.done` once passed)
    power: str | None  # the power it belongs to; None for the Godfather's privilege
    rests: bool  # the game rests for it (False: open alongside the turn, never waited for)
    holder: Callable[[GameState], Player | None]  # who may use it now; None while closed
    actions: Callable[[GameState, Player], Sequence[Action]]  # its legal actions, for `holder`
    handler: Handler
    words: str  # "waiting for {names} to ...", for messages
    close: Callable[[GameState], None] | None = None  # passing it (resting windows only)


@dataclass(frozen=True, slots=True)
class Phase:
    """One step of the turn."""

    name: str
    words: str  # "the game is at the {words} step"
    acts: str  # who acts: ALL, TURN, GODFATHER or NOBODY
    handlers: Mapping[str, Handler]  # the step's own actions (its windows add theirs)
    duty: str  # what the table waits for when no window is open (a words key)
    waiting: Callable[[GameState], list[Player]]  # who must act now, in seating order
    waiting_words: str  # "waiting for {names} to ..."
    stage: str | None = None  # the referee stage it needs: COUNTDOWN, or None
    # the legal actions of `waiting`, in order, listed; or, for a step of everyone at once,
    # counted and built by index: its `start` notes whom it waits for (`GameState.to_act`),
    # its handler takes off whoever acts, `count` says how many actions they have, `nth`
    # builds the i-th and `listed` all of them, in the same order
    offers: Callable[[GameState], Sequence[Action]] | None = None
    count: Callable[[GameState], int] | None = None
    nth: Callable[[GameState, int], Action] | None = None
    listed: Callable[[GameState], list[Action]] | None = None
    windows: tuple[Window, ...] = ()  # the optional actions it opens
    # the fast path of a random player (`fastplay.py`): draws the actions `random.choice`
    # draws from the step's list and applies them while the step goes on
    plays: Play | None = None
    # once it ends; by default on to the next step of `state.PHASES` (the last has none)
    then: Callable[[GameState], None] | None = None
    # what it notes once the game enters it (when entered by moving on: `to_act` only,
    # which `legal.py` puts back after passing a window in place)
    start: Callable[[GameState], None] | None = None
    # someone is `waiting`, told without listing them (anything true: someone is); by
    # default `waiting` is not empty, with `nth` the count of actions is not zero
    someone: Callable[[GameState], object] | None = None

    # worked out from the above once the phase is made:
    busy: Callable[[GameState], object] = field(init=False)  # `someone`, as a function
    pends: bool = field(init=False)  # has `nth` (`engine.settle` reads `to_act` inline)
    moves_on: bool = field(init=False)  # `then` only moves on to the next step
    following: str | None = field(init=False)  # that step's name, if so
    actions: Callable[[GameState], Sequence[Action]] = field(init=False)  # listed
    resting: tuple[Window, ...] = field(init=False)  # the windows the game rests for
    beside: tuple[Window, ...] = field(init=False)  # those open alongside, never waited for
    window_named: Mapping[str, Window] = field(init=False)
    accepts: Mapping[str, Handler] = field(init=False)  # every action type played in it

    def __post_init__(self) -> None:
        at = PHASES.index(self.name)
        moves_on = self.then is None and at + 1 < len(PHASES)
        following = PHASES[at + 1] if moves_on else None
        busy: Callable[[GameState], object]
        actions: Callable[[GameState], Sequence[Action]]
        count, nth, listed, waiting = self.count, self.nth, self.listed, self.waiting
        if count is not None and nth is not None:
            assert listed is not None, self.name
            busy = turn.left_to_act
            actions = lambda s: Menu(s, count(s), nth, listed)  # noqa: E731
        else:
            assert self.offers is not None, self.name
            busy = self.someone or (lambda s: bool(waiting(s)))
            actions = self.offers
        derived: dict[str, object] = {
            "then": turn.goto(PHASES[at + 1]) if moves_on else self.then,
            "busy": busy, "pends": nth is not None, "moves_on": moves_on,
            "following": following, "actions": actions,
            "resting": tuple(w for w in self.windows if w.rests),
            "beside": tuple(w for w in self.windows if not w.rests),
            "window_named": {w.name: w for w in self.windows},
            "accepts": {**self.handlers, **{w.name: w.handler for w in self.windows}},
        }
        for name, value in derived.items():  # (set once, as a frozen dataclass's own
            object.__setattr__(self, name, value)  # `__init__` sets its fields)

    def resting_window(self, s: GameState) -> tuple[Window, Player] | None:
        """The resting window open now and its holder, if any (then nobody is `waiting`)."""
        for w in self.resting:
            if (h := w.holder(s)) is not None:
                return w, h
        return None

    def ends(self, s: GameState) -> bool:
        """The condition that ends the step: nobody to wait for, no window to rest at."""
        return self.then is not None and not self.busy(s) and self.resting_window(s) is None


RESTING_WORDS = {  # a resting window's "waiting for" words, by its name
    "hustle": "waiting for {names} (the Hustler) to hustle or pass",
    "swap": "waiting for {names} (the Cunning) to swap or pass",
    "privilege": "waiting for the Godfather ({names}) to give an order or not",
    "smart": "waiting for {names} (the Smart) to take the card back or pass",
}


def resting_window(kind: type[A], power: str | None,
                   holder: Callable[[GameState], Player | None],
                   actions: Callable[[GameState, Player], Sequence[Action]],
                   handler: Callable[[GameState, Player, A], None]) -> Window:
    """A window the game rests for until its holder acts; passing it marks it done."""
    name = kind.type
    return Window(name=name, power=power, rests=True, holder=holder, actions=actions,
                  handler=handles(kind, handler), words=RESTING_WORDS[name],
                  close=turn.mark_done(name))


HUSTLE_WINDOW = resting_window(Hustle, HUSTLER, turn.may_hustle, turn.hustles, loot_step.hustle)
SWAP_WINDOW = resting_window(Swap, CUNNING, turn.may_swap, turn.swaps, steps.swap)
PRIVILEGE_WINDOW = resting_window(Privilege, None, turn.may_order, turn.orders,
                                  steps.privilege)
SMART_WINDOW = resting_window(Smart, SMART, turn.may_smart, turn.smarts, steps.smart)

FORBID_WINDOW = Window(
    name=Forbid.type, power=DICTATOR, rests=False, holder=split.may_forbid,
    actions=turn.forbids, handler=handles(Forbid, split.forbid),
    words="{names} (the Dictator) may forbid a kind")

JUNK_WINDOW = Window(
    name=Junk.type, power=JUNK_DEALER, rests=True, holder=turn.may_junk,
    actions=turn.junks, handler=handles(Junk, split.junk), close=turn.drop_junk,
    words="waiting for {names} (the Junk Dealer) to swap the card taken or pass")


# -- the table -----------------------------------------------------------------------------

TABLE: tuple[Phase, ...] = (  # Phase(name, words, acts, handlers, ...), in the order of a turn
    Phase(LOOT, "loot", GODFATHER, {Deal.type: handles(Deal, loot_step.deal)},
          windows=(HUSTLE_WINDOW,),
          duty="deal", waiting=turn.dealer, offers=turn.nothing,  # the cards turned up (R2)
          someone=turn.deal_due,
          waiting_words="waiting for the Godfather ({names}) to enter the cards turned up"),
    Phase(CHOOSE, "bullet choice", ALL, {Choose.type: handles(Choose, steps.choose)},
          duty="choose", waiting=steps.choosers, start=turn.choosing,
          count=turn.choices_count, nth=turn.nth_choice, listed=turn.choices_listed,
          plays=fastplay.choose,
          waiting_words="waiting for {names} to choose a card"),
    Phase(HOLDUP, "hold-up", ALL, {Aim.type: handles(Aim, steps.aim)}, stage=COUNTDOWN,
          windows=(SWAP_WINDOW,),
          duty="holdup", waiting=turn.aiming, start=turn.aiming_starts,
          count=turn.aims_count, nth=turn.nth_aim, listed=turn.aims_listed, plays=fastplay.aim,
          waiting_words="waiting for aims from {names}"),
    Phase(PRIVILEGE, "Godfather's privilege", GODFATHER,
          {Aim.type: handles(Aim, steps.aim_ordered)},
          windows=(PRIVILEGE_WINDOW,),  # the player ordered aims again
          duty="reaim", waiting=turn.reaiming, offers=turn.reaims, someone=turn.ordered,
          waiting_words="waiting for {names} to aim again"),
    Phase(COURAGE, "courage", ALL, {Courage.type: handles(Courage, steps.courage)}, stage=COUNTDOWN,
          windows=(SMART_WINDOW,),
          duty="courage", waiting=turn.deciding, start=turn.deciding_starts,
          count=turn.courage_count, nth=turn.nth_courage, listed=turn.courage_listed,
          plays=fastplay.courage,
          waiting_words="waiting for {names} to lie down or stand"),
    Phase(REVEAL, "card reveals", ALL,  # the cards that count
          {Reveal.type: handles(Reveal, steps.reveal)},
          then=turn.resolve_cards,  # then the split, or the end (R9)
          duty="reveal", waiting=turn.revealing, offers=turn.reveals,
          waiting_words="waiting for {names} to reveal their card"),
    Phase(SPLIT, "split", TURN, {Take.type: handles(Take, split.take)},
          windows=(FORBID_WINDOW, JUNK_WINDOW),
          then=turn.end_round,  # then the next round's loot, or the end (R12, R15)
          start=split.start,  # who is in the split, the Cute's bill, the first turn
          plays=fastplay.take,
          duty="split", waiting=turn.taking, offers=turn.takes, someone=turn.taker,
          waiting_words="it is {names}'s turn to take a share"),
    Phase(OVER, "end of the game", NOBODY, {},
          duty="over", waiting=turn.nobody, offers=turn.nothing, waiting_words=""),
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
    return ph.name if ph.stage == COUNTDOWN and ph.busy(s) else None


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


# -- what the table view and the countdowns ask of a step (the callers compare no names) ---

COUNTS_AIMS = frozenset((HOLDUP, PRIVILEGE, COURAGE, REVEAL))  # the counted aims matter
LYING_COUNTS = frozenset((COURAGE, REVEAL, SPLIT))  # a standee laid down means something


def aims_live(s: GameState) -> bool:
    """The hold-up: every raised gun's live aim is drawn (R3)."""
    return s.phase == HOLDUP


def aims_counted(s: GameState) -> bool:
    """From "three" until the cards are turned up, the aims the rules took are drawn."""
    return s.phase in COUNTS_AIMS


def asks_courage(s: GameState) -> bool:
    """The courage step: a standee up or down is the player's answer (R7)."""
    return s.phase == COURAGE


def lying_counts(s: GameState) -> bool:
    """A standee laid down this round still counts (courage to the split)."""
    return s.phase in LYING_COUNTS


def sharing(s: GameState) -> bool:
    """The split: a player lying down takes no share (R7)."""
    return s.phase == SPLIT


def cards_going_down(s: GameState) -> bool:
    """The choose step: a card laid face down is news (in the hold-up every card is)."""
    return s.phase == CHOOSE


def reads_postures(step: str | None) -> bool:
    """A countdown of this step reads the standees (courage), not the guns (hold-up)."""
    return step == COURAGE


def reads_aims(step: str | None) -> bool:
    """A countdown of this step reads the guns: the hold-up's, or the Kid's own."""
    return step == HOLDUP


def still_counting(s: GameState, step: str | None) -> bool:
    """The game is still at the countdown `step` counts (taps did not move it on)."""
    return countdown_step(s) == step
