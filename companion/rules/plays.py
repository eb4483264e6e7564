"""A drawn action applied at once, at the steps most of a random game is played in.

For a player that owns the state and draws uniformly (`legal.play_legal`): each function
draws the index `rnd.choice` would draw from the step's legal list (`legal._below`,
written out), builds that one action and applies it without the handler's checks (it is
legal by construction), in one call. They serve a step resting at no window, digital
cards; `phases.TABLE` names them (`Phase.plays`), and `engine.settle` moves on after.
A window's actions passed in place to reach the step come first in the list (`head`):
one of those drawn is handed back unapplied, for the window's handler.
`tests/rules/test_counted.py` checks they play what listing and `apply` play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.rules import split, steps
from companion.rules.actions import Action
from companion.rules.cards import BANG, CLICK, KINDS
from companion.rules.menu import act
from companion.rules.state import GameState
from companion.rules.turn import aims

if TYPE_CHECKING:
    from random import Random


def choose(s: GameState, rnd: Random, head: Sequence[Action] = ()) -> Action:
    """A bullet choice: each chooser's cards in hand, bang before click (`turn.nth_choice`)."""
    players, to_act = s.players, s.to_act
    n = len(head)
    for seat in to_act:
        p = players[seat]
        n += (p.bang > 0) + (p.click > 0)
    k = n.bit_length()
    i = rnd.getrandbits(k)
    while i >= n:
        i = rnd.getrandbits(k)
    if head:
        if i < len(head):
            return head[i]
        i -= len(head)
    at = 0
    for seat in to_act:
        p = players[seat]
        if p.bang and p.click:
            if i < 2:
                card = CLICK if i else BANG
                break
            i -= 2
        elif i:
            i -= 1
        else:
            card = BANG if p.bang else CLICK
            break
        at += 1
    if card is BANG:
        p.bang -= 1
    else:
        p.click -= 1
    p.card = card
    del to_act[at]
    return act("choose", p.name, "card", card)


def aim(s: GameState, rnd: Random, head: Sequence[Action] = ()) -> Action:
    """An aim: each aimer's aims in seating order, too slow first (`turn.nth_aim`)."""
    living, to_act = s.living_names, s.to_act
    m = len(living)
    n = len(head) + len(to_act) * m
    k = n.bit_length()
    i = rnd.getrandbits(k)
    while i >= n:
        i = rnd.getrandbits(k)
    if head:
        if i < len(head):
            return head[i]
        i -= len(head)
    at, t = divmod(i, m)
    p = s.players[to_act[at]]
    action = aims(p.name, living)[t]
    if t:
        p.target = s.index[action.target]  # type: ignore[index]  # (an aim at someone)
    p.aimed = True
    del to_act[at]
    if not to_act:
        steps.kid_last(s)
    return action


def courage(s: GameState, rnd: Random, head: Sequence[Action] = ()) -> Action:
    """A courage choice: each undecided player stands or lies down (`turn.nth_courage`)."""
    to_act = s.to_act
    n = len(head) + 2 * len(to_act)
    k = n.bit_length()
    i = rnd.getrandbits(k)
    while i >= n:
        i = rnd.getrandbits(k)
    if head:
        if i < len(head):
            return head[i]
        i -= len(head)
    at = i >> 1
    p = s.players[to_act[at]]
    down = i & 1 == 1
    p.down = down
    del to_act[at]
    if down:
        steps.lay_down(s, p)
    return act("courage", p.name, "down", down)


def take(s: GameState, rnd: Random, head: Sequence[Action] = ()) -> Action:
    """A share of the split (`turn.takes`), or the Dictator's ban beside it (`turn.forbids`)."""
    assert s.turn is not None  # (settled in the split, at no window: someone's turn)
    p = s.players[s.turn]
    options = split.take_options(s, p)
    n = len(options)
    dictator = split.may_forbid(s)
    total = len(head) + n + len(KINDS) if dictator is not None else len(head) + n
    k = total.bit_length()
    i = rnd.getrandbits(k)
    while i >= total:
        i = rnd.getrandbits(k)
    if head:
        if i < len(head):
            return head[i]
        i -= len(head)
    if i >= n:
        assert dictator is not None
        action = act("forbid", dictator.name, "target", p.name, "kind", KINDS[i - n])
        split.forbid(s, dictator, action)
        return action
    share = options[i]
    split.took(s, p, () if share is None else (share,) if isinstance(share, str) else share)
    return act("take", p.name, "loot", share)
