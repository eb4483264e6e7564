"""The end of a game as the views show it: the count per player with the diamond cards
that decide the bonus, the winners and the rule that chose them, and the end chart."""

from __future__ import annotations

from typing import Any

from companion.referee.board import Text, text
from companion.referee.game import Game, engine_setup
from companion.referee.view_model import Ending, FinalRow
from companion.rules import GameState, apply_in_place, new_game
from companion.rules.events import GameOver, RoundBegun, Wounded
from companion.rules.scoring import bonus_holder, diamond_cards, scores
from companion.rules.state import Player


def final(s: GameState, totals: list[dict[str, int]]) -> Ending:
    """`final`: each player's count, with `diamond_cards` (the bonus goes to the living
    player with strictly the most diamond cards, whatever their value); `result`."""
    bonus = bonus_holder(s)
    rank = ranks(s, totals)
    rows: list[FinalRow] = [
        {"name": p.name, "alive": p.alive, "wounds": p.wounds, "loot": p.loot[:],
         "score": totals[p.seat], "diamond_cards": diamond_cards(p), "bonus": p is bonus,
         "rank": rank[p.name]}
        for p in s.players]
    return {"final": rows, "result": {"winners": winners_text(s), "tiebreak": tiebreak(s)}}


def ranks(s: GameState, totals: list[dict[str, int]]) -> dict[str, int]:
    """Each player's place: 1 for the winners; then the living by total, a tie settled by
    the most wounds as the win is (R9, R15); then those out of the game (they cannot win)
    by total. Players equal on all of it share a place (1, 2, 2, 4)."""
    def key(p: Player) -> tuple[bool, bool, int, int]:
        return (p.name in s.winners, p.alive, totals[p.seat]["total"],
                p.wounds if p.alive else 0)
    keys = {p.name: key(p) for p in s.players}
    return {name: 1 + sum(other > mine for other in keys.values())
            for name, mine in keys.items()}


def winners_text(s: GameState) -> Text:
    if not s.winners:
        return text("final.nobody")
    return text("final.winners" if len(s.winners) > 1 else "final.winner", names=s.winners)


def tiebreak(s: GameState) -> Text:
    """Why these winners (R9, R15): the last one standing, the richest, a tie settled by
    wounds, or a shared win."""
    living = s.living()
    if len(living) <= 1:
        return text("final.last_standing" if living else "final.nobody")
    totals = scores(s)
    best = max(totals[p.seat]["total"] for p in living)
    tied = [p for p in living if totals[p.seat]["total"] == best]
    if len(tied) == 1:
        return text("final.richest")
    if len(s.winners) == 1:
        return text("final.tie_wounds", total={"money": best}, winner=s.winners[0])
    return text("final.tie_shared", total={"money": best})


def history(game: Game) -> dict[str, Any]:
    """Each player's wealth at the end of every round, and who shot whom: for the end chart."""
    s = new_game(engine_setup(game.setup))
    wealth: list[dict[str, int]] = []
    shots: list[dict[str, Any]] = []
    for action in game.actions:
        n = len(s.events)
        apply_in_place(s, action)
        for e in s.events[n:]:
            if isinstance(e, RoundBegun | GameOver):
                totals = scores(s)
                wealth.append({p.name: totals[p.seat]["total"] for p in s.players})
            elif isinstance(e, Wounded):
                shots += [{"round": e.round, "by": b, "player": e.player} for b in e.by]
    return {"wealth": wealth, "shots": shots}  # one point per round played


