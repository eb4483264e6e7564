"""The game state: plain mutable records, copied cheaply by `GameState.copy`.

The engine mutates a private copy and hands it back, so callers always see
immutable snapshots; the simulator mutates one state in place for speed. What
never changes during a game (names, powers, the variant) and what is only ever
replaced, never changed in place (tuples, frozensets) is shared between copies.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.rules.events import Event
from companion.rules.powers import shrugs_off

# The phases' names, in the order of a turn; what each one is and does: `phases.TABLE`.
LOOT, CHOOSE, HOLDUP, PRIVILEGE = "loot", "choose", "holdup", "privilege"
COURAGE, REVEAL, SPLIT, OVER = "courage", "reveal", "split", "over"
PHASES = (LOOT, CHOOSE, HOLDUP, PRIVILEGE, COURAGE, REVEAL, SPLIT, OVER)


class Player:
    """One seat. Per-turn fields are reset when a round starts."""

    __slots__ = (
        "aimed", "alive", "bang", "card", "click", "down", "greedy_used", "hits",
        "in_split", "loot", "name", "power", "seat", "target", "wounds",
    )

    def __init__(self, name: str, seat: int, power: str | None) -> None:
        self.name = name
        self.seat = seat  # 0-based index in seating order
        self.power = power
        self.alive = True
        self.wounds = 0
        self.bang = 3  # cards in hand (digital cards mode)
        self.click = 5
        self.loot: list[str] = []
        Player.reset_turns((self,))

    card: str | None  # the face-down card: bang, click, "hidden" (physical)
    target: int | None
    aimed: bool
    down: bool | None  # courage choice; None until declared
    hits: tuple[int, ...]  # seats whose Bang! hit this player this turn
    in_split: bool
    greedy_used: bool

    @staticmethod
    def reset_turns(players: Iterable[Player]) -> None:
        """A round begins: each player's per-turn fields back to their start."""
        for p in players:
            p.card = p.target = p.down = None
            p.aimed = p.in_split = p.greedy_used = False
            p.hits = ()

    @property
    def hand_size(self) -> int:
        return self.bang + self.click

    @property
    def standing(self) -> bool:
        """Standing at the split: alive, did not lie down, took no wound (R7, R26)."""
        return self.alive and self.down is False and not (self.hits and self.hits_wound)

    @property
    def hits_wound(self) -> bool:
        return bool(self.hits) and not shrugs_off(self.power, len(self.hits))

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.name, p.seat, p.power, p.alive, p.wounds, p.bang, p.click = (
            self.name, self.seat, self.power, self.alive, self.wounds, self.bang, self.click)
        p.card, p.target, p.aimed, p.down, p.hits, p.in_split, p.greedy_used = (
            self.card, self.target, self.aimed, self.down, self.hits, self.in_split,
            self.greedy_used)
        p.loot = self.loot[:]  # (the hits are a tuple: shared)
        return p


class GameState:
    """Everything the rules need; `events` is the game's story so far."""

    __slots__ = (
        "cards", "discard_bang", "discard_click", "done", "events", "forbidden", "godfather",
        "index", "junk_card", "living_names", "loot_mode", "new_godfather", "ordered", "out",
        "phase", "physical", "physical_loot", "piles", "players", "powers",
        "rests_at", "rng", "round", "table", "to_act", "token", "turn", "used", "variant",
        "winners",
    )

    players: list[Player]
    index: dict[str, int]  # name -> seat, shared between copies (never mutated)
    powers: dict[str, int]  # power -> seat, shared between copies
    cards: str  # "digital" or "physical"
    physical: bool  # cards == "physical": the companion sees no hand
    loot_mode: str  # "digital" (dealt from the seeded deck) or "physical" (entered by `deal`)
    physical_loot: bool  # loot_mode == "physical"
    variant: dict[str, str]  # (`setup.VARIANTS`)
    round: int
    phase: str
    godfather: int
    piles: list[tuple[str, ...]]  # piles still to turn up; [0] is next round's
    table: list[str]  # loot cards on the table
    token: bool  # the New Godfather token lies untaken
    discard_bang: int
    discard_click: int
    rng: int
    done: frozenset[str]  # optional steps passed this turn: hustle, swap, privilege, smart
    ordered: int | None  # who the Godfather ordered to change target, until it re-aims
    turn: int | None  # whose share it is in the split
    forbidden: str | None  # kind the Dictator forbade for this take
    used: frozenset[str]  # once-a-round powers used: dictator, junk_dealer
    junk_card: int | None  # while the Junk Dealer may swap: index of that card in its loot
    new_godfather: int | None  # who took the token this round
    out: list[str]  # loot out of play: used Clips and kits, discarded leftovers
    winners: list[str]
    events: list[Event]  # the game's story: appended to, each event never changed
    # Kept by the rules as they change, so that nobody rescans the players for them:
    # whom the step of everyone at once (choose, hold-up, courage) still waits for, in
    # seating order (the Kid only once alone, R25): noted when it begins (`Phase.start`),
    # each seat taken off as its player acts
    to_act: list[int]
    living_names: tuple[str, ...]  # the living players' names in seating order (the aims)
    rests_at: str | None  # the resting window the game rests at, if any (`engine.settle`)

    def copy(self) -> GameState:
        s = GameState.__new__(GameState)
        s.players = [p.copy() for p in self.players]
        # what is only ever replaced, never changed in place, is shared
        (s.index, s.powers, s.cards, s.physical, s.variant, s.loot_mode, s.physical_loot,
         s.done, s.used, s.living_names) = (
            self.index, self.powers, self.cards, self.physical, self.variant, self.loot_mode,
            self.physical_loot, self.done, self.used, self.living_names)
        (s.round, s.phase, s.godfather, s.token, s.discard_bang, s.discard_click, s.rng,
         s.ordered, s.turn, s.forbidden, s.junk_card, s.new_godfather, s.rests_at) = (
            self.round, self.phase, self.godfather, self.token, self.discard_bang,
            self.discard_click, self.rng, self.ordered, self.turn, self.forbidden,
            self.junk_card, self.new_godfather, self.rests_at)
        # the lists are copied (the events in them are never changed: shared)
        s.piles, s.table, s.out, s.winners, s.events, s.to_act = (
            self.piles[:], self.table[:], self.out[:], self.winners[:], self.events[:],
            self.to_act[:])
        return s

    # -- queries used everywhere ------------------------------------------------------

    @property
    def over(self) -> bool:
        """The game has ended: the final count is made (callers need not know the phase)."""
        return self.phase == OVER

    @property
    def dealt(self) -> bool:
        """This round's loot is on the table (always so with digital loot)."""
        return not self.physical_loot or "deal" in self.done

    def holder(self, power: str) -> Player | None:
        """The living player holding `power`, if any."""
        seat = self.powers.get(power)
        if seat is None:
            return None
        p = self.players[seat]
        return p if p.alive else None

    def living(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def count_the_living(self) -> None:
        """After a death (or at the start): refresh `living_names`."""
        self.living_names = tuple([p.name for p in self.players if p.alive])

    def clockwise_from(self, seat: int) -> list[Player]:
        """All players in seating order starting at `seat`."""
        n = len(self.players)
        return [self.players[(seat + i) % n] for i in range(n)]
