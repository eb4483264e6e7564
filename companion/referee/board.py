"""What the table view draws on each seat and between seats, decided here so that nothing
stale reaches a page and no script holds a rule.

An arrow is drawn only while it means something: a gun's live aim during the hold-up, the
aims the rules counted from "three" until the cards are turned up, the ordered gun's new
aim while it is awaited. A seat says this round's facts (its card down, the aim counted,
too slow, the card turned up and what it did, who shot it) and its standee as the game
counts it: a standee still lying from an earlier step or round is asked back up.
"""

from __future__ import annotations

from typing import Any

from companion.referee.game import Game
from companion.referee.view_model import Arrow
from companion.rules import GameState
from companion.rules.events import RoundBegun
from companion.rules.phases import (
    aims_counted,
    aims_live,
    asks_courage,
    cards_going_down,
    lying_counts,
    sharing,
)
from companion.rules.state import Player

Text = dict[str, Any]
Guns = dict[int, tuple[Any, bool]]  # each seat's gun as read: (its aim, raised)


def text(key: str, count: int | None = None, **args: Any) -> Text:
    """A text the page renders (`say` in words.js); `count` picks a plural form."""
    return {"key": key, "args": args} if count is None else {"key": key, "args": args,
                                                             "count": count}


def round_events(s: GameState) -> list[dict[str, Any]]:
    """This round's events, oldest first."""
    out = []
    for e in reversed(s.events):
        if isinstance(e, RoundBegun):
            break
        out.append(e.to_dict())
    return out[::-1]


def arrows(game: Game, guns: Guns) -> list[Arrow]:
    """The arrows to draw now: `kind` live (a raised gun in the hold-up), lowered (a gun
    read aiming while down), or counted (what the rules took at "three"). Handed the
    guns only: an arrow is drawn from what they read, never from a standee."""
    s = game.state
    ordered = s.players[s.ordered] if s.ordered is not None else None
    out: list[Arrow] = []
    for p in s.living():
        seat = game.seat_of[p.name]
        if aims_counted(s) and p.aimed and p is not ordered:
            if p.target is not None:
                out.append({"from": seat, "to": game.seat_of[s.players[p.target].name],
                            "kind": "counted"})
            continue
        aim, raised = guns[seat]
        if (aims_live(s) or p is ordered) and isinstance(aim, int) and aim != seat \
                and aim in game.player_at:
            out.append({"from": seat, "to": aim, "kind": "live" if raised else "lowered"})
    return out


def standee(s: GameState, p: Player, sensed_down: bool, asked_down: bool) -> Text:
    """The standee as the game counts it now, or what its player should do with it (at the
    game's end, nothing: it is as it lies)."""
    if s.over:
        return text("standee.down" if sensed_down else "standee.up") | {
            "kind": "down" if sensed_down else "up"}
    if asks_courage(s) and p.down is None:
        return text("standee.down" if sensed_down else "standee.up") | {
            "kind": "down" if sensed_down else "up"}
    if lying_counts(s) and p.down is not None:
        if asked_down:
            return text("standee.lie_down") | {"kind": "lie_down"}
        if p.down or p.hits_wound:
            key = "standee.no_share" if sharing(s) else "standee.down"
            return text(key) | {"kind": "down"}
        return text("standee.up") | {"kind": "up"}
    if sensed_down:  # lying from an earlier step or round: it no longer counts
        return text("standee.stand_up") | {"kind": "stand_up"}
    return text("standee.up") | {"kind": "up"}


def marks(game: Game, p: Player, ambiguous: list[str],
          events: list[dict[str, Any]]) -> list[Text]:
    """This round's facts on a seat, each a text with a `kind` the page styles."""
    s = game.state
    out: list[Text] = []
    if p.card is not None and cards_going_down(s):
        out.append(text("seat.card_down") | {"kind": "card_down"})
    if s.ordered is not None and s.players[s.ordered] is p:
        out.append(text("seat.ordered") | {"kind": "ordered"})
    out += card_marks(p, events)
    if not any(m["kind"] in ("bang", "click", "too_slow") for m in out):
        if ambiguous and not p.aimed:
            out.append(text("seat.unclear", names=ambiguous) | {"kind": "unclear"})
        elif p.aimed and p.target is None:
            out.append(text("seat.too_slow") | {"kind": "too_slow"})
        elif p.aimed and aims_counted(s) and p.target is not None:
            out.append(text("seat.aims_at", target=s.players[p.target].name)
                       | {"kind": "counted"})
    for e in events:
        if e["type"] == "wounded" and e["player"] == p.name:
            out.append(text("seat.shot_by", count=len(e["by"]), names=e["by"]) | {"kind": "hit"})
        elif e["type"] == "lucky" and e["player"] == p.name:
            out.append(text("seat.dodged", count=len(e["by"]), names=e["by"])
                       | {"kind": "dodged"})
    return out


def card_marks(p: Player, events: list[dict[str, Any]]) -> list[Text]:
    """The card this player turned up this round and what it did, or too slow."""
    out: list[Text] = []
    for e in events:
        if e.get("player") != p.name:
            continue
        if e["type"] == "too_slow":
            out.append(text("seat.too_slow") | {"kind": "too_slow"})
        elif e["type"] == "professional":
            out.append(text("seat.bang_robbed", target=e["target"]) | {"kind": "bang"})
        elif e["type"] == "revealed" and e["card"] == "click":
            out.append(text("seat.click", target=e["target"]) | {"kind": "click"})
        elif e["type"] == "revealed":
            out.append(text(f"seat.bang_{bang_result(p.name, e['target'], events)}",
                            target=e["target"]) | {"kind": "bang"})
    return out


def bang_result(shooter: str, target: str, events: list[dict[str, Any]]) -> str:
    """What a Bang! did: hit (a wound), dodged (the Lucky Man), or nothing yet."""
    for e in events:
        if e["type"] in ("wounded", "lucky") and e["player"] == target \
                and shooter in e["by"]:
            return "hit" if e["type"] == "wounded" else "dodged"
    return "shown"
