"""The loot step: the cards turned up with physical loot (R2), and the Hustler (R23).

Like `steps.py`, each handler checks the action against the rules and mutates the
(private) state; `hustle_victims` and `hustle_gives` are the same rules seen from
`legal_actions`.
"""

from __future__ import annotations

from collections import Counter

from companion.rules import rng
from companion.rules.actions import Deal, Hustle
from companion.rules.cards import BANG, CLICK, DECK_COUNTS, LOOT_KIND, PILE_SIZE
from companion.rules.errors import RuleError
from companion.rules.events import Dealt, Hustled, JunkSwapped
from companion.rules.powers import HUSTLER
from companion.rules.state import GameState, Player
from companion.rules.steps import (
    add_to_hand,
    check_bullet,
    check_physical_field,
    player_named,
    require_power,
)


def deal(s: GameState, p: Player, a: Deal) -> None:
    """Physical loot: the Godfather enters the cards turned up for this round."""
    if not s.physical_loot:
        raise RuleError("R2", "the companion deals the loot itself (digital loot)")
    if p.seat != s.godfather:
        raise RuleError("R2", f"the Godfather ({s.players[s.godfather].name}) turns up the loot")
    if s.dealt:
        raise RuleError("R2", "this round's loot is already on the table")
    cards = a.loot if isinstance(a.loot, tuple) else ()
    if not 1 <= len(cards) <= PILE_SIZE or any(c not in LOOT_KIND for c in cards):
        raise RuleError("R2", f"a pile is 1 to {PILE_SIZE} loot cards")
    over = beyond_the_deck(cards, out_of_the_deck(s))
    if over:
        raise RuleError("R2", f"no deck holds that: {over}")
    s.table += list(cards)
    s.done |= {"deal"}
    s.events.append(Dealt(s.round, player=p.name, loot=cards))


def out_of_the_deck(s: GameState) -> Counter[str]:
    """The loot cards this game has turned up so far, less what the Junk Dealer put into a
    later pile (it is turned up again with that pile). What he drew from it is not counted:
    the companion never sees that pile, so a real deal is never refused."""
    out: Counter[str] = Counter()
    for e in s.events:
        if isinstance(e, Dealt):
            out.update(e.loot)
        elif isinstance(e, JunkSwapped) and e.pile is None:
            out[e.gave] -= 1
    return out


def beyond_the_deck(cards: tuple[str, ...], before: Counter[str]) -> str | None:
    """What a pile would need beyond one real deck, after the cards `before` it (the
    earlier rounds'): more copies of a card than the deck holds."""
    for card, n in DECK_COUNTS.items():
        if cards.count(card) + before[card] > n:
            earlier = f", {before[card]} turned up before" if before[card] > 0 else ""
            return f"the deck has {n} {card}{earlier}, the pile {cards.count(card)}"
    return None


def hustle_victims(s: GameState, h: Player) -> list[Player]:
    physical = s.physical
    return [v for v in s.players if v.alive and v is not h and (physical or v.bang or v.click)]


def hustle_gives(h: Player, v: Player) -> list[str]:
    """Cards the Hustler can surely give back: held before the draw, or the only kind drawn."""
    gives = []
    if h.bang or not v.click:  # (a hand of bangs only: the card drawn is a bang)
        gives.append(BANG)
    if h.click or not v.bang:
        gives.append(CLICK)
    return gives


def hustle(s: GameState, p: Player, a: Hustle) -> None:
    require_power(p, HUSTLER, "R23")
    if not s.dealt:
        raise RuleError("R23", "the Hustler acts in the loot step, once the loot is turned up "
                               "and before the bullet choice")
    s.done |= {"hustle"}
    if a.victim is None:
        if a.give is not None:
            raise RuleError("R23", "a Hustler who passes draws nothing and gives nothing")
        return
    v = player_named(s, a.victim, "victim")
    if v not in hustle_victims(s, p):
        raise RuleError("R23", f"{v.name} cannot be hustled: the victim must be another "
                        "living player with cards in hand")
    check_physical_field(s, a.give, "which card is given", "R23")
    if not s.physical:
        give = check_bullet(a.give, "R23")
        if give not in hustle_gives(p, v):
            raise RuleError("R23", f"{p.name} may not hold a {give} to give back")
        s.rng, r = rng.below(s.rng, v.hand_size)
        drawn = BANG if r < v.bang else CLICK
        add_to_hand(v, drawn, -1)
        add_to_hand(p, drawn, 1)
        add_to_hand(p, give, -1)
        add_to_hand(v, give, 1)
    s.events.append(Hustled(s.round, player=p.name, victim=v.name))
