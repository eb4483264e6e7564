"""What a player at one seat can know, and nothing more: the bots decide from this alone.

Their own hand, face-down card and loot; the table (the loot turned up, the token, whose
turn, who is alive, wounded, aimed at whom, lying down, how many cards each holds); and
what they remember of the public story (`Memory`). Never another hand, another face-down
card, a card drawn in secret, the order or content of the piles still to come, nor the
game's random generator.

A planning bot also gets `state`: a copy of the game with every hidden part replaced by the
same neutral filler whatever it really was, so that it can sample what it cannot see
(`determinize.py`) and play on with the engine.
"""

from __future__ import annotations

from typing import NamedTuple

from companion.bots.memory import Bullets, Memory
from companion.rules import Action, GameState
from companion.rules.actions import Hustle
from companion.rules.cards import CLICK
from companion.rules.powers import wound_limit
from companion.rules.state import Player

FILLER = "bill5000"  # what the masked piles hold in place of the real cards


class Seen(NamedTuple):
    """One player as everybody at the table sees them (a named tuple: one is built for
    every player at every decision, and a tuple is built at a fraction of a frozen
    dataclass's cost)."""

    name: str
    seat: int
    power: str | None
    alive: bool
    wounds: int
    wound_limit: int
    hand_size: int
    chosen: bool  # a card lies face down in front of them
    aimed: bool
    target: str | None
    down: bool | None
    in_split: bool
    loot_count: int
    loot_seen: tuple[str, ...]  # shares seen going to them, not seen leaving
    loot_maybe: tuple[str, ...]  # cards they may have stolen in secret
    bullets: Bullets  # the bullet cards they may still hold


class SeatView(NamedTuple):
    """A decision's whole input: one seat's knowledge of the game (a named tuple, as
    `Seen`: one is built for every decision)."""

    me: str
    bang: int  # my hand
    click: int
    card: str | None  # my face-down card
    loot: tuple[str, ...]  # my loot, exactly
    players: tuple[Seen, ...]  # everybody in seating order, me included
    round: int
    phase: str
    godfather: str
    table: tuple[str, ...]  # the loot on the table
    token: bool  # the New Godfather token is still there
    turn: str | None  # whose share it is in the split
    forbidden: str | None
    discards: int  # cards in the discard pile (face up or down)
    out: tuple[str, ...]  # loot out of play, seen by all
    piles: tuple[int, ...]  # sizes of the piles still to come
    memory: Memory
    state: GameState | None  # for planners: the game with its hidden parts masked

    @property
    def me_seen(self) -> Seen:
        return self.seat_of(self.me)

    def seat_of(self, name: str) -> Seen:
        return next(p for p in self.players if p.name == name)

    def living_others(self) -> list[Seen]:
        return [p for p in self.players if p.alive and p.name != self.me]


class Held(NamedTuple):
    """My cards and the discard pile's size, when the game keeps no hand (physical cards:
    `hands.Hands` keeps them)."""

    bang: int
    click: int
    card: str | None
    discards: int


def seat_view(s: GameState, me: str, memory: Memory, masked: bool = False,
              hand: Held | None = None) -> SeatView:
    """`me`'s view of `s`; `memory` is brought up to date with the events first."""
    memory.update(s.events)
    p = s.players[s.index[me]]
    bang, click, card, discards = ((p.bang, p.click, p.card, s.discard_bang + s.discard_click)
                                   if hand is None else hand)
    return SeatView(
        me=me, bang=bang, click=click, card=card, loot=tuple(p.loot),
        players=tuple(_seen(s, q, memory) for q in s.players),
        round=s.round, phase=s.phase, godfather=s.players[s.godfather].name,
        table=tuple(s.table), token=s.token,
        turn=None if s.turn is None else s.players[s.turn].name, forbidden=s.forbidden,
        discards=discards, out=tuple(s.out),
        piles=tuple(len(pile) for pile in s.piles), memory=memory,
        state=masked_state(s, me) if masked else None)


def _seen(s: GameState, q: Player, memory: Memory) -> Seen:
    return Seen(
        name=q.name, seat=q.seat, power=q.power, alive=q.alive, wounds=q.wounds,
        wound_limit=wound_limit(q.power), hand_size=q.hand_size, chosen=q.card is not None,
        aimed=q.aimed, target=None if q.target is None else s.players[q.target].name,
        down=q.down, in_split=q.in_split, loot_count=len(q.loot),
        loot_seen=tuple(memory.seen[q.name]), loot_maybe=tuple(memory.maybe[q.name]),
        bullets=memory.bullets[q.name])


def masked_state(s: GameState, me: str) -> GameState:
    """A copy of `s` whose hidden parts are the same filler whatever they were: the other
    hands (sizes kept), their face-down cards, their loot, the piles (sizes kept), the
    split of the discard pile, the random generator and the story."""
    m = s.copy()
    m.events = []
    m.rng = 0
    m.piles = [(FILLER,) * len(pile) for pile in m.piles]
    m.discard_bang, m.discard_click = 0, m.discard_bang + m.discard_click
    for q in m.players:
        if q.name == me:
            continue
        q.loot = []
        q.bang, q.click = 0, q.hand_size
        if q.card is not None:
            q.card = CLICK
    return m


def my_options(legal: list[Action], me: str, bang: int, click: int) -> list[Action]:
    """`me`'s legal actions, less the Hustler's gives that only a look at the victim's hand
    could tell are possible (the engine allows a card drawn if the victim held no other)."""
    held = {"bang": bang, "click": click}
    return [a for a in legal if a.player == me
            and (not isinstance(a, Hustle) or a.give is None or held[a.give] > 0)]
