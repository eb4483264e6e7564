"""What each audience may see of the table: spectators, the Godfather's tablet, one phone.

Everything goes through `public()`, which leaves out every secret: hands, face-down
cards, and the identity of cards taken in secret (the Hustler's draw, the Junk Dealer's
draw, the Professional's and the Vulture's theft are counted, not named). Loot is shown
as counts until the game is over, as the rules suggest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.referee.game import Game, engine_setup
from companion.referee.stage import Stage
from companion.rules import apply_in_place, legal_actions, new_game
from companion.rules.engine import waiting_for
from companion.rules.scoring import scores
from companion.story import describe

SECRET_FIELDS = {"professional": ("loot",), "vulture": ("loot",), "junk": ("got",)}
HAND_FIELDS = ("card", "give", "discard")  # an action naming one of these tells a hand
EVENTS_SHOWN = 30


def public_event(e: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in e.items() if k not in SECRET_FIELDS.get(e["type"], ())}
    for key in SECRET_FIELDS.get(e["type"], ()):
        out[f"{key}_count"] = len(e[key]) if isinstance(e[key], list) else 1
    if e["type"] == "professional":
        out["text"] = f"{e['player']} robbed {e['target']}."
    elif e["type"] == "vulture":
        out["text"] = f"{e['player']} took {len(e['loot'])} cards from {e['prey']}."
    elif e["type"] == "junk":
        out["text"] = f"{e['player']} swapped a card with a later pile."
    else:
        out["text"] = describe(e)
    return out


@dataclass(frozen=True)
class Snapshot:
    """The table at one instant, as the views need it: taken under the table's lock, read
    without it. A game's state is never changed once shown (an action makes a new one)."""

    table: str
    version: int
    revision: int
    paused: bool
    stage: Stage
    now_ms: float
    game: Game | None
    sensors: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> readings now
    lay_down: frozenset[str] = frozenset()
    ambiguous: dict[str, list[int]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)  # default player names by seat
    seat_tokens: dict[int, str] = field(default_factory=dict)


def public(t: Snapshot) -> dict[str, Any]:
    base: dict[str, Any] = {
        "version": t.version, "revision": t.revision, "table": t.table, "paused": t.paused,
        "stage": t.stage.public(), "game": None, "players": [], "now_ms": t.now_ms,
    }
    game = t.game
    if game is None:
        return base
    s = game.state
    over = s.phase == "over"
    totals = scores(s)
    players = []
    for p in s.players:
        seat = game.seat_of[p.name]
        players.append({
            "name": p.name, "seat": seat, "power": p.power, "alive": p.alive,
            "wounds": p.wounds, "hand_size": None if s.physical else p.hand_size,
            "chosen": p.card is not None, "aimed": p.aimed,
            "target": s.players[p.target].name if p.target is not None else None,
            "down": p.down, "in_split": p.in_split, "loot_count": len(p.loot),
            "lay_down": p.name in t.lay_down,
            "ambiguous": [game.player_at[s_] for s_ in t.ambiguous.get(p.name, ())],
            "sensors": t.sensors[seat],
        })
    base.update({
        "game": game.id,
        "modes": {"cards": game.setup.get("cards", "digital"),
                  "loot": game.setup.get("loot", "digital")},
        "round": s.round, "phase": s.phase, "godfather": s.players[s.godfather].name,
        "waiting_for": waiting_for(s),
        "players": players,
        "table": {"loot": s.table[:], "godfather_token": s.token},
        "split": {"turn": s.players[s.turn].name if s.turn is not None else None,
                  "forbidden": s.forbidden},
        "events": [public_event(e) for e in s.events[-EVENTS_SHOWN:]],
        "winners": s.winners[:],
        "final": None,
    })
    if over:
        base["final"] = [{"name": p.name, "alive": p.alive, "wounds": p.wounds,
                          "loot": p.loot[:], "score": totals[p.seat]} for p in s.players]
        base["history"] = game.history
    return base


def history(game: Game) -> dict[str, Any]:
    """Each player's wealth at the end of every round, and who shot whom: for the end chart."""
    s = new_game(engine_setup(game.setup))
    wealth: list[dict[str, int]] = []
    shots: list[dict[str, Any]] = []
    for action in game.actions:
        n = len(s.events)
        apply_in_place(s, action)
        for e in s.events[n:]:
            if e["type"] in ("round", "game_over"):
                totals = scores(s)
                wealth.append({p.name: totals[p.seat]["total"] for p in s.players})
            elif e["type"] == "wounded":
                shots += [{"round": e["round"], "by": b, "player": e["player"]} for b in e["by"]]
    return {"wealth": wealth[1:], "shots": shots}


def control(t: Snapshot) -> dict[str, Any]:
    out = public(t)
    game = t.game
    out["default_names"] = {str(seat): name for seat, name in sorted(t.names.items())}
    # The Godfather is a player too: no button may tell what another player holds.
    out["legal"] = [] if game is None else [
        a.to_dict() for a in legal_actions(game.state) if not _tells_a_hand(a.to_dict())]
    out["seats"] = [] if game is None else [
        {"seat": seat, "player": name, "token": t.seat_tokens[seat],
         "url": f"/seat/{seat}?token={t.seat_tokens[seat]}"}
        for seat, name in sorted(game.player_at.items())
    ]
    return out


def _tells_a_hand(action: dict[str, Any]) -> bool:
    """A choice of a card from a hand (a reveal turns a card face up: that is public)."""
    return action["type"] != "reveal" and any(action.get(f) is not None for f in HAND_FIELDS)


def seat(t: Snapshot, seat_no: int) -> dict[str, Any]:
    out = public(t)
    game = t.game
    if game is None or seat_no not in game.player_at:
        out["me"] = None
        return out
    name = game.player_at[seat_no]
    p = game.state.players[game.state.index[name]]
    hand = None if game.state.physical else {"bang": p.bang, "click": p.click}
    out["me"] = {
        "seat": seat_no, "player": name, "power": p.power, "hand": hand,
        "card": p.card if not game.state.physical else None, "loot": p.loot[:],
        "legal": [a.to_dict() for a in legal_actions(game.state) if a.player == name],
    }
    return out
