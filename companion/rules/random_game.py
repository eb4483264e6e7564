"""A whole game between random players, played lean: the balance lab's random bots.

Who uses it: `bots/lab.py`, for a table of random bots only with digital cards and loot.
Every other game, and every other caller, plays through `engine.apply` and the arena
(`bots/arena.py`), whose handlers are the rules as written: read those first. This is the
same game on the same plain mutable state (`GameState`), without what the lab does not
read: no events but the rounds begun and the end, no actions, no phase table to settle
through. What the lab reads of the story, `Tally` counts as it goes.

Each decision is drawn as the arena draws it for a random bot (`fastplay.by_seat`,
`Arena.window_actions`, `RandomBot.decide`): with the deciding seat's generator, as
`randrange` draws, only among two options or more; the random effects (the shuffle, the
Hustler, the Professional, the Vulture, the Junk Dealer) draw from the state's own
generator (`rng.py`) in the engine's order. So a game is the one the engine plays.

How it is checked: `tests/rules/test_random_game.py` plays thousands of seeds at every
table size, with and without powers, both ways (this, and the arena on the engine's path),
and compares the final states, every generator's state, the tally against the engine's
events, and the lab's records; with physical cards or other styles at the table, the lab
plays through the arena, which the same tests check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.rules import powers, rng
from companion.rules.cards import (
    BANG,
    BULLETS,
    CLICK,
    JUNKABLE,
    KINDS,
    LOOT_KIND,
    PILE_SIZE,
    ROUNDS,
    TOKEN,
    official_deck,
)
from companion.rules.effects import take_random_loot
from companion.rules.fastplay import below
from companion.rules.scoring import finish
from companion.rules.setup import DEFAULT_VARIANT, Setup
from companion.rules.split import later_piles, may_forbid, next_in_split, take_options
from companion.rules.state import LOOT, SPLIT, GameState, Player
from companion.rules.turn import begin_round

if TYPE_CHECKING:
    from random import Random


@dataclass
class Tally:
    """What the lab reads of a game's story, counted as it is played."""

    actions: int = 0  # every action played (a window passed by waiting is none)
    godfather: dict[str, int] = field(default_factory=dict)  # rounds begun as the Godfather
    tokens: dict[str, int] = field(default_factory=dict)  # New Godfather tokens taken
    died: dict[str, int] = field(default_factory=dict)  # the round each player died in


def plays(setup: Setup) -> bool:
    """Whether `play` plays this game: digital cards and loot, from the first round."""
    return (setup.cards == "digital" and setup.loot_mode == "digital" and setup.loot is None
            and setup.start_round == 1 and setup.start_godfather is None
            and not setup.start_players and setup.start_discard == (0, 0))


def play(setup: Setup, rnds: list[Random]) -> tuple[GameState, Tally]:
    """The whole game, each seat drawing with its own generator (`rnds`, by seat); the
    final state (its events only the rounds begun and the end) and the tally."""
    assert plays(setup)
    s, t = start(setup), Tally()
    while True:
        begin_round(s)  # (its story, `RoundBegun`, is the one event of a round kept)
        name = s.players[s.godfather].name
        t.godfather[name] = t.godfather.get(name, 0) + 1
        if s.over:
            return s, t
        hustle(s, rnds, t)
        choose(s, rnds, t)
        hold_up(s, rnds, t)
        privilege(s, rnds, t)
        courage(s, rnds, t)
        if not resolve(s, t):
            break
        split(s, rnds, t)
        if s.round == ROUNDS:
            break
        next_godfather(s)
    finish(s)
    return s, t


def start(setup: Setup) -> GameState:
    """`setup.new_game`'s state before the first round begins."""
    s = GameState.__new__(GameState)
    s.index = {name: i for i, name in enumerate(setup.players)}
    s.powers = {power: s.index[name] for name, power in setup.powers.items()}
    s.players = [Player(name, i, setup.powers.get(name)) for i, name in enumerate(setup.players)]
    s.cards = s.loot_mode = "digital"
    s.physical = s.physical_loot = False
    s.variant = {**DEFAULT_VARIANT, **setup.variant}
    deck = official_deck()
    s.rng = rng.shuffle(rng.seed_state(setup.seed), deck)
    s.piles = [tuple(deck[i * PILE_SIZE:(i + 1) * PILE_SIZE]) for i in range(ROUNDS)]
    s.discard_bang = s.discard_click = 0
    s.godfather, s.round = 0, 0
    s.table, s.token, s.out, s.winners, s.events = [], False, [], [], []
    s.phase, s.done, s.used = LOOT, frozenset(), frozenset()
    s.ordered = s.turn = s.forbidden = s.junk_card = s.new_godfather = None
    s.to_act, s.rests_at = [], None
    return s


def hustle(s: GameState, rnds: list[Random], t: Tally) -> None:
    """The Hustler draws no hustle, or a victim and a card he holds to give back (R23:
    `turn.hustles` as `view.my_options` leaves them to him)."""
    h = s.holder(powers.HUSTLER)
    if h is None:
        return
    victims = [v for v in s.players if v.alive and v is not h and (v.bang or v.click)]
    if not victims:
        return
    gives = [g for g, n in ((BANG, h.bang), (CLICK, h.click)) if n]
    n = 1 + len(victims) * len(gives)
    i = below(rnds[h.seat], n) - 1 if n > 1 else -1
    s.done = frozenset(("hustle",))
    t.actions += 1
    if i < 0:
        return
    v, give = victims[i // len(gives)], gives[i % len(gives)]
    s.rng, r = rng.below(s.rng, v.bang + v.click)
    drawn = BANG if r < v.bang else CLICK
    for p, card, n in ((v, drawn, -1), (h, drawn, 1), (h, give, -1), (v, give, 1)):
        if card == BANG:
            p.bang += n
        else:
            p.click += n


def choose(s: GameState, rnds: list[Random], t: Tally) -> None:
    """Each living player with a card puts one down, bang or click (R1)."""
    for p in s.players:
        if p.alive and (p.bang or p.click):
            if p.bang and p.click:
                p.card = CLICK if below(rnds[p.seat], 2) else BANG
            else:
                p.card = BANG if p.bang else CLICK
            if p.card == BANG:
                p.bang -= 1
            else:
                p.click -= 1
            t.actions += 1


def hold_up(s: GameState, rnds: list[Random], t: Tally) -> None:
    """Each living player aims, too slow or at another, the Kid last (R4, R25); then the
    Cunning may swap the card down (R17)."""
    living = [p for p in s.players if p.alive]
    kid = s.holder(powers.KID)
    for p in [q for q in living if q is not kid] + ([kid] if kid is not None else []):
        i = below(rnds[p.seat], len(living))
        if i:
            p.target = [q for q in living if q is not p][i - 1].seat
        p.aimed = True
        t.actions += 1
    c = s.holder(powers.CUNNING)
    if c is None or c.card is None or not (c.bang or c.click):
        return
    cards = [k for k, n in ((BANG, c.bang), (CLICK, c.click)) if n]
    i = below(rnds[c.seat], len(cards) + 1)
    s.done |= {"swap"}
    if i < len(cards):  # (else passed)
        _hand(c, cards[i], -1)
        _hand(c, c.card, 1)
        c.card = cards[i]
        t.actions += 1


def _hand(p: Player, card: str, n: int) -> None:
    if card == BANG:
        p.bang += n
    else:
        p.click += n


def privilege(s: GameState, rnds: list[Random], t: Tally) -> None:
    """The Godfather orders nobody or another player, who aims again at a new target (R5)."""
    g = s.players[s.godfather]
    living = [p for p in s.players if p.alive]
    others = len(living) - 1
    orderable = [p for p in living if p is not g and (
        others >= 2 or others - (p.target is not None and s.players[p.target].alive) > 0)]
    if not orderable:
        return
    n = 1 + len(orderable)
    i = below(rnds[g.seat], n) if n > 1 else 0
    s.done |= {"privilege"}
    t.actions += 1
    if not i:
        return
    o = orderable[i - 1]
    targets = [q for q in living if q is not o and q.seat != o.target]
    o.target = targets[below(rnds[o.seat], len(targets)) if len(targets) > 1 else 0].seat
    t.actions += 1


def courage(s: GameState, rnds: list[Random], t: Tally) -> None:
    """Each living player stands or lies down (R6): the Doctor heals, the Stealthy takes a
    $10,000 bill (R20, R29); then the Smart may take the card back (R28)."""
    for p in s.players:
        if p.alive:
            p.down = down = below(rnds[p.seat], 2) == 1
            t.actions += 1
            if down:
                if p.power == powers.DOCTOR and p.wounds > 0:
                    p.wounds -= 1
                if p.power == powers.STEALTHY and "bill10000" in s.table:
                    s.table.remove("bill10000")
                    p.loot.append("bill10000")
    m = s.holder(powers.SMART)
    if m is None or m.card is None or m.target is None or s.players[m.target].down is not True:
        return
    cards = [k for k in BULLETS if (m.bang if k == BANG else m.click) + (m.card == k) > 0]
    i = below(rnds[m.seat], len(cards) + 1)
    s.done |= {"smart"}
    if i < len(cards):  # (else passed)
        _hand(m, m.card, 1)
        _hand(m, cards[i], -1)
        if cards[i] == BANG:
            s.discard_bang += 1
        else:
            s.discard_click += 1
        m.card = None
        t.actions += 1


def resolve(s: GameState, t: Tally) -> bool:
    """`effects.resolve`: every card's effect at once; False once one is left standing."""
    hits: list[Player] = []
    players = s.players
    for p in players:
        if not p.alive:
            continue
        card, p.card = p.card, None
        if card is None:
            continue
        if card == BANG:
            s.discard_bang += 1
        else:
            s.discard_click += 1
        if p.down or p.target is None:
            continue
        target = players[p.target]
        if target.down:
            if p.power == powers.PROFESSIONAL and card == BANG:
                take_random_loot(s, target, p, 1)
            continue
        if card == BANG:
            if not target.hits:
                hits.append(target)
            target.hits += (p.seat,)
    dead = []
    for p in hits:
        if p.hits_wound:
            p.wounds += len(p.hits)
            if p.wounds >= powers.wound_limit(p.power):
                dead.append(p)
    for p in dead:
        p.alive = False
        p.bang = p.click = 0
        t.died[p.name] = s.round
    if dead:
        s.count_the_living()
    vulture = s.holder(powers.VULTURE)
    if vulture is not None:
        for p in dead:
            take_random_loot(s, p, vulture, 2)
    return len(s.living_names) > 1


def split(s: GameState, rnds: list[Random], t: Tally) -> None:
    """The split: who is in it, the Cute's bill, then shares clockwise while some are left,
    the Dictator forbidding a kind or not first, the Junk Dealer swapping after (R10 to
    R24); then the leftovers (R11)."""
    s.phase = SPLIT
    for p in s.players:
        p.in_split = p.alive and p.down is False and not p.hits_wound
    cute = s.holder(powers.CUTE)
    if cute is not None and cute.in_split and "bill5000" in s.table:
        s.table.remove("bill5000")
        cute.loot.append("bill5000")
    s.turn = next_in_split(s, s.godfather)
    dictated = powers.DICTATOR in s.powers
    while s.turn is not None and (s.table or s.token):
        p = s.players[s.turn]
        dictator = may_forbid(s) if dictated else None
        if dictator is not None:
            k = below(rnds[dictator.seat], len(KINDS) + 1)
            if k < len(KINDS):
                s.forbidden = KINDS[k]
                s.used |= {"dictator"}
                t.actions += 1
        options = take_options(s, p)
        share = options[below(rnds[p.seat], len(options)) if len(options) > 1 else 0]
        took(s, p, (share,) if isinstance(share, str) else share or (), t)
        t.actions += 1
        if s.junk_card is not None:
            junk(s, p, rnds[p.seat], t)
    if s.table and (s.round == ROUNDS or s.variant["unclaimed_loot"] != "carry_over"):
        s.out += s.table
        s.table = []


def took(s: GameState, p: Player, picks: tuple[str, ...], t: Tally) -> None:
    """`split.took`: `p` takes `picks` (one share, the Greedy's two, or nothing)."""
    if p.power == powers.GREEDY:
        p.greedy_used = True
        if len(picks) == 2:
            p.in_split = False
    s.forbidden = None
    for x in picks:
        if x == TOKEN:
            s.token = False
            s.new_godfather = p.seat
            t.tokens[p.name] = t.tokens.get(p.name, 0) + 1
            continue
        s.table.remove(x)
        gain(s, p, x)
    if (p.power == powers.JUNK_DEALER and len(picks) == 1 and picks[0] != TOKEN
            and LOOT_KIND[picks[0]] in JUNKABLE and "junk_dealer" not in s.used
            and later_piles(s) and p.loot and p.loot[-1] == picks[0]):
        s.junk_card = len(p.loot) - 1
    s.turn = next_in_split(s, p.seat + 1)


def gain(s: GameState, p: Player, x: str) -> None:
    """`split.gain`: a card kept, or a Clip or first aid kit used at once (R13, R14, R21)."""
    if x == "first_aid":
        s.out.append(x)
        p.wounds = 0
    elif x != "clip":
        p.loot.append(x)
    else:
        s.out.append(x)
        if s.discard_bang == 0 or p.click == 0:
            return
        p.click -= 1
        s.discard_click += 1
        p.bang += 1
        s.discard_bang -= 1
        friend = s.holder(powers.GOOD_FRIEND)
        if friend is not None and friend is not p and s.discard_bang > 0:
            friend.bang += 1
            s.discard_bang -= 1


def junk(s: GameState, p: Player, rnd: Random, t: Tally) -> None:
    """The Junk Dealer passes, or swaps the card just taken with one of a later pile, drawn
    at random or from the pile he names (R24: `split.junk`)."""
    assert s.junk_card is not None
    rounds = later_piles(s)
    i = below(rnd, len(rounds) + 2)
    if i > len(rounds):  # (passed)
        s.junk_card = None
        return
    if i == 0:
        s.rng, i = rng.below(s.rng, len(rounds))
        pile_round = rounds[i]
    else:
        pile_round = rounds[i - 1]
    at = pile_round - s.round - 1
    pile = list(s.piles[at])
    s.rng, j = rng.below(s.rng, len(pile))
    given = p.loot.pop(s.junk_card)
    got, pile[j] = pile[j], given
    s.piles[at] = tuple(pile)
    s.junk_card = None
    s.used |= {"junk_dealer"}
    t.actions += 1
    gain(s, p, got)


def next_godfather(s: GameState) -> None:
    """Who holds the desk next round: the token's taker, else the Godfather, else the next
    living player clockwise (R12)."""
    if s.new_godfather is not None:
        s.godfather = s.new_godfather
    elif not s.players[s.godfather].alive:
        s.godfather = next(p.seat for p in s.clockwise_from(s.godfather) if p.alive)


