"""What each step of the turn asks, as the functions `phases.TABLE` names (R3).

For every step: who must act now (`*ing`), who may use an optional window (a power's
holder, or None while it is closed), the legal actions of both, and the transitions to the
next step and the next round. Nothing here compares phase names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from companion.rules import effects, loot_step, split, steps
from companion.rules.actions import Action, Aim
from companion.rules.cards import BANG, BULLETS, CLICK, KINDS, LOOT_KIND, ROUNDS
from companion.rules.events import RoundBegun, Unclaimed
from companion.rules.menu import Offer, Paired, act
from companion.rules.powers import CUNNING, HUSTLER, JUNK_DEALER, KID, SMART
from companion.rules.scoring import finish
from companion.rules.state import LOOT, SPLIT, GameState, Player

# -- listing actions -----------------------------------------------------------------------


@lru_cache(maxsize=1024)
def aims(player: str, living: tuple[str, ...]) -> tuple[Aim, ...]:
    """A player's aims: too slow, or at any other living player (R4, R8)."""
    return tuple(Aim(player, target=t) for t in (None, *living) if t != player)


@lru_cache(maxsize=256)
def all_aims(living: tuple[str, ...]) -> dict[str, tuple[Aim, ...]]:
    """Every living player's `aims`, by name (a step's, looked up once)."""
    return {player: aims(player, living) for player in living}


def nothing(_s: GameState) -> list[Action]:
    return []


def nobody(_s: GameState) -> list[Player]:
    return []


def mark_done(name: str) -> Callable[[GameState], None]:
    def close(s: GameState) -> None:
        s.done |= {name}
    return close


def goto(name: str) -> Callable[[GameState], None]:
    def then(s: GameState) -> None:
        s.phase = name
    return then


# -- loot (R2) and the Hustler (R23) -------------------------------------------------------


def deal_due(s: GameState) -> bool:
    return not s.dealt


def dealer(s: GameState) -> list[Player]:
    return [s.players[s.godfather]] if deal_due(s) else []


def may_hustle(s: GameState) -> Player | None:
    h = s.holder(HUSTLER)
    if h is None or not s.dealt or "hustle" in s.done or not loot_step.hustle_victims(s, h):
        return None
    return h


def hustles(s: GameState, h: Player) -> Sequence[Action]:
    """No hustle, or a victim and the card given back (built only when drawn)."""
    victims = loot_step.hustle_victims(s, h)
    pairs: list[tuple[str | None, str | None]] = [(None, None)]
    if s.physical:
        pairs += [(v.name, None) for v in victims]
    else:
        pairs += [(v.name, g) for v in victims for g in loot_step.hustle_gives(h, v)]
    return Paired("hustle", h.name, "victim", "give", pairs)


# -- choose (R1) ---------------------------------------------------------------------------


def choosing(s: GameState) -> None:
    """The bullet choice begins: who puts a card down (`steps.choices`: with physical
    cards, every living player; else those with a card in hand)."""
    physical = s.physical
    s.to_act = [p.seat for p in s.players
                if p.alive and p.card is None and (physical or p.bang or p.click)]


def left_to_act(s: GameState) -> list[int]:
    return s.to_act


def choices_count(s: GameState) -> int:
    """The choosers' choices: one for each kind of card in hand (physical cards: one)."""
    if s.physical:
        return len(s.to_act)
    n, players = 0, s.players
    for seat in s.to_act:  # (`steps.choices` of each, written out)
        p = players[seat]
        n += (p.bang > 0) + (p.click > 0)
    return n


def nth_choice(s: GameState, i: int) -> Action:
    """Each chooser's cards in hand, bang before click (physical cards: one unseen card)."""
    players = s.players
    if s.physical:
        return act("choose", players[s.to_act[i]].name, "card", None)
    for seat in s.to_act:
        p = players[seat]
        if p.bang and p.click:
            if i < 2:
                return act("choose", p.name, "card", CLICK if i else BANG)
            i -= 2
        elif i:
            i -= 1
        else:
            return act("choose", p.name, "card", BANG if p.bang else CLICK)
    raise IndexError(i)


def choices_listed(s: GameState) -> list[Action]:
    """`nth_choice` of every index, built in one pass."""
    players = s.players
    if s.physical:
        return [act("choose", players[seat].name, "card", None) for seat in s.to_act]
    out = []
    for seat in s.to_act:
        p = players[seat]
        if p.bang:
            out.append(act("choose", p.name, "card", BANG))
        if p.click:
            out.append(act("choose", p.name, "card", CLICK))
    return out


# -- hold-up (R4, R25) and the Cunning (R17) -----------------------------------------------


def aiming_starts(s: GameState) -> None:
    """The hold-up begins: every living player aims, the Kid after all the others (R25);
    each has an aim at every other living player, and one too slow."""
    s.to_act = [p.seat for p in s.players if p.alive and p.power != KID]
    kid = s.holder(KID)
    if kid is not None and not s.to_act:
        s.to_act = [kid.seat]


def aims_count(s: GameState) -> int:
    return len(s.to_act) * len(s.living_names)


def aiming(s: GameState) -> list[Player]:
    """Who may aim now: everyone who has not, the Kid only once alone (R25)."""
    left = [p for p in s.players if p.alive and not p.aimed]
    if len(left) > 1 and KID in s.powers:
        return [p for p in left if p.power != KID]
    return left


def nth_aim(s: GameState, i: int) -> Action:
    """Each aimer's aims, in seating order: too slow, then every other living player."""
    j, t = divmod(i, len(s.living_names))
    return aims(s.players[s.to_act[j]].name, s.living_names)[t]


def aims_listed(s: GameState) -> list[Action]:
    players, living = s.players, s.living_names
    return [a for seat in s.to_act for a in aims(players[seat].name, living)]


def _once_all_have(s: GameState, mark: str, can: Callable[[GameState], bool], power: str,
                   ) -> Player | None:
    """The holder of `power`, once every living player has acted, if it may still act."""
    if s.to_act or mark in s.done or not can(s):
        return None
    return s.holder(power)


def may_swap(s: GameState) -> Player | None:
    return _once_all_have(s, "swap", steps.can_swap, CUNNING)


def swaps(s: GameState, c: Player) -> list[Action]:
    return [act("swap", c.name, "card", k) for k in steps.swap_options(s, c)]


# -- the Godfather's privilege (R5) --------------------------------------------------------


def ordered(s: GameState) -> bool:
    return s.ordered is not None


def reaiming(s: GameState) -> list[Player]:
    return [] if s.ordered is None else [s.players[s.ordered]]


def reaims(s: GameState) -> list[Action]:
    return [act("aim", p.name, "target", t.name)
            for p in reaiming(s) for t in steps.new_targets(s, p)]


def may_order(s: GameState) -> Player | None:
    if s.ordered is not None or "privilege" in s.done or not steps.can_order(s):
        return None
    return s.players[s.godfather]


def orders(s: GameState, g: Player) -> Sequence[Action]:
    """No order, or an order to each orderable player (built only when drawn)."""
    return Offer("privilege", g.name, "order", [None, *(o.name for o in steps.orderable(s))])


# -- courage (R6) and the Smart (R28) ------------------------------------------------------


def deciding_starts(s: GameState) -> None:
    """The courage step begins: every living player stands or lies down."""
    s.to_act = [p.seat for p in s.players if p.alive]


def courage_count(s: GameState) -> int:
    return 2 * len(s.to_act)


def deciding(s: GameState) -> list[Player]:
    return [p for p in s.players if p.alive and p.down is None]


def nth_courage(s: GameState, i: int) -> Action:
    """Each undecided player stands or lies down, in seating order."""
    return act("courage", s.players[s.to_act[i >> 1]].name, "down", bool(i & 1))


def courage_listed(s: GameState) -> list[Action]:
    players = s.players
    return [act("courage", players[seat].name, "down", down)
            for seat in s.to_act for down in (False, True)]


def may_smart(s: GameState) -> Player | None:
    return _once_all_have(s, "smart", steps.can_smart, SMART)


def smarts(s: GameState, m: Player) -> list[Action]:
    """Digital cards: a discard for each kind held (the card played: a pass); physical
    ones: take the card back, or keep it down (the table cannot see which is discarded)."""
    back = [act("smart", m.name, "discard", k) for k in steps.smart_options(s, m)]
    return [*back, act("smart", m.name, "keep", True)] if s.physical else back


# -- card reveals (physical cards, R7), then the card effects ------------------------------


def revealing(s: GameState) -> list[Player]:
    return [p for p in s.players if steps.must_reveal(s, p)] if s.physical else []


def reveals(s: GameState) -> list[Action]:
    return [act("reveal", p.name, "card", c) for p in revealing(s) for c in BULLETS]


def resolve_cards(s: GameState) -> None:
    if effects.resolve(s):
        s.phase = SPLIT  # (which starts with `split.start`)


# -- the split (R10 to R14), the Dictator (R19), the Junk Dealer (R24) ---------------------


def taker(s: GameState) -> Player | None:
    """Whose turn it is, while the split goes on (after the Junk Dealer's window)."""
    if s.turn is None or s.junk_card is not None or not (s.table or s.token):  # (`split.over`)
        return None
    return s.players[s.turn]


def taking(s: GameState) -> list[Player]:
    p = taker(s)
    return [] if p is None else [p]


def takes(s: GameState) -> Sequence[Action]:
    p = taker(s)
    return () if p is None else Offer("take", p.name, "loot", split.take_options(s, p))


def forbids(s: GameState, d: Player) -> list[Action]:
    assert s.turn is not None  # (may_forbid: someone's turn)
    t = s.players[s.turn].name
    return [act("forbid", d.name, "target", t, "kind", k) for k in KINDS]


def may_junk(s: GameState) -> Player | None:
    return None if s.junk_card is None else s.players[s.powers[JUNK_DEALER]]


def junks(s: GameState, jd: Player) -> list[Action]:
    if s.physical_loot:
        return [act("junk", jd.name, "got", c) for c in LOOT_KIND]
    return [act("junk", jd.name, "pile", None)] + [
        act("junk", jd.name, "pile", r) for r in split.later_piles(s)]


def drop_junk(s: GameState) -> None:
    s.junk_card = None


# -- rounds (R2, R11, R12) -----------------------------------------------------------------


def begin_round(s: GameState) -> None:
    """Turn up the next pile and reset the turn; the caller settles."""
    s.round += 1
    if s.piles:
        s.table += s.piles.pop(0)
    s.token = True
    Player.reset_turns(s.players)
    s.done = s.used = frozenset()
    s.ordered = s.turn = s.forbidden = s.junk_card = s.new_godfather = None
    s.phase = LOOT
    s.count_the_living()
    s.events.append(RoundBegun(s.round, godfather=s.players[s.godfather].name,
                                loot=tuple(s.table)))
    if len(s.living_names) <= 1:  # R9, for a game begun from such a position
        finish(s)


def end_round(s: GameState) -> None:
    """After the split: the leftovers, then the next round or the end (R11, R12)."""
    if s.table:  # R11
        last = s.round == ROUNDS
        carried = s.variant["unclaimed_loot"] == "carry_over" and not last
        s.events.append(Unclaimed(s.round, loot=tuple(s.table), carried=carried))
        if not carried:
            s.out += s.table
            s.table = []
    if s.round == ROUNDS:  # R12: no next round, the desk stays where it was
        finish(s)
        return
    if s.new_godfather is not None:  # R12
        s.godfather = s.new_godfather
    elif not s.players[s.godfather].alive:
        s.godfather = next(p.seat for p in s.clockwise_from(s.godfather) if p.alive)
    begin_round(s)
