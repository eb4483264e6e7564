"""The final count (R15, R16) and the end of the game (R9)."""

from __future__ import annotations

from companion.rules.cards import DIAMOND_BONUS, FACE_VALUE, LOOT_KIND, painting_value
from companion.rules.events import GameOver
from companion.rules.powers import COLLECTOR
from companion.rules.state import OVER, GameState, Player

ZERO = {"bills": 0, "diamonds": 0, "diamond_bonus": 0, "paintings": 0, "total": 0}

# each loot card's worth as a bill, as a diamond, and whether it is a diamond card: the
# counts below are sums over a hand mapped through these (loops run by the interpreter's C)
BILL = {card: FACE_VALUE[card] if kind == "bill" else 0 for card, kind in LOOT_KIND.items()}
DIAMOND = {card: FACE_VALUE[card] if kind == "diamond" else 0
           for card, kind in LOOT_KIND.items()}
IS_DIAMOND = {card: kind == "diamond" for card, kind in LOOT_KIND.items()}
MONEY = {card: BILL[card] + DIAMOND[card] for card in LOOT_KIND}


def diamond_cards(p: Player) -> int:
    return sum(map(IS_DIAMOND.__getitem__, p.loot))


def bonus_holder(s: GameState) -> Player | None:
    """The living player with strictly the most diamond cards, at least one."""
    counts = sorted(((diamond_cards(p), p.seat) for p in s.players if p.alive), reverse=True)
    if not counts or counts[0][0] == 0 or (len(counts) > 1 and counts[1][0] == counts[0][0]):
        return None
    return s.players[counts[0][1]]


def score(s: GameState, p: Player, bonus: Player | None = None) -> dict[str, int]:
    """The player's loot counted as if the game ended now; zero for the dead (R8)."""
    if not p.alive:
        return dict(ZERO)
    loot = p.loot
    return {
        "bills": sum(map(BILL.__getitem__, loot)),
        "diamonds": sum(map(DIAMOND.__getitem__, loot)),
        "diamond_bonus": DIAMOND_BONUS if bonus is p else 0,
        "paintings": painting_value(loot.count("painting") + (p.power == COLLECTOR)),
        "total": worth(p, bonus),
    }


def worth(p: Player, bonus: Player | None) -> int:
    """A living player's total (`score`), its parts not told apart."""
    loot = p.loot
    return (sum(map(MONEY.__getitem__, loot))
            + painting_value(loot.count("painting") + (p.power == COLLECTOR))
            + (DIAMOND_BONUS if bonus is p else 0))


def scores(s: GameState) -> list[dict[str, int]]:
    bonus = bonus_holder(s)
    return [score(s, p, bonus) for p in s.players]


def finish(s: GameState) -> None:
    """End the game: the last one standing wins (R9), else the richest, then most wounds."""
    living = s.living()
    if len(living) <= 1:
        winners = living
    else:
        bonus = bonus_holder(s)
        ranked = [((worth(p, bonus), p.wounds), p) for p in living]
        best = max(rank for rank, _ in ranked)
        winners = [p for rank, p in ranked if rank == best]
    s.winners = [p.name for p in winners]
    s.phase = OVER
    s.turn = None
    s.events.append(GameOver(s.round, winners=tuple(s.winners)))
