"""Rough figures a player works out from a `SeatView`: what a share is worth to me, how rich
each player seems, how likely a Bang! is to come my way."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import repeat
from typing import NamedTuple

from companion.bots.memory import diamonds
from companion.bots.view import SeatView
from companion.rules.cards import (
    DIAMOND_BONUS,
    FACE_VALUE,
    LOOT_KIND,
    TOKEN,
    painting_value,
)
from companion.rules.powers import COLLECTOR, DOCTOR, STEALTHY

UNKNOWN_CARD = 8000  # the average loot card, for a card one did not see
TOKEN_VALUE = 7000  # next round's first share and privilege
WOUND_COST = 15000  # a wound, while it does not kill
STANDS = 0.7  # how often a player aimed at stands, when nothing says otherwise


def wealth(cards: Sequence[str], power: str | None, unknown: int = 0) -> int:
    """Bills, diamonds and paintings counted as at the end, without the diamond bonus."""
    money = sum(map(FACE_VALUE.get, cards, repeat(0)))  # (each card's face value, or 0)
    paintings = cards.count("painting") + (power == COLLECTOR)
    return money + (painting_value(paintings) if paintings else 0) + unknown * UNKNOWN_CARD


def seen_worth(power: str | None, count: int, seen: Sequence[str]) -> int:
    """A player's wealth as the table can tell from the `count` loot cards they hold and
    those `seen` going to them."""
    return wealth(seen[:count], power, max(0, count - len(seen)))


def seen_diamonds(view: SeatView) -> dict[str, int]:
    """The diamonds each living player seems to hold, as the table saw them go, in seating
    order (a figure of the table and the memory alone: shared by the seats deciding at one
    moment, `SeatView.shared`); read it, never change it."""
    shared = view.shared
    known = shared.get("diamonds")
    if known is None:
        living = view.living_names()
        known = shared["diamonds"] = dict(
            zip(living, map(view.memory.diamonds.__getitem__, living), strict=True))
    return known  # type: ignore[return-value]


def diamond_counts(view: SeatView) -> dict[str, int]:
    """The diamonds each living player seems to hold (mine exactly), in seating order;
    worked out once a view and handed out as kept: read it, never change it."""
    known = view.memo.get("diamonds")
    if known is None:
        known = view.memo["diamonds"] = seen_diamonds(view).copy()
        if view.me in known:
            known[view.me] = diamonds(view.loot)
    return known  # type: ignore[return-value]


def riches(view: SeatView) -> dict[str, int]:
    """How rich each other living player seems, the diamond bonus counted where it lies
    now (my own diamonds counted exactly, as they decide where it lies); my own entry is
    the table's guess, not my wealth (the targets these are read for are the others)."""
    counts = diamond_counts(view)
    top = [*sorted(counts.values(), reverse=True), 0, 0]
    shared = view.shared
    seem: dict[str, int] | None = shared.get("riches")  # type: ignore[assignment]
    if seem is None:  # (each living player's wealth as the table sees it: shared)
        seem = shared["riches"] = {name: seen_worth(power, count, seen)
                                   for name, power, count, seen in view.living_loot()}
    if top[0] > top[1]:  # (the bonus lies with one player: the one with the most)
        holder = max(counts, key=counts.__getitem__)
        seem = {**seem, holder: seem[holder] + DIAMOND_BONUS}
    return seem


def hit_chance(view: SeatView) -> float:
    """The chance that at least one Bang! hits me if I stand."""
    safe = 1.0
    bullets = view.memory.bullets  # (each aimer's `Seen.bullets`, read without the record)
    for name in view.aimed_by():
        safe *= 1 - bullets[name].bang_share() * STANDS
    return 1 - safe


def deadly(view: SeatView) -> bool:
    """Enough guns point at me to kill me if each fires a Bang!."""
    return view.wounds + len(view.aimed_by()) >= view.wound_limit


class Taker(NamedTuple):
    """What a share's worth depends on, for the player who would take it (a named tuple:
    one is built for each playout step, at a quarter of a frozen dataclass's cost; a style
    bot reads the same figures from its view, `worths`)."""

    loot: Sequence[str]
    power: str | None
    wounds: int
    wound_limit: int
    last_round: bool
    can_reload: bool  # holds a Click! while a Bang! may lie in the discard pile
    rival_diamonds: int  # the most diamonds another living player holds


def worths(view: SeatView, bonus_weight: float, painting_weight: float) -> dict[str, float]:
    """Every share's worth to me (`worth_table` of my `Taker`), read from my view without
    building the taker: worked out once a view, with `StyleBot.values` (a decision weighs
    every share on the table against the same view)."""
    others = view.living_names()  # (the living others' diamonds as they were seen)
    if view.me in others:
        others.remove(view.me)
    rival = max(map(view.memory.diamonds.__getitem__, others), default=0)
    paintings, mine, wounds, limit, last_round, can_reload = view.taking()
    return shares_worth(paintings, mine, rival, wounds, limit, last_round, can_reload,
                        bonus_weight, painting_weight)


def worth_table(t: Taker, bonus_weight: float = 0.5, painting_weight: float = 1.0,
                ) -> dict[str, float]:
    """Every share's worth to the taker `t` (`shares_worth`)."""
    return shares_worth(t.loot.count("painting") + (t.power == COLLECTOR), diamonds(t.loot),
                        t.rival_diamonds, t.wounds, t.wound_limit, t.last_round, t.can_reload,
                        bonus_weight, painting_weight)


@lru_cache(maxsize=4096)  # (a few figures each: the same few hundred tables, game after game)
def shares_worth(paintings: int, mine: int, rival: int, wounds: int, wound_limit: int,
                 last_round: bool, can_reload: bool, bonus_weight: float,
                 painting_weight: float) -> dict[str, float]:
    """Every share's worth to a taker holding `paintings` paintings (the Collector's
    counted) and `mine` diamonds, against a rival's `rival`, by the share (every card of the
    deck and the token): its money, the next painting of a set, a step towards the diamond
    bonus, a healed wound, a Bang! back, the next round's desk. Built once for these
    figures and handed out as kept: read it, never change it."""
    bonus = bonus_weight * bonus_step(mine, rival)
    return {
        **BILLS,
        "diamond1000": FACE_VALUE["diamond1000"] + bonus,
        "diamond5000": FACE_VALUE["diamond5000"] + bonus,
        "diamond10000": FACE_VALUE["diamond10000"] + bonus,
        "painting": PAINTING_GAIN[paintings] * painting_weight,
        "first_aid": wounds * WOUND_COST * (2 if wounds + 1 >= wound_limit else 1),
        "clip": 6000 if can_reload else 0,
        TOKEN: 0 if last_round else TOKEN_VALUE,
    }


BILLS = {card: FACE_VALUE[card] for card, kind in LOOT_KIND.items() if kind == "bill"}
# what one more painting brings to a set of n (all 10 paintings and the Collector's: 11)
PAINTING_GAIN = tuple(painting_value(n + 1) - painting_value(n) for n in range(12))


@lru_cache(maxsize=128)  # (a few diamonds each: under 100 pairs)
def bonus_step(mine: int, rival: int) -> float:
    """How much one more diamond moves me towards the $60k bonus (or stops a rival)."""
    if mine + 1 > rival >= mine:  # I would lead alone
        return DIAMOND_BONUS
    if mine + 1 == rival:  # I would tie: nobody gets it
        return DIAMOND_BONUS / 2
    return DIAMOND_BONUS / 6 if mine < rival else DIAMOND_BONUS / 8


def lie_down_gain(view: SeatView) -> float:
    """What lying down brings by itself: the Doctor's healing, the Stealthy's $10k."""
    if view.power == DOCTOR and view.wounds:
        return WOUND_COST
    if view.power == STEALTHY and "bill10000" in view.table:
        return 10000
    return 0.0
