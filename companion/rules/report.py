"""The game as the scenario format prints it (`companion replay`'s JSON output)."""

from __future__ import annotations

from typing import Any

from companion.rules.scoring import scores
from companion.rules.state import GameState


def state_to_dict(s: GameState) -> dict[str, Any]:
    """Everything, secrets included (hands): callers that publish must filter."""
    totals = scores(s)
    players = [
        {
            "name": p.name,
            "seat": p.seat + 1,
            "power": p.power,
            "alive": p.alive,
            "wounds": p.wounds,
            "hand": None if s.physical else {"bang": p.bang, "click": p.click},
            "loot": p.loot[:],
            "score": totals[p.seat],
        }
        for p in s.players
    ]
    return {
        "round": s.round,
        "phase": s.phase,
        "godfather": s.players[s.godfather].name,
        "players": players,
        "table": {"loot": s.table[:], "godfather_token": s.token},
        "discard": None if s.physical else {"bang": s.discard_bang, "click": s.discard_click},
        "winners": s.winners[:],
        "events": [e.to_dict() for e in s.events],
    }
