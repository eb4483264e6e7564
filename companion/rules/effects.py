"""Card effects, all at once (R4, R6, R7, R8, R26, R27, R31), then the end check (R9)."""

from __future__ import annotations

from companion.rules import rng
from companion.rules.cards import BANG, CLICK
from companion.rules.events import (
    Eliminated,
    Lucky,
    ProfessionalStole,
    Revealed,
    TooSlow,
    VultureTook,
    Wounded,
)
from companion.rules.powers import PROFESSIONAL, VULTURE, wound_limit
from companion.rules.scoring import finish
from companion.rules.state import GameState, Player


def take_random_loot(s: GameState, victim: Player, taker: Player, n: int) -> list[str]:
    taken = []
    for _ in range(min(n, len(victim.loot))):
        s.rng, i = rng.below(s.rng, len(victim.loot))
        card = victim.loot.pop(i)
        taker.loot.append(card)
        taken.append(card)
    return taken


def resolve(s: GameState) -> bool:
    """Resolve every card; False if that ended the game (R9)."""
    hits: list[Player] = []
    for p in s.living():
        card, p.card = p.card, None
        if card is None:
            continue
        if card == BANG:  # (`discard`: every card, shot or not)
            s.discard_bang += 1
        elif card == CLICK:
            s.discard_click += 1
        if p.down or p.target is None:  # R6 lay down, R4 too slow: discarded face down
            if not p.down:
                s.events.append(TooSlow(s.round, player=p.name))
            continue
        t = s.players[p.target]
        if t.down:  # R6: you don't shoot cowards
            if p.power == PROFESSIONAL and card == BANG:  # R27
                stolen = take_random_loot(s, t, p, 1)
                s.events.append(ProfessionalStole(s.round, player=p.name, target=t.name,
                                                    loot=tuple(stolen)))
            continue
        s.events.append(Revealed(s.round, player=p.name, card=card, target=t.name))
        if card == BANG:
            if not t.hits:
                hits.append(t)
            t.hits += (p.seat,)
    dead = []
    for t in hits:
        by = tuple([s.players[seat].name for seat in t.hits])
        if not t.hits_wound:  # R26
            s.events.append(Lucky(s.round, player=t.name, by=by))
            continue
        t.wounds += len(t.hits)
        s.events.append(Wounded(s.round, player=t.name, by=by, wounds=t.wounds))
        if t.wounds >= wound_limit(t.power):  # R8, R30
            dead.append(t)
    for t in dead:
        t.alive = False
        t.bang = t.click = 0  # the hand leaves the game
        s.events.append(Eliminated(s.round, player=t.name))
    if dead:
        s.count_the_living()
    vulture = s.holder(VULTURE)  # R31: only a living Vulture
    if vulture is not None:
        for t in dead:
            taken = take_random_loot(s, t, vulture, 2)
            if taken:
                s.events.append(VultureTook(s.round, player=vulture.name, prey=t.name,
                                              loot=tuple(taken)))
    if len(s.living_names) <= 1:  # R9
        finish(s)
        return False
    return True
