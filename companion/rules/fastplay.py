"""The fast path of a random player: actions drawn and applied at once, at the steps most
of a random game is played in (the bullet choice, the hold-up, courage, the split's takes).

Who uses it: `legal.play_random` (and `play_legal`), the loop of the random bot
(`bots/random_bot.py`) that `bench/engine.py` times; and, through `by_seat` (each player
drawing with their own generator), random bots in the arena (`bots/arena.py`; the lab's
tables of random bots play the lean game of `random_game.py`, checked against it). The
referee, the scenario replay and every other bot apply actions through `engine.apply`,
whose handlers (`steps.py`, `split.py`) are the rules as written; read those first.

What it does: each function draws the index `rnd.choice` would draw from the step's legal
list (`below`: CPython's own draw), builds that one action and applies
it without the handler's checks (it is legal by construction), appends it to `played`, and
goes on so until the step waits for nobody or `room` actions are played. They serve a step
resting at no window, digital cards; `phases.TABLE` names them (`Phase.plays`), and
`engine.settle` moves on after. A window's actions passed in place to reach the step come
first in the first draw's list (`head`): one of those drawn is handed back unapplied
(nothing played), for the window's handler. The effects it shares with the handlers
(`steps.lay_down`, `steps.kid_last`, `split.took`, `split.forbid`) are the same functions.

How it is checked: `tests/rules/test_counted.py` plays hundreds of games at tables of every
kind both ways and checks that this plays the same actions and reaches the same states as
drawing from `legal_actions` and applying through `engine.apply_in_place`;
`tests/bots/test_fast_path.py`, that `by_seat` plays the games random bots play when the
arena asks them through `legal_actions`, and draws a seat's actions from what it can see.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING

from companion.rules import split, steps
from companion.rules.actions import Action, Aim, Forbid
from companion.rules.cards import BANG, CLICK, KINDS, TOKEN
from companion.rules.menu import Rows
from companion.rules.powers import DICTATOR, GREEDY
from companion.rules.state import CHOOSE, COURAGE, HOLDUP, PRIVILEGE, SPLIT, GameState, Player
from companion.rules.turn import all_aims, reaims

if TYPE_CHECKING:
    from random import Random

CHOSEN, DECIDED, TAKEN = Rows("choose", "card"), Rows("courage", "down"), Rows("take", "loot")


def below(rnd: Random, n: int) -> int:
    """The index `rnd.choice` draws among `n` items, drawn as CPython draws it
    (`Random._randbelow`: the fewest random bits that cover `n`, again while too large)."""
    k = n.bit_length()
    i = rnd.getrandbits(k)
    while i >= n:
        i = rnd.getrandbits(k)
    return i


def first(rnd: Random, n: int, head: Sequence[Action]) -> int:
    """The first draw, among `head` and then `n` actions of the step: its index among
    the step's, or below zero for one of `head`'s (counted from its end)."""
    before = len(head)
    return below(rnd, n + before) - before


def choose(s: GameState, rnd: Random, played: list[Action], room: int,
           head: Sequence[Action] = ()) -> Action | None:
    """Bullet choices: each chooser's cards in hand, bang before click (`turn.nth_choice`)."""
    players, to_act = s.players, s.to_act
    n = 0  # (counted once, then less the choices of whoever chose)
    for seat in to_act:
        p = players[seat]
        n += (p.bang > 0) + (p.click > 0)
    i = first(rnd, n, head)
    if i < 0:
        return head[i]
    while True:
        at = 0
        for seat in to_act:
            p = players[seat]
            if p.bang and p.click:
                if i < 2:
                    card = CLICK if i else BANG
                    n -= 2
                    break
                i -= 2
            elif i:
                i -= 1
            else:
                card = BANG if p.bang else CLICK
                n -= 1
                break
            at += 1
        chose(s, p, at, card, played)
        room -= 1
        if not (to_act and room):
            return None
        i = below(rnd, n)


def aim(s: GameState, rnd: Random, played: list[Action], room: int,
        head: Sequence[Action] = ()) -> Action | None:
    """Aims: each aimer's aims in seating order, too slow first (`turn.nth_aim`)."""
    players, living, to_act = s.players, s.living_names, s.to_act
    m, aims = len(living), all_aims(living)
    i = first(rnd, len(to_act) * m, head)
    if i < 0:
        return head[i]
    while True:
        at, t = divmod(i, m)
        p = players[to_act[at]]
        aimed(s, p, at, aims[p.name][t], played)
        room -= 1
        if not (to_act and room):
            return None
        n = len(to_act) * m
        i = below(rnd, n)


def courage(s: GameState, rnd: Random, played: list[Action], room: int,
            head: Sequence[Action] = ()) -> Action | None:
    """Courage: each undecided player stands or lies down (`turn.nth_courage`)."""
    players, to_act = s.players, s.to_act
    i = first(rnd, 2 * len(to_act), head)
    if i < 0:
        return head[i]
    while True:
        at = i >> 1
        decided(s, players[to_act[at]], at, i & 1 == 1, played)
        room -= 1
        if not (to_act and room):
            return None
        n = 2 * len(to_act)
        i = below(rnd, n)


def take(s: GameState, rnd: Random, played: list[Action], room: int,
         head: Sequence[Action] = ()) -> Action | None:
    """Shares of the split (`turn.takes`), and the Dictator's ban beside them
    (`turn.forbids`), while someone takes and no window opens (`turn.taker`). The shares
    one may take are worked out once, then less each share gone from the table, while no
    ban or Greedy's pair makes them one player's own."""
    players = s.players
    dictated = DICTATOR in s.powers
    options: Shares = []
    kept = False  # (`options` hold for whoever takes next)
    drawn = False  # (the first draw, among `head` too, is made)
    while True:
        p = players[s.turn]  # type: ignore[index]  # (settled at no window: someone's turn)
        options, kept = shares(s, p, options, kept)
        n = len(options)
        dictator = split.may_forbid(s) if dictated else None
        total = n + len(KINDS) if dictator is not None else n
        if drawn:
            i = below(rnd, total)
        else:
            i = first(rnd, total, head)
            if i < 0:
                return head[i]
            drawn = True
        if i < n:
            kept = took_share(s, p, options, i, kept, played)
        else:
            assert dictator is not None
            forbade(s, dictator, p, KINDS[i - n], played)
        room -= 1
        if not room or s.turn is None or s.junk_card is not None or not (s.table or s.token):
            return None  # (the last: `turn.taker`, written out)


# -- the effects, shared by the draws above and by `by_seat` -------------------------------


def chose(s: GameState, p: Player, at: int, card: str, played: list[Action]) -> None:
    """`p`, the `at`-th of those to act, put `card` down (`steps.choose`)."""
    if card is BANG:
        p.bang -= 1
    else:
        p.click -= 1
    p.card = card
    del s.to_act[at]
    played.append(CHOSEN[p.name][card])


def aimed(s: GameState, p: Player, at: int, action: Aim, played: list[Action]) -> None:
    """`p`, the `at`-th of those to act, aimed (`steps.aim`); the Kid is last (R25)."""
    if action.target is not None:
        p.target = s.index[action.target]
    p.aimed = True
    del s.to_act[at]
    if not s.to_act:
        steps.kid_last(s)
    played.append(action)


def decided(s: GameState, p: Player, at: int, down: bool, played: list[Action]) -> None:
    """`p`, the `at`-th of those to act, stood or lay down (`steps.courage`)."""
    p.down = down
    del s.to_act[at]
    if down:
        steps.lay_down(s, p)
    played.append(DECIDED[p.name][down])


Shares = list[str | tuple[str, str] | None]


def shares(s: GameState, p: Player, options: Shares, kept: bool) -> tuple[Shares, bool]:
    """What `p` may take (`split.take_options`): `options` again if `kept`, while no ban
    or Greedy's pair makes them one player's own; and whether they hold for the next."""
    if not kept or s.forbidden is not None or (p.power == GREEDY and not p.greedy_used):
        options = list(split.take_options(s, p))
        kept = s.forbidden is None and not (p.power == GREEDY and not p.greedy_used)
    return options, kept


def took_share(s: GameState, p: Player, options: Shares, i: int, kept: bool,
               played: list[Action]) -> bool:
    """`p` took `options[i]` (a card or the token, the Greedy's pair, or nothing), which
    is dropped from `options` once gone from the table; whether they still hold for the
    next taker."""
    share = options[i]
    took_chosen(s, p, TAKEN[p.name][share], played)
    if not isinstance(share, str):
        return False
    if kept and (share == TOKEN or share not in s.table):
        del options[i]
    return kept


def forbade(s: GameState, dictator: Player, p: Player, kind: str,
            played: list[Action]) -> None:
    """The Dictator forbade `kind` to `p`, whose turn it is (`split.forbid`)."""
    action = Forbid(dictator.name, target=p.name, kind=kind)
    split.forbid(s, dictator, action)
    played.append(action)


# -- players who each draw from their own generator ----------------------------------------


def by_seat(s: GameState, rnds: Sequence[Random], played: list[Action]) -> bool:
    """Play the step the game is at, if it is one of those above and rests at no window,
    each player drawing uniformly among their own options with their own generator
    (`rnds`, by seat), as random bots asked one by one would (`bots/arena.py`); False,
    with nothing played, at any other step. Each option is drawn as `rnd.randrange` draws
    it, and only among two or more; the Dictator, beside the take, forbids a kind or
    passes first. The caller settles the game after (`engine.settle`)."""
    if s.rests_at is not None or s.physical:
        return False
    phase, players, to_act = s.phase, s.players, s.to_act
    if phase == CHOOSE:
        while to_act:
            p = players[to_act[0]]
            if p.bang and p.click:
                card = CLICK if below(rnds[p.seat], 2) else BANG
            else:
                card = BANG if p.bang else CLICK
            chose(s, p, 0, card, played)
    elif phase == HOLDUP:
        living = s.living_names
        aims = all_aims(living)
        while to_act:
            p = players[to_act[0]]
            aimed(s, p, 0, aims[p.name][below(rnds[p.seat], len(living))], played)
    elif phase == COURAGE:
        while to_act:
            p = players[to_act[0]]
            decided(s, p, 0, below(rnds[p.seat], 2) == 1, played)
    elif phase == SPLIT and s.turn is not None:
        _split_by_seat(s, rnds, played)
    else:
        return False
    return True


def _split_by_seat(s: GameState, rnds: Sequence[Random], played: list[Action]) -> None:
    """The split's turns while no window opens (`turn.taker`), each taker drawing one of
    `split.take_options`; the Dictator first draws a kind to forbid or to pass."""
    players, dictated = s.players, DICTATOR in s.powers
    options: Shares = []
    kept = False
    while s.turn is not None and s.junk_card is None and (s.table or s.token):
        p = players[s.turn]
        dictator = split.may_forbid(s) if dictated else None
        if dictator is not None:
            k = below(rnds[dictator.seat], len(KINDS) + 1)
            if k < len(KINDS):
                forbade(s, dictator, p, KINDS[k], played)
        if not kept or s.forbidden is not None or p.power == GREEDY:  # (else still good)
            options, kept = shares(s, p, options, kept)
        n = len(options)
        kept = took_share(s, p, options, below(rnds[p.seat], n) if n > 1 else 0, kept, played)


CHOSEN_TOGETHER = frozenset((CHOOSE, HOLDUP, COURAGE, SPLIT))


def plays_chosen(s: GameState) -> bool:
    """Whether `play_chosen` takes this step's choices (a digital game at a bullet choice, a
    hold-up, courage or the split, no window resting)."""
    return s.phase in CHOSEN_TOGETHER and not s.physical and s.rests_at is None


def play_chosen(s: GameState, chosen: Sequence[Action], played: list[Action]) -> None:
    """Apply the choices of a bullet choice, a hold-up or courage that the players it waits
    for made from the same moment, one for each, in the order it waits for them
    (`asked_at_step`: the style bots, `bots/arena.py`), as `by_seat` applies its draws:
    the step's own effect for each (`chose`, `aimed`, `decided`, written out here: the
    step read once and those it waits for let go at once, not once a choice); the split's
    shares go one by one through `took_chosen`. The caller settles the game after
    (`engine.settle`)."""
    phase, players, to_act = s.phase, s.players, s.to_act
    assert plays_chosen(s) and phase != SPLIT and len(chosen) == len(to_act)
    if phase == CHOOSE:
        for a, seat in zip(chosen, to_act, strict=True):
            p = players[seat]
            if a.card == BANG:  # type: ignore[attr-defined]  # (a `Choose`)
                p.bang -= 1
                p.card = BANG
            else:
                p.click -= 1
                p.card = CLICK
        to_act.clear()
    elif phase == HOLDUP:
        index = s.index
        for a, seat in zip(chosen, to_act, strict=True):
            p = players[seat]
            target = a.target  # type: ignore[attr-defined]  # (an `Aim`)
            if target is not None:
                p.target = index[target]
            p.aimed = True
        to_act.clear()
        steps.kid_last(s)  # (R25: the Kid aims last, alone)
    else:
        for a, seat in zip(chosen, to_act, strict=True):
            p = players[seat]
            p.down = down = a.down is True  # type: ignore[attr-defined]  # (a `Courage`)
            if down:
                steps.lay_down(s, p)
        to_act.clear()
    played += chosen


def took_chosen(s: GameState, p: Player, a: Action, played: list[Action]) -> None:
    """`p` took the share the take `a` names (`split.take`, less its checks)."""
    loot = a.loot  # type: ignore[attr-defined]  # (a `Take`)
    split.took(s, p, (loot,) if isinstance(loot, str) else loot or ())
    played.append(a)


Asked = tuple[str, list[Action | None]]  # a player and their options (`asked_at_step`)
NAME = attrgetter("name")  # (a player's, read in C)


def asked_at_step(s: GameState) -> list[Asked] | None:
    """At the bullet choice, the hold-up, courage and the privilege's re-aim: each player
    the step waits for, with their own options (the same, in the same order, as found
    among the legal actions; typed as a bot's options, where None passes), without listing
    everyone's. None at any other step. Each player's options are built once (`choosing`,
    `aiming`, `deciding`) and handed out as kept: read them, never change them."""
    phase, players = s.phase, s.players
    if phase == CHOOSE:
        return [choosing(p.name, p.bang > 0, p.click > 0)
                for p in map(players.__getitem__, s.to_act)]
    if phase == HOLDUP:
        return [*map(aiming(s.living_names).__getitem__,
                     map(NAME, map(players.__getitem__, s.to_act)))]
    if phase == COURAGE:
        return [*map(deciding, map(NAME, map(players.__getitem__, s.to_act)))]
    if phase == PRIVILEGE and s.ordered is not None:
        return [(players[s.ordered].name, [*reaims(s)])]
    return None


@lru_cache(maxsize=1024)  # (a few players' three hands each)
def choosing(name: str, bang: bool, click: bool) -> Asked:
    """A chooser and their options: the cards held, Bang! before Click!."""
    row = CHOSEN[name]
    return name, [row[BANG], row[CLICK]] if bang and click else (
        [row[BANG]] if bang else [row[CLICK]] if click else [])


@lru_cache(maxsize=256)  # (as `turn.all_aims`: a table's living players)
def aiming(living: tuple[str, ...]) -> dict[str, Asked]:
    """Each living aimer and their options (`turn.all_aims`), by name."""
    return {name: (name, [*aims]) for name, aims in all_aims(living).items()}


@lru_cache(maxsize=1024)  # (a few players each)
def deciding(name: str) -> Asked:
    """A player at courage and their options: stand, then lie down."""
    return name, [(row := DECIDED[name])[False], row[True]]


def taking_turn(s: GameState) -> bool:
    """The split, a player's turn to take a share (the Dictator may forbid a kind first)."""
    return s.phase == SPLIT and s.turn is not None

