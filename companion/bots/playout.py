"""Fast play to the end of a sampled game, for the planner's look-ahead.

The sampled game is the planner's own guess (`determinize.py`), so every player in it may
read the whole state; the policy here still decides as a sensible player would (it never
looks at a face-down card), since the planner wants to know what real players would do.
"""

from __future__ import annotations

import random

from companion.bots.estimate import Taker, worth_table
from companion.bots.memory import diamonds
from companion.rules import Action, GameState, apply_in_place, legal_actions
from companion.rules.actions import Aim, Choose, Courage, Take
from companion.rules.cards import BANG, FACE_VALUE, ROUNDS, kind_of
from companion.rules.powers import wound_limit
from companion.rules.scoring import scores

WINDOWS = frozenset(("hustle", "swap", "privilege", "smart", "junk", "forbid"))
QUICK_VALUE = {"painting": 12000, "first_aid": 0, "clip": 3000, "godfather": 6000}
BANG_RATE = 0.4
AIMS_AT_RICHEST = 0.4  # how often a player aims at whoever holds the most loot, else anyone
TAKES_BEST = 0.85  # how often a player takes the share worth most to it, else any
MARGIN_WEIGHT = 0.2  # how much the money margin counts beside the win itself


def play_out(s: GameState, rnd: random.Random, skip: tuple[str, str] | None = None) -> None:
    """Play `s` to the end in place; `skip`: (power, holder) that passes at the first step."""
    while not s.over:
        legal = legal_actions(s)
        if skip is not None:
            legal = [a for a in legal if (a.type, a.player) != skip] or legal
            skip = None
        apply_in_place(s, _choose(s, legal, rnd))


def utility(s: GameState, me: str) -> float:
    """A finished game's worth to `me`: a win (shared wins shared), and the money margin."""
    win = 1 / len(s.winners) if me in s.winners else 0.0
    p = s.players[s.index[me]]
    if not p.alive:
        return win - MARGIN_WEIGHT
    totals = [t["total"] for t in scores(s)]
    best_other = max((totals[q.seat] for q in s.players if q.alive and q is not p), default=0)
    margin = max(-1.0, min(1.0, (totals[p.seat] - best_other) / 100_000))
    return win + MARGIN_WEIGHT * margin


def _choose(s: GameState, legal: list[Action], rnd: random.Random) -> Action:
    first = legal[0]
    windows = [a for a in legal if a.type in WINDOWS]
    if windows:
        if rnd.random() < 0.5 or len(windows) == len(legal):
            return rnd.choice(windows)
        legal = [a for a in legal if a.type not in WINDOWS]
        first = legal[0]
    mine = [a for a in legal if a.player == first.player and a.type == first.type]
    if first.type == "choose":
        bang = rnd.random() < BANG_RATE
        return next((a for a in mine if isinstance(a, Choose) and (a.card == BANG) is bang),
                    mine[0])
    if first.type == "aim":
        aims = [a for a in mine if isinstance(a, Aim)]
        named: list[Aim] = [a for a in aims if a.target is not None] or aims
        if rnd.random() < AIMS_AT_RICHEST and named[0].target is not None:
            most = max(len(s.players[s.index[str(a.target)]].loot) for a in named)
            named = [a for a in named if len(s.players[s.index[str(a.target)]].loot) == most]
        return rnd.choice(named)
    if first.type == "courage":
        return _courage(s, mine, rnd)
    if first.type == "take" and rnd.random() < TAKES_BEST:
        return _best_take(s, mine)
    return rnd.choice(mine)


def _courage(s: GameState, mine: list[Action], rnd: random.Random) -> Action:
    p = s.players[s.index[mine[0].player]]
    guns = sum(1 for q in s.players if q.alive and q.target == p.seat)
    chance = 0.1 + 0.25 * guns + (0.3 if guns and p.wounds + guns >= wound_limit(p.power) else 0)
    down = rnd.random() < chance
    return next(a for a in mine if isinstance(a, Courage) and a.down is down)


def _best_take(s: GameState, mine: list[Action]) -> Action:
    """The share worth most to its taker (`estimate.worth_table`); a double share counts
    both."""
    p = s.players[s.index[mine[0].player]]
    rival = max((diamonds(q.loot) for q in s.players if q.alive and q is not p), default=0)
    taker = Taker(p.loot, p.power, p.wounds, wound_limit(p.power), s.round >= ROUNDS,
                  bool(p.click and s.discard_bang), rival)
    worths = worth_table(taker)
    return max(mine, key=lambda a: sum(map(worths.__getitem__, shares_of(a))))


def shares_of(a: Action) -> list[str]:
    """The shares a take takes (none for another action)."""
    if not isinstance(a, Take):
        return []
    return [a.loot] if isinstance(a.loot, str) else list(a.loot or ())


def take_value(a: Action) -> int:
    """A take's money at face value (paintings and other shares at a rough average)."""
    return sum(FACE_VALUE.get(x) or QUICK_VALUE.get(kind_of(x), 0) for x in shares_of(a))
