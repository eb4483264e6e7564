"""The steps before the card effects: choose, hold-up, privilege, courage, Smart, reveal
(the loot step and the Hustler are in `loot_step.py`).

Each handler checks the action against the rules and mutates the (private) state;
`can_*` and `*_options` are the same rules seen from `legal_actions`.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.rules.actions import (
    Aim,
    Choose,
    Courage,
    Privilege,
    Reveal,
    Smart,
    Swap,
)
from companion.rules.cards import BANG, BULLETS, CLICK
from companion.rules.errors import RuleError
from companion.rules.events import (
    Healed,
    LaidDown,
    Ordered,
    SmartPassed,
    SmartTookBack,
    StealthyTook,
    Swapped,
)
from companion.rules.powers import CUNNING, DOCTOR, KID, PROFESSIONAL, SMART, STEALTHY
from companion.rules.state import GameState, Player

HIDDEN = "hidden"  # a face-down card the companion cannot see (physical cards)


def require_power(p: Player, power: str, rule: str) -> None:
    if p.power != power:
        raise RuleError(rule, f"{p.name} is not the {power.replace('_', ' ').title()}")


def player_named(s: GameState, name: str | None, what: str) -> Player:
    seat = s.index.get(name) if isinstance(name, str) else None
    if seat is None:
        raise RuleError("R1", f"{what} {name!r} is not a player at this table")
    return s.players[seat]


def hand_count(p: Player, card: str) -> int:
    return p.bang if card == BANG else p.click


def add_to_hand(p: Player, card: str, n: int) -> None:
    if card == BANG:
        p.bang += n
    else:
        p.click += n


def take_from_hand(p: Player, card: str, rule: str) -> None:
    if hand_count(p, card) == 0:
        raise RuleError(rule, f"{p.name} holds no {card} card")
    add_to_hand(p, card, -1)


def check_bullet(card: str | None, rule: str) -> str:
    if card not in BULLETS:
        raise RuleError(rule, f"a bullet card is bang or click, not {card!r}")
    return card


def check_physical_field(s: GameState, value: object, field: str, rule: str) -> None:
    """In physical-cards mode the companion sees no hand: card fields must be left out."""
    if s.physical and value is not None:
        raise RuleError(rule, f"cards are physical: the companion does not see {field}")


# -- choose (R1) ---------------------------------------------------------------------------


def choices(s: GameState, p: Player) -> int:
    """The cards a player may put down now, one for each kind in hand (physical cards: the
    one unseen); none once a card is down, for the dead, or with no card in hand (R1)."""
    if not p.alive or p.card is not None:
        return 0
    return 1 if s.physical else (p.bang > 0) + (p.click > 0)


def choosers(s: GameState) -> list[Player]:
    """Who still puts a card down."""
    return [p for p in s.players if choices(s, p)]


def choose(s: GameState, p: Player, a: Choose) -> None:
    n = choices(s, p)
    if not n:
        raise RuleError("R3", f"{p.name} has already put a card down this turn"
                        if p.card else f"{p.name} has no card to put down")
    card = a.card
    if s.physical:
        check_physical_field(s, card, "the card chosen", "R3")
        card = HIDDEN
    elif card == BANG and p.bang:
        p.bang -= 1
    elif card == CLICK and p.click:
        p.click -= 1
    else:
        take_from_hand(p, check_bullet(card, "R1"), "R1")  # (which refuses it, and why)
    p.card = card
    s.to_act.remove(p.seat)


# -- hold-up (R4, R25) and the Cunning (R17) -----------------------------------------------


def aim_targets(s: GameState, p: Player) -> list[Player]:
    return [t for t in s.players if t.alive and t is not p]


def aim(s: GameState, p: Player, a: Aim) -> None:
    """An aim in the hold-up (the privilege's re-aim is `aim_ordered`)."""
    if p.aimed:
        raise RuleError("R3", f"{p.name} has already aimed this turn")
    if p.seat not in s.to_act:  # (alive, not aimed: the Kid, while others have to aim)
        raise RuleError("R25", f"{p.name} is the Kid and aims after every other living player")
    if a.target is not None:
        seat = s.index.get(a.target) if isinstance(a.target, str) else None
        t = player_named(s, a.target, "target") if seat is None else s.players[seat]
        if t is p or not t.alive:  # (`aim_targets`)
            raise RuleError("R8", f"{p.name} cannot aim at {t.name}: "
                            + ("that is oneself" if t is p else f"{t.name} is out of the game"))
        p.target = t.seat
    p.aimed = True
    s.to_act.remove(p.seat)
    if not s.to_act:
        kid_last(s)


def kid_last(s: GameState) -> None:
    """Every other living player has aimed: the Kid aims last, alone (R25)."""
    kid = s.holder(KID)
    if kid is not None and not kid.aimed:
        s.to_act.append(kid.seat)


def can_swap(s: GameState) -> bool:
    c = s.holder(CUNNING)
    return c is not None and c.card is not None and (s.physical or c.hand_size > 0)


def swap_options(s: GameState, c: Player) -> list[str | None]:
    return [None] if s.physical else [k for k in BULLETS if hand_count(c, k) > 0]


def _card_power(s: GameState, p: Player, power: str, rule: str, ready: bool, refusal: str,
                mark: str, card: str | None, what: str) -> str | None:
    """The checks a power that trades the card down makes; the card named, in digital mode."""
    require_power(p, power, rule)
    if not ready:
        raise RuleError(rule, refusal)
    s.done |= {mark}
    check_physical_field(s, card, what, rule)
    return None if s.physical else check_bullet(card, rule)


def swap(s: GameState, p: Player, a: Swap) -> None:
    card = _card_power(s, p, CUNNING, "R17", all(q.aimed for q in s.living()) and can_swap(s),
                       "the Cunning swaps only at the end of the hold-up, "
                       "after every aim, with a card down and one in hand",
                       "swap", a.card, "the card swapped in")
    if card is not None:
        take_from_hand(p, card, "R17")
        assert p.card is not None  # (can_swap: a card is down)
        add_to_hand(p, p.card, 1)
        p.card = card
    s.events.append(Swapped(s.round, player=p.name))


# -- the Godfather's privilege (R5) --------------------------------------------------------


def new_targets(s: GameState, p: Player) -> list[Player]:
    return [t for t in aim_targets(s, p) if t.seat != p.target]


def _orderable(s: GameState) -> Iterator[Player]:
    others = len(s.living_names) - 1  # (`new_targets`, counted: all but oneself and the old)
    for p in s.players:
        if (p.alive and p.seat != s.godfather
                and others - (p.target is not None and s.players[p.target].alive) > 0):
            yield p


def orderable(s: GameState) -> list[Player]:
    """Whom the Godfather may order: another living player with a new target (R5); with
    three living, each other one has one."""
    if len(s.living_names) >= 3:
        return [p for p in s.players if p.alive and p.seat != s.godfather]
    return list(_orderable(s))


def can_order(s: GameState) -> bool:
    """Someone may be ordered: with three living, each other one has a new target."""
    return len(s.living_names) >= 3 or next(_orderable(s), None) is not None


def privilege(s: GameState, p: Player, a: Privilege) -> None:
    if p.seat != s.godfather:
        raise RuleError("R5", f"only the Godfather ({s.players[s.godfather].name}) "
                        "gives the privilege order")
    if s.ordered is not None or "privilege" in s.done:
        raise RuleError("R5", "the privilege is given once, after the hold-up")
    s.done |= {"privilege"}
    if a.order is None:
        return
    o = player_named(s, a.order, "order")
    if o is p:
        raise RuleError("R5", "the Godfather orders another player, not himself")
    if not o.alive:
        raise RuleError("R8", f"{o.name} is out of the game")
    if not new_targets(s, o):
        raise RuleError("R5", f"{o.name} has no other living player to aim at")
    s.ordered = o.seat
    s.events.append(Ordered(s.round, player=p.name, order=o.name))


def aim_ordered(s: GameState, p: Player, a: Aim) -> None:
    if s.ordered != p.seat:
        who = "nobody" if s.ordered is None else s.players[s.ordered].name
        raise RuleError("R5", f"only the player the Godfather ordered ({who}) changes target now")
    if a.target is None:
        raise RuleError("R5", f"{p.name} was ordered to change target and must aim at someone")
    t = player_named(s, a.target, "target")
    if t not in new_targets(s, p):
        raise RuleError("R5", f"{p.name} must aim at another living player, "
                        "not oneself and not the old target")
    p.target = t.seat
    s.ordered = None


# -- courage (R6, R20, R29) and the Smart (R28) --------------------------------------------


def courage(s: GameState, p: Player, a: Courage) -> None:
    if not p.alive:
        raise RuleError("R8", f"{p.name} is out of the game")
    if p.down is not None:
        raise RuleError("R3", f"{p.name} has already shown courage this turn")
    if not isinstance(a.down, bool):
        raise RuleError("R6", "courage takes down: true or false")
    p.down = a.down
    s.to_act.remove(p.seat)
    if a.down:
        lay_down(s, p)


def lay_down(s: GameState, p: Player) -> None:
    """`p` lies down: the Doctor heals a wound, the Stealthy takes a $10,000 bill (R20, R29)."""
    s.events.append(LaidDown(s.round, p.name))  # (the round, the player: by position)
    if p.power == DOCTOR and p.wounds > 0:
        p.wounds -= 1
        s.events.append(Healed(s.round, player=p.name, wounds=p.wounds, by="doctor"))
    if p.power == STEALTHY and "bill10000" in s.table:
        s.table.remove("bill10000")
        p.loot.append("bill10000")
        s.events.append(StealthyTook(s.round, player=p.name, loot="bill10000"))


def can_smart(s: GameState) -> bool:
    m = s.holder(SMART)
    return (m is not None and m.card is not None and m.target is not None
            and s.players[m.target].down is True)


def smart_options(s: GameState, m: Player) -> list[str | None]:
    if s.physical:
        return [None]
    return [k for k in BULLETS if hand_count(m, k) + (m.card == k) > 0]


def smart(s: GameState, p: Player, a: Smart) -> None:
    card = _card_power(s, p, SMART, "R28",
                       all(q.down is not None for q in s.living()) and can_smart(s),
                       "the Smart acts after every courage choice, "
                       "only when the target lay down",
                       "smart", a.discard, "the card discarded")
    if a.keep and not s.physical:
        raise RuleError("R28", "with digital cards the Smart passes by discarding the card played")
    kept = a.keep or card == p.card  # (digital: the card played "discarded" is a pass)
    if card is not None:
        assert p.card is not None  # (can_smart: a card is down)
        add_to_hand(p, p.card, 1)
        take_from_hand(p, card, "R28")
        discard(s, card)
    if not a.keep:  # (kept down, it is discarded face down with the others: R4)
        p.card = None
    s.events.append((SmartPassed if kept else SmartTookBack)(s.round, player=p.name))


# -- card reveals in physical-cards mode ---------------------------------------------------


def must_reveal(s: GameState, p: Player) -> bool:
    """A card counts: its owner stood and aimed at a standing target, or is the Professional."""
    if not (s.physical and p.alive and p.card == HIDDEN and p.down is False):
        return False
    if p.target is None:
        return False
    return s.players[p.target].down is False or p.power == PROFESSIONAL


def reveal(s: GameState, p: Player, a: Reveal) -> None:
    if not must_reveal(s, p):
        raise RuleError("R7", f"{p.name} has no card to reveal now")
    p.card = check_bullet(a.card, "R7")


def discard(s: GameState, card: str) -> None:
    if card == BANG:
        s.discard_bang += 1
    elif card == CLICK:
        s.discard_click += 1
