"""The game state: plain mutable records, copied cheaply by `GameState.copy`.

The engine mutates a private copy and hands it back, so callers always see
immutable snapshots; the simulator mutates one state in place for speed.
"""

from __future__ import annotations

from typing import Any

from companion.rules.powers import shrugs_off

# The phases' names, in the order of a turn; what each one is and does: `phases.TABLE`.
LOOT, CHOOSE, HOLDUP, PRIVILEGE = "loot", "choose", "holdup", "privilege"
COURAGE, REVEAL, SPLIT, OVER = "courage", "reveal", "split", "over"
PHASES = (LOOT, CHOOSE, HOLDUP, PRIVILEGE, COURAGE, REVEAL, SPLIT, OVER)


class Player:
    """One seat. Per-turn fields are reset when a round starts."""

    __slots__ = (
        "aimed", "alive", "bang", "card", "click", "down", "greedy_used", "hits",
        "in_split", "loot", "name", "power", "revealed", "seat", "target", "wounds",
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
        self.reset_turn()

    def reset_turn(self) -> None:
        self.card: str | None = None  # the face-down card: bang, click, "hidden" (physical)
        self.target: int | None = None
        self.aimed = False
        self.down: bool | None = None  # courage choice; None until declared
        self.hits: list[int] = []  # seats whose Bang! hit this player this turn
        self.revealed = False
        self.in_split = False
        self.greedy_used = False

    @property
    def hand_size(self) -> int:
        return self.bang + self.click

    @property
    def standing(self) -> bool:
        """Standing at the split: alive, did not lie down, took no wound (R7, R26)."""
        return self.alive and self.down is False and not self.hits_wound

    @property
    def hits_wound(self) -> bool:
        return bool(self.hits) and not shrugs_off(self.power, len(self.hits))

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.name, p.seat, p.power, p.alive, p.wounds = (
            self.name, self.seat, self.power, self.alive, self.wounds)
        p.bang, p.click, p.loot, p.card, p.target, p.aimed = (
            self.bang, self.click, self.loot[:], self.card, self.target, self.aimed)
        p.down, p.hits, p.revealed, p.in_split, p.greedy_used = (
            self.down, self.hits[:], self.revealed, self.in_split, self.greedy_used)
        return p


class GameState:
    """Everything the rules need; `events` is the game's story so far."""

    __slots__ = (
        "cards", "discard_bang", "discard_click", "done", "events", "forbidden", "godfather",
        "index", "junk_card", "loot_mode", "new_godfather", "ordered", "out", "phase", "piles",
        "players",
        "powers", "rng", "round", "table", "token", "turn", "used", "variant", "winners",
    )

    players: list[Player]
    index: dict[str, int]  # name -> seat, shared between copies (never mutated)
    powers: dict[str, int]  # power -> seat, shared between copies
    cards: str  # "digital" or "physical"
    loot_mode: str  # "digital" (dealt from the seeded deck) or "physical" (entered by `deal`)
    variant: dict[str, Any]
    round: int
    phase: str
    godfather: int
    piles: list[list[str]]  # piles still to turn up; [0] is next round's
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
    events: list[dict[str, Any]]

    def copy(self) -> GameState:
        s = GameState.__new__(GameState)
        s.players = [p.copy() for p in self.players]
        s.index, s.powers, s.cards, s.variant = self.index, self.powers, self.cards, self.variant
        s.loot_mode = self.loot_mode
        s.round, s.phase, s.godfather = self.round, self.phase, self.godfather
        s.piles = [pile[:] for pile in self.piles]
        s.table, s.token = self.table[:], self.token
        s.discard_bang, s.discard_click, s.rng = self.discard_bang, self.discard_click, self.rng
        s.done, s.ordered, s.turn, s.forbidden = self.done, self.ordered, self.turn, self.forbidden
        s.used, s.junk_card, s.new_godfather = self.used, self.junk_card, self.new_godfather
        s.out, s.winners, s.events = self.out[:], self.winners[:], self.events[:]
        return s

    # -- queries used everywhere ------------------------------------------------------

    @property
    def physical(self) -> bool:
        return self.cards == "physical"

    @property
    def physical_loot(self) -> bool:
        return self.loot_mode == "physical"

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

    def clockwise_from(self, seat: int) -> list[Player]:
        """All players in seating order starting at `seat`."""
        n = len(self.players)
        return [self.players[(seat + i) % n] for i in range(n)]

    def event(self, type_: str, **fields: Any) -> None:
        self.events.append({"round": self.round, "type": type_, **fields})
