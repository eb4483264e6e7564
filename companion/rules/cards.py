"""Loot and bullet cards as data: ids, kinds, values, the official deck (R2, R15)."""

BANG = "bang"
CLICK = "click"
BULLETS = (BANG, CLICK)

TOKEN = "godfather"  # the New Godfather token, a share but not a card

LOOT_KIND: dict[str, str] = {
    "bill5000": "bill",
    "bill10000": "bill",
    "bill20000": "bill",
    "diamond1000": "diamond",
    "diamond5000": "diamond",
    "diamond10000": "diamond",
    "painting": "painting",
    "clip": "clip",
    "first_aid": "first_aid",
}
KINDS = ("bill", "diamond", "painting", "first_aid", "clip", TOKEN)

FACE_VALUE: dict[str, int] = {
    "bill5000": 5000,
    "bill10000": 10000,
    "bill20000": 20000,
    "diamond1000": 1000,
    "diamond5000": 5000,
    "diamond10000": 10000,
}

DECK_COUNTS: dict[str, int] = {
    "bill5000": 15,
    "bill10000": 15,
    "bill20000": 10,
    "diamond1000": 5,
    "diamond5000": 3,
    "diamond10000": 1,
    "painting": 10,
    "clip": 3,
    "first_aid": 2,
}
ROUNDS = 8
PILE_SIZE = 8

# R15: value of a set of paintings by its size; 10 or more are worth the last entry.
PAINTING_SET = (0, 4000, 12000, 30000, 60000, 100000, 150000, 200000, 300000, 400000, 500000)
DIAMOND_BONUS = 60000

# Kinds the Junk Dealer may swap right after taking (R24).
JUNKABLE = frozenset(("bill", "diamond", "painting"))


def kind_of(share: str) -> str:
    return TOKEN if share == TOKEN else LOOT_KIND[share]


OFFICIAL_DECK = tuple(card for card, n in DECK_COUNTS.items() for _ in range(n))


def official_deck() -> list[str]:
    """The 64 loot cards of R2, in a fixed order (shuffled by the setup)."""
    return list(OFFICIAL_DECK)


def painting_value(count: int) -> int:
    return PAINTING_SET[min(count, len(PAINTING_SET) - 1)]
