"""A game's hidden parts, scrambled: what one seat cannot know, changed, the rest kept."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.rules import GameState
from companion.rules.cards import BANG, CLICK, LOOT_KIND, official_deck
from companion.rules.events import Event

SECRET = {"professional": "loot", "vulture": "loot", "junk": "got"}


def scramble(s: GameState, me: str, rnd: random.Random) -> GameState:
    """A copy of `s` in which every other hand, face-down card and loot, the piles, the
    split of the discard pile, the random generator and the secret fields of the story
    differ (sizes and counts kept: those the table sees)."""
    x = s.copy()
    for p in x.players:
        if p.name == me:
            continue
        if p.alive:
            size = p.hand_size
            p.bang = rnd.randint(0, size)
            p.click = size - p.bang
            if p.card is not None:
                p.card = BANG if p.card == CLICK else CLICK
        p.loot = [rnd.choice(list(LOOT_KIND)) for _ in p.loot]
    deck = official_deck()
    x.piles = [[rnd.choice(deck) for _ in pile] for pile in x.piles]
    total = x.discard_bang + x.discard_click
    x.discard_bang = rnd.randint(0, total)
    x.discard_click = total - x.discard_bang
    x.rng = rnd.getrandbits(64)
    x.events = [_scrambled_event(e, me, rnd) for e in x.events]
    return x


def _scrambled_event(e: Event, me: str, rnd: random.Random) -> Event:
    key = SECRET.get(e.type)
    if key is None or getattr(e, "player", None) == me:
        return e
    fake: Any = rnd.choice(list(LOOT_KIND))
    value = getattr(e, key)
    return replace(e, **{key: (fake,) * len(value) if isinstance(value, tuple) else fake})


def hidden_differs(a: GameState, b: GameState, me: str) -> bool:
    """The scramble changed something (a test that changes nothing proves nothing)."""
    hands = [(p.bang, p.card, p.loot) for p in a.players if p.name != me]
    other = [(p.bang, p.card, p.loot) for p in b.players if p.name != me]
    return hands != other or a.piles != b.piles

