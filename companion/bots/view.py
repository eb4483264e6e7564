"""What a player at one seat can know, and nothing more: the bots decide from this alone.

Their own hand, face-down card and loot; the table (the loot turned up, the token, whose
turn, who is alive, wounded, aimed at whom, lying down, how many cards each holds); and
what they remember of the public story (`Memory`). Never another hand, another face-down
card, a card drawn in secret, the order or content of the piles still to come, nor the
game's random generator. A view reads the game part by part as its bot asks (`SeatView`);
those parts are all it offers, and the hidden-information tests check that scrambling the
rest changes no decision.

A planning bot also gets `state`: a copy of the game with every hidden part replaced by the
same neutral filler whatever it really was, so that it can sample what it cannot see
(`determinize.py`) and play on with the engine.
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from companion.bots.memory import Bullets, Memory, diamonds
from companion.rules import Action, GameState
from companion.rules.actions import Hustle
from companion.rules.cards import CLICK, ROUNDS
from companion.rules.powers import COLLECTOR, wound_limit
from companion.rules.state import Player

FILLER = "bill5000"  # what the masked piles hold in place of the real cards
IN_SPLIT = attrgetter("in_split")  # (a player's, read in C)
NOBODY: list[str] = []  # (`SeatView.aimed_by` when nobody aims at me: never changed)


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


class Held(NamedTuple):
    """My cards and the discard pile's size, when the game keeps no hand (physical cards:
    `hands.Hands` keeps them)."""

    bang: int
    click: int
    card: str | None
    discards: int


class SeatView:
    """A decision's whole input: one seat's knowledge of the game at the moment it decides.

    Each part is worked out when a bot first asks for it, from the game and the seat's
    memory (read up to the game's story), and only from their public parts (and the seat's
    own): most decisions look at a few (a bullet choice often at none), and building every
    player's record for each of the 250 decisions of a game of 8 took most of a style bot's
    time. A view is read while its decision is made, before the game moves on; the parts
    kept once built are those of that moment: in `memo`, the seat's own figures, and in
    `shared`, those worked out from the table and the memory alone (the players' records,
    the estimates' public figures), which the seats deciding at one
    moment with the same memory share (`Arena.decide_together`): the same for each of them, so
    worked out once, not once a seat."""

    __slots__ = ("_alone", "_hand", "_masked", "_p", "_s", "me", "memo", "memory", "shared")

    def __init__(self, s: GameState, me: str, memory: Memory, masked: bool = False,
                 hand: Held | None = None, shared: dict[str, object] | None = None) -> None:
        self.me, self._s, self._p, self._masked = me, s, s.players[s.index[me]], masked
        self.renew(memory, hand, shared)

    def renew(self, memory: Memory, hand: Held | None = None,
              shared: dict[str, object] | None = None) -> SeatView:
        """The same seat's view of the same game, for its next decision (the arena keeps
        one for each seat, the game changing in place): `memory` read up to the story, the
        parts kept forgotten."""
        self.memory, self._hand = memory, hand  # (`memory`: what I remember of the story)
        # figures worked out once a view: the estimates' by name, a share's worth to the
        # deciding bot by the share's name (`StyleBot.values`)
        self.memo: dict[str, object] = {}
        self._alone = shared is None  # (no other seat deciding from the same moment)
        self.shared: dict[str, object] = {} if shared is None else shared
        return self

    # -- mine ----------------------------------------------------------------------------

    @property
    def bang(self) -> int:  # my hand
        return self._p.bang if self._hand is None else self._hand.bang

    @property
    def click(self) -> int:
        return self._p.click if self._hand is None else self._hand.click

    @property
    def card(self) -> str | None:  # my face-down card
        return self._p.card if self._hand is None else self._hand.card

    @property
    def loot(self) -> tuple[str, ...]:  # my loot, exactly
        return tuple(self._p.loot)

    # my power, wounds and target, as in `me_seen` but read without the rest of my record
    @property
    def power(self) -> str | None:
        return self._p.power

    @property
    def wounds(self) -> int:
        return self._p.wounds

    @property
    def wound_limit(self) -> int:
        return wound_limit(self._p.power)

    @property
    def target(self) -> str | None:
        target = self._p.target
        return None if target is None else self._s.players[target].name

    def taking(self) -> tuple[int, int, int, int, bool, bool]:
        """My own figures a share's worth to me hangs on (`estimate.worths`), read at once
        (a take's, without a part asked for each): the paintings I hold (the Collector's
        counted as one), my diamonds, my wounds and how many kill me, whether this is the
        last round, and whether a Clip could bring me a Bang! back (a Click! in my hand,
        a card in the discard pile)."""
        p = self._p
        loot, power = p.loot, p.power
        return (loot.count("painting") + (power == COLLECTOR), diamonds(loot), p.wounds,
                wound_limit(power), self._s.round >= ROUNDS, bool(self.click and self.discards))

    # -- the table -----------------------------------------------------------------------

    @property
    def round(self) -> int:
        return self._s.round

    @property
    def phase(self) -> str:
        return self._s.phase

    @property
    def godfather(self) -> str:
        return self._s.players[self._s.godfather].name

    @property
    def table(self) -> tuple[str, ...]:  # the loot on the table
        return tuple(self._s.table)

    @property
    def token(self) -> bool:  # the New Godfather token is still there
        return self._s.token

    @property
    def turn(self) -> str | None:  # whose share it is in the split
        s = self._s
        return None if s.turn is None else s.players[s.turn].name

    @property
    def forbidden(self) -> str | None:
        return self._s.forbidden

    @property
    def discards(self) -> int:  # cards in the discard pile (face up or down)
        s = self._s
        return s.discard_bang + s.discard_click if self._hand is None else self._hand.discards

    @property
    def out(self) -> tuple[str, ...]:  # loot out of play, seen by all
        return tuple(self._s.out)

    @property
    def piles(self) -> tuple[int, ...]:  # sizes of the piles still to come
        return tuple(len(pile) for pile in self._s.piles)

    @property
    def state(self) -> GameState | None:
        """For planners: the game with its hidden parts masked (`masked_state`)."""
        if not self._masked:
            return None
        known = self.memo.get("state")
        if known is None:
            known = self.memo["state"] = masked_state(self._s, self.me)
        return known  # type: ignore[return-value]

    # -- the players ---------------------------------------------------------------------

    @property
    def players(self) -> tuple[Seen, ...]:
        """Everybody in seating order, me included."""
        known = self.shared.get("players")
        if known is None:
            known = self.shared["players"] = tuple([self.seat_of(q.name) for q in self._s.players])
        return known  # type: ignore[return-value]

    @property
    def me_seen(self) -> Seen:
        return self.seat_of(self.me)

    def seat_of(self, name: str) -> Seen:
        records: dict[str, Seen] | None = self.shared.get("seen")  # type: ignore[assignment]
        if records is None:
            records = self.shared["seen"] = {}
        known = records.get(name)
        if known is None:
            s = self._s
            known = records[name] = _seen(s, s.players[s.index[name]], self.memory)
        return known

    def living_others(self) -> list[Seen]:
        return [p for p in self.players if p.alive and p.name != self.me]

    def living_names(self) -> list[str]:
        """Who is alive, in seating order, me included."""
        return list(self._s.living_names)

    def standing(self) -> int:
        """How many players are still in the split (`Seen.in_split`), without their records."""
        return sum(map(IN_SPLIT, self._s.players))

    def aimers(self) -> list[Seen]:
        """The living players aiming at me now, in seating order."""
        return [*map(self.seat_of, self.aimed_by())]

    def aimed_by(self) -> list[str]:
        """The names of the living players aiming at me now, in seating order (`aimers`,
        without their records); read it, never change it."""
        if self._alone:  # (a decision of its own: who aims at me, not at everyone)
            known = self.memo.get("aimed_by")
            if known is None:
                mine = self._p.seat
                known = self.memo["aimed_by"] = [
                    q.name for q in self._s.players
                    if q.target == mine and q.alive and q.seat != mine]
            return known  # type: ignore[return-value]
        aimers: dict[int, list[str]] | None = self.shared.get("aimers")  # type: ignore[assignment]
        if aimers is None:  # (who aims at whom, as the table sees it: read once a moment)
            aimers = {}
            self.shared["aimers"] = aimers
            for q in self._s.players:
                target = q.target
                if target is not None and q.alive and target != q.seat:
                    if target in aimers:
                        aimers[target].append(q.name)
                    else:
                        aimers[target] = [q.name]
        return aimers.get(self._p.seat, NOBODY)

    def living_loot(self) -> list[tuple[str, str | None, int, list[str]]]:
        """Each living player's name, power, number of loot cards and the shares seen going
        to them (`Seen.loot_count`, `Seen.loot_seen`), in seating order: what a player's
        wealth is guessed from, without the rest of their record."""
        seen = self.memory.seen
        return [(q.name, q.power, len(q.loot), seen[q.name]) for q in self._s.players if q.alive]

    def loot_seen(self, name: str) -> list[str]:
        """The shares seen going to `name`, not seen leaving (`Seen.loot_seen`)."""
        return self.memory.seen[name]


def seat_view(s: GameState, me: str, memory: Memory, masked: bool = False,
              hand: Held | None = None) -> SeatView:
    """`me`'s view of `s`, read from `memory` brought up to date with the events."""
    memory.update(s.events)
    return SeatView(s, me, memory, masked, hand)


def _seen(s: GameState, q: Player, memory: Memory) -> Seen:
    """`q` as everybody sees them (built as a plain tuple of the fields in order: a view may
    build all 8 players' for one decision, and keywords cost as much as the rest)."""
    name, target = q.name, q.target
    return _tuple(Seen, (
        name, q.seat, q.power, q.alive, q.wounds, wound_limit(q.power), q.bang + q.click,
        q.card is not None, q.aimed, None if target is None else s.players[target].name,
        q.down, q.in_split, len(q.loot), tuple(memory.seen[name]), tuple(memory.maybe[name]),
        memory.bullets[name]))


_tuple = tuple.__new__


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
