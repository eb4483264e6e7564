"""One possible game behind a seat's view: its hidden parts sampled from what the seat knows.

The planner (`strong.py`) cannot see the other hands, their face-down cards, the cards
stolen in secret or the piles to come. It samples them, many times, consistent with what
its seat knows: each player's hand from the bullets they may still hold (`Memory`), each
player's loot from the shares seen going to them, every card nobody saw from what is left
of the deck, and the piles from the rest, shuffled. The seat's own hand and loot stay as
they are.
"""

from __future__ import annotations

import random
from collections import Counter

from companion.bots.view import SeatView
from companion.rules import GameState
from companion.rules.cards import BANG, CLICK, DECK_COUNTS, official_deck

DISCARD_BANG_SHARE = 3 / 8  # a face-down discard is a Bang! as often as a starting card is


def determinize(view: SeatView, rnd: random.Random) -> GameState:
    """A full game the seat cannot tell from the real one; the view is not changed."""
    assert view.state is not None  # (a planner's view: `seat_view(..., masked=True)`)
    s = view.state.copy()
    unseen = Counter(DECK_COUNTS)
    unseen.subtract(view.table)
    unseen.subtract(view.out)
    unseen.subtract(view.loot)
    wanted: list[tuple[int, int, list[str]]] = []  # (seat, cards still to find, kept cards)
    loose: Counter[str] = Counter()  # cards seen going to a player who since lost some
    for seen in view.players:
        if seen.name == view.me:
            continue
        known = list(seen.loot_seen)
        kept = rnd.sample(known, seen.loot_count) if len(known) > seen.loot_count else known
        unseen.subtract(kept)
        loose.update(known)
        loose.subtract(kept)
        wanted.append((seen.seat, seen.loot_count - len(kept), kept))
    pool = [card for card, n in sorted(unseen.items()) for _ in range(max(n, 0))]
    rnd.shuffle(pool)
    for seat, missing, kept in wanted:
        stolen = list((Counter(view.players[seat].loot_maybe) & +loose).elements())
        found = []
        for _ in range(missing):
            if stolen:  # a card its victim lost
                card = stolen.pop(rnd.randrange(len(stolen)))
                loose[card] -= 1
            else:
                card = _draw(pool, rnd)
            found.append(card)
        s.players[seat].loot = kept + found
    assert len(s.piles) == len(view.piles)
    s.piles = [tuple(_draw(pool, rnd) for _ in range(size)) for size in view.piles]
    _deal_hands(view, s, rnd)
    total = view.discards
    s.discard_bang = sum(rnd.random() < DISCARD_BANG_SHARE for _ in range(total))
    s.discard_click = total - s.discard_bang
    s.rng = rnd.getrandbits(64)
    return s


def _draw(pool: list[str], rnd: random.Random) -> str:
    """The next unseen card; a random deck card if the estimates ran out of them."""
    return pool.pop() if pool else rnd.choice(official_deck())


def _deal_hands(view: SeatView, s: GameState, rnd: random.Random) -> None:
    """Each other player's hand and face-down card, drawn from the bullets they may hold."""
    for seen in view.players:
        if seen.name == view.me or not seen.alive:
            continue
        need = seen.hand_size + seen.chosen
        b = seen.bullets
        candidates = [BANG] * max(b.bang, 0) + [CLICK] * max(b.click, 0)
        candidates += [CLICK] * (need - len(candidates))
        cards = rnd.sample(candidates, need)
        p = s.players[seen.seat]
        if seen.chosen:
            p.card = cards.pop()
        p.bang = cards.count(BANG)
        p.click = len(cards) - p.bang
