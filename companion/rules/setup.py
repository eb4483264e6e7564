"""Building the first state of a game from a table's setup (R1, R2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules import rng
from companion.rules.cards import PILE_SIZE, ROUNDS, official_deck
from companion.rules.state import LOOT, GameState, Player

VARIANTS: dict[str, tuple[str, ...]] = {"unclaimed_loot": ("carry_over", "discard")}
DEFAULT_VARIANT = {"unclaimed_loot": "carry_over"}


@dataclass(frozen=True, slots=True)
class StartPlayer:
    """A player's position when a game begins mid-way; None keeps the fresh value."""

    alive: bool | None = None
    wounds: int | None = None
    loot: tuple[str, ...] | None = None
    bang: int | None = None
    click: int | None = None


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything a game needs before its first action; checked by the scenario loader."""

    players: tuple[str, ...]
    powers: dict[str, str] = field(default_factory=dict)  # player -> power
    seed: int = 0
    variant: dict[str, str] = field(default_factory=dict)
    loot: tuple[tuple[str, ...], ...] | None = None  # piles still to come
    cards: str = "digital"
    loot_mode: str = "digital"  # "physical": the Godfather enters the cards turned up
    start_round: int = 1
    start_godfather: str | None = None
    start_discard: tuple[int, int] = (0, 0)  # (bang, click)
    start_players: dict[str, StartPlayer] = field(default_factory=dict)


def new_game(setup: Setup) -> GameState:
    """The state at the start of `setup.start_round`, settled at its first decision."""
    from companion.rules.engine import start_round  # the engine builds on this module

    s = GameState.__new__(GameState)
    s.index = {name: i for i, name in enumerate(setup.players)}
    s.powers = {power: s.index[name] for name, power in setup.powers.items()}
    s.players = [Player(name, i, setup.powers.get(name)) for i, name in enumerate(setup.players)]
    s.cards = setup.cards
    s.physical = setup.cards == "physical"
    s.loot_mode = setup.loot_mode
    s.physical_loot = setup.loot_mode == "physical"
    s.variant = {**DEFAULT_VARIANT, **setup.variant}
    s.rng = rng.seed_state(setup.seed)
    rounds_left = ROUNDS - setup.start_round + 1
    if setup.loot_mode == "physical":
        s.piles = []  # real piles on the real table: each round's cards come by `deal`
    elif setup.loot is None:
        deck = official_deck()
        s.rng = rng.shuffle(s.rng, deck)
        piles = [tuple(deck[i * PILE_SIZE : (i + 1) * PILE_SIZE]) for i in range(ROUNDS)]
        s.piles = piles[:rounds_left]
    else:
        s.piles = [tuple(pile) for pile in setup.loot]
    s.discard_bang, s.discard_click = setup.start_discard
    for name, sp in setup.start_players.items():
        p = s.players[s.index[name]]
        for attr in ("alive", "wounds", "bang", "click"):
            if getattr(sp, attr) is not None:
                setattr(p, attr, getattr(sp, attr))
        if sp.loot is not None:
            p.loot = list(sp.loot)
    first = s.index[setup.start_godfather] if setup.start_godfather else 0
    s.godfather = next(p.seat for p in s.clockwise_from(first) if p.alive)
    s.round = setup.start_round - 1
    s.table, s.token, s.out, s.winners, s.events = [], False, [], [], []
    s.phase = LOOT
    s.done, s.used = frozenset(), frozenset()
    s.ordered = s.turn = s.forbidden = s.junk_card = s.new_godfather = None
    s.to_act = []
    s.rests_at = None
    start_round(s)
    return s
