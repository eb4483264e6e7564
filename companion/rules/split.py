"""The split (R10 to R14, R18, R19, R21, R22, R24): shares one at a time, clockwise."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from companion.rules import rng
from companion.rules.actions import Forbid, Junk, Take
from companion.rules.cards import JUNKABLE, KINDS, LOOT_KIND, ROUNDS, TOKEN, kind_of
from companion.rules.errors import RuleError
from companion.rules.events import (
    Clipped,
    CuteTook,
    FirstAid,
    Forbade,
    GoodFriend,
    JunkSwapped,
    Passed,
    Took,
)
from companion.rules.powers import CUTE, DICTATOR, GOOD_FRIEND, GREEDY, JUNK_DEALER
from companion.rules.state import GameState, Player
from companion.rules.steps import player_named, require_power


def start(s: GameState) -> None:
    """The split begins: who is in it, the Cute's bill, the first turn."""
    for p in s.players:  # (`Player.standing`, written out: most took no hit)
        p.in_split = p.alive and p.down is False and not (p.hits and p.hits_wound)
    cute = s.holder(CUTE)
    if cute is not None and cute.in_split and "bill5000" in s.table:  # R18
        s.table.remove("bill5000")
        cute.loot.append("bill5000")
        s.events.append(CuteTook(s.round, player=cute.name, loot="bill5000"))
    s.turn = next_in_split(s, s.godfather)


def next_in_split(s: GameState, seat: int) -> int | None:
    """The first player still in the split, clockwise from `seat` included (one past the
    last seat: the first)."""
    players = s.players
    for p in players[seat:]:
        if p.in_split:
            return p.seat
    for p in players[:seat]:
        if p.in_split:
            return p.seat
    return None


def over(s: GameState) -> bool:
    return s.turn is None or not (s.table or s.token)


def shares(s: GameState) -> list[str]:
    return [*s.table, TOKEN] if s.token else s.table[:]


def greedy_may_double(p: Player) -> bool:
    return p.power == GREEDY and not p.greedy_used


Options = tuple[str | tuple[str, str] | None, ...]


def take_options(s: GameState, p: Player) -> Options:
    """What `p` may take now, sorted: one share each (a card or the token), then the
    Greedy's pairs; (None,) when nothing may be taken (R10, R19, R22)."""
    if p.power == GREEDY and not p.greedy_used:  # (pairs of the same card count)
        return options(tuple(sorted(s.table)), s.token, s.forbidden, True)
    return options(frozenset(s.table), s.token, s.forbidden, False)


@lru_cache(maxsize=2048)  # about 1 KiB each: a long evening keeps 2 MiB at most
def options(table: frozenset[str] | tuple[str, ...], token: bool, forbidden: str | None,
            double: bool) -> Options:
    """`take_options` for a table (the same few, worked out once)."""
    shares = [*table, TOKEN] if token else list(table)
    allowed = sorted(x for x in shares if kind_of(x) != forbidden)
    if not allowed:
        return (None,)
    singles: Options = tuple(sorted(set(allowed)))
    return (*singles, *sorted(set(combinations(allowed, 2)))) if double else singles


def take(s: GameState, p: Player, a: Take) -> None:
    if s.turn != p.seat:
        who = s.players[s.turn].name if s.turn is not None else "nobody"
        raise RuleError("R10", f"it is {who}'s turn to take a share, not {p.name}'s")
    loot = a.loot
    picks: tuple[str, ...]
    if isinstance(loot, str):  # (most takes: `check_on_table`, for one share)
        picks = (loot,)
        if not (s.token if loot == TOKEN else loot in s.table):
            raise RuleError("R10", f"{loot} is not on the table")
        if s.forbidden is not None and kind_of(loot) == s.forbidden:
            raise RuleError("R19", f"the Dictator forbade {s.forbidden} for this take")
    else:
        picks = loot or ()
        if len(picks) == 2 and not greedy_may_double(p):
            raise RuleError("R22", f"{p.name} may not take two shares at once: only the "
                            "Greedy, on her first turn of the split")
        if isinstance(loot, tuple) and len(picks) != 2:
            raise RuleError("R10", "a share is one card or the New Godfather token; "
                                   "a list is only for the Greedy's two shares")
        if picks:
            check_on_table(s, picks)
        elif take_options(s, p)[0] is not None:
            raise RuleError("R19", f"{p.name} must take a share: taking nothing is allowed "
                            "only when nothing on the table may be taken")
    took(s, p, picks)


def took(s: GameState, p: Player, picks: tuple[str, ...]) -> None:
    """`p` takes `picks` (checked: one share, the Greedy's two, or nothing), each the
    token or a card off the table, and the turn passes on."""
    power = p.power
    if power == GREEDY:
        p.greedy_used = True
        if len(picks) == 2:
            p.in_split = False
    s.forbidden = None
    if not picks:
        s.events.append(Passed(s.round, player=p.name))
    for x in picks:  # (the round, the player, the loot: by position, built faster)
        s.events.append(Took(s.round, p.name, x))
        if x == TOKEN:
            s.token = False
            s.new_godfather = p.seat
            continue
        s.table.remove(x)
        if x in USED_AT_ONCE:
            gain(s, p, x)
        else:  # (most cards: kept)
            p.loot.append(x)
    if (power == JUNK_DEALER and len(picks) == 1 and picks[0] != TOKEN
            and LOOT_KIND[picks[0]] in JUNKABLE and "junk_dealer" not in s.used
            and later_piles(s) and p.loot and p.loot[-1] == picks[0]):
        s.junk_card = len(p.loot) - 1
    s.turn = next_in_split(s, p.seat + 1)


def check_on_table(s: GameState, picks: tuple[str, ...]) -> None:
    """Every share picked lies on the table, and is not of the kind the Dictator forbade."""
    left = shares(s)
    for x in picks:
        if x not in left:
            raise RuleError("R10", f"{x} is not on the table")
        if kind_of(x) == s.forbidden:
            raise RuleError("R19", f"the Dictator forbade {s.forbidden} for this take")
        left.remove(x)


USED_AT_ONCE = frozenset(("clip", "first_aid"))


def gain(s: GameState, p: Player, x: str) -> None:
    """A card reaches a player: kept, or a Clip or first aid kit used at once (R13, R14)."""
    if x == "clip":
        clip(s, p)
    elif x == "first_aid":
        s.out.append(x)
        s.events.append(FirstAid(s.round, player=p.name, healed=p.wounds))
        p.wounds = 0
    else:
        p.loot.append(x)


def clip(s: GameState, p: Player) -> None:
    """R14 and R21: a Bang! back from the discard, and the Good Friend's one too."""
    s.out.append("clip")
    if s.physical:  # hands are not tracked: the table does it with the real cards
        return
    if s.discard_bang == 0 or p.click == 0:
        s.events.append(Clipped(s.round, player=p.name, reloaded=False))
        return
    p.click -= 1
    s.discard_click += 1
    p.bang += 1
    s.discard_bang -= 1
    s.events.append(Clipped(s.round, player=p.name, reloaded=True))
    friend = s.holder(GOOD_FRIEND)
    if friend is not None and friend is not p and s.discard_bang > 0:
        friend.bang += 1
        s.discard_bang -= 1
        s.events.append(GoodFriend(s.round, player=friend.name))


# -- the Dictator (R19) --------------------------------------------------------------------


def may_forbid(s: GameState) -> Player | None:
    seat = s.powers.get(DICTATOR)
    if seat is None:
        return None
    d = s.players[seat]
    if (not d.alive or "dictator" in s.used or s.turn is None or s.turn == d.seat
            or s.junk_card is not None or not d.standing):
        return None
    return d


def forbid(s: GameState, p: Player, a: Forbid) -> None:
    require_power(p, DICTATOR, "R19")
    if may_forbid(s) is not p:
        raise RuleError("R19", "the Dictator forbids once a round, while standing at the split, "
                        "on another player's turn before the take")
    t = player_named(s, a.target, "target")
    assert s.turn is not None  # (may_forbid: someone's turn)
    if t.seat != s.turn:
        raise RuleError("R19", f"it is {s.players[s.turn].name}'s turn, not {t.name}'s")
    if a.kind not in KINDS:
        raise RuleError("R19", f"{a.kind!r} is not a kind of loot ({', '.join(KINDS)})")
    s.forbidden = a.kind
    s.used |= {"dictator"}
    s.events.append(Forbade(s.round, player=p.name, target=t.name, kind=a.kind))


# -- the Junk Dealer (R24) -----------------------------------------------------------------


def later_piles(s: GameState) -> list[int]:
    """Rounds of the later piles that still hold a card (physical piles: all later rounds)."""
    if s.physical_loot:
        return list(range(s.round + 1, ROUNDS + 1))
    return [s.round + 1 + i for i, pile in enumerate(s.piles) if pile]


def junk(s: GameState, p: Player, a: Junk) -> None:
    require_power(p, JUNK_DEALER, "R24")
    if s.junk_card is None:
        raise RuleError("R24", "the Junk Dealer swaps once a round, right after taking "
                        "a bill, diamond or painting, while a later pile is left")
    if s.physical_loot:
        return junk_physical(s, p, a)
    if a.got is not None:
        raise RuleError("R24", "the companion draws from its own piles: name no card")
    rounds = later_piles(s)
    if a.pile is None:
        s.rng, i = rng.below(s.rng, len(rounds))
        pile_round = rounds[i]
    elif a.pile in rounds:
        pile_round = a.pile
    else:
        raise RuleError("R24", f"there is no later pile for round {a.pile} to draw from")
    at = pile_round - s.round - 1
    pile = list(s.piles[at])
    s.rng, j = rng.below(s.rng, len(pile))
    given = p.loot.pop(s.junk_card)
    got, pile[j] = pile[j], given
    s.piles[at] = tuple(pile)  # (a pile is never changed in place: copies share it)
    s.junk_card = None
    s.used |= {"junk_dealer"}
    s.events.append(JunkSwapped(s.round, player=p.name, gave=given, got=got,
                                 pile=pile_round))
    gain(s, p, got)



def junk_physical(s: GameState, p: Player, a: Junk) -> None:
    """With real piles the table draws; the Junk Dealer declares the card it got."""
    if a.pile is not None:
        raise RuleError("R24", "the piles are on the table: name the card drawn, not the pile")
    if a.got not in LOOT_KIND:
        raise RuleError("R24", f"name the card drawn from the later pile, not {a.got!r}")
    assert s.junk_card is not None  # (junk checked it)
    given = p.loot.pop(s.junk_card)
    s.junk_card = None
    s.used |= {"junk_dealer"}
    s.events.append(JunkSwapped(s.round, player=p.name, gave=given, got=a.got, pile=None))
    gain(s, p, a.got)
