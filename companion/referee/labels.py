"""Buttons and their words: each legal action as a ready-made button, labelled for the
Godfather's tablet ("Ana plays Bang!"); referee/phone.py turns them to the player's own
phone. Words are texts, `{"key": catalog key, "args": {...}}` (see referee/views.py).
"""

from __future__ import annotations

from typing import Any

from companion.referee.board import Text, text
from companion.rules import GameState


def button(command: dict[str, Any], label: str, primary: bool = False,
           **args: Any) -> dict[str, Any]:
    """A ready-made button: the command the API takes, its label as a text."""
    return {"command": command, "label": label, "args": args, "primary": primary}



def aiming_at_nobody(s: GameState) -> frozenset[str]:
    """The players counted too slow this round: an order makes them aim, not change target."""
    return frozenset(p.name for p in s.players if p.alive and p.aimed and p.target is None)


def action_button(a: dict[str, Any], phone: bool = False,
                  aimless: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A legal action as a button: {"type": "action", "action": a}, labelled for a tablet
    ("Ana plays Bang!") or for the player's own phone ("Play Bang!")."""
    key, args = action_label(a, phone, aimless)
    return button({"type": "action", "action": a}, key, **args)


def action_label(a: dict[str, Any], phone: bool = False,
                 aimless: frozenset[str] = frozenset()) -> tuple[str, dict[str, Any]]:
    p, kind = a["player"], a["type"]
    if kind == "choose":
        if a.get("card"):
            return (f"phone.play_{a['card']}", {}) if phone else (
                f"action.choose_{a['card']}", {"player": p})
        return "action.choose_hidden", {"player": p}
    if kind == "aim":
        return ("action.aim", {"player": p, "target": a["target"]}) if a.get("target") \
            else ("action.aim_nobody", {"player": p})
    if kind == "courage":
        return "action.lie_down" if a["down"] else "action.stand", {"player": p}
    if kind == "reveal":
        return f"action.reveal_{a['card']}", {"player": p}
    if kind == "privilege":
        if not a.get("order"):
            return "action.privilege_none", {"player": p}
        key = "action.privilege_aim" if a["order"] in aimless else "action.privilege"
        return key, {"player": p, "order": a["order"]}
    if kind == "take":
        shares = a.get("loot")
        if shares is None:
            return "action.take_nothing", {"player": p}
        shares = shares if isinstance(shares, list) else [shares]
        return "action.take", {"player": p, "loot": [loot(c) for c in shares]}
    if kind == "forbid":
        return "action.forbid", {"player": p, "target": a["target"],
                                 "kind": text(f"kind.{a['kind']}")}
    if kind == "hustle":
        if not a.get("victim"):
            return "action.hustle_none", {"player": p}
        if a.get("give"):
            return "action.hustle_give", {"player": p, "victim": a["victim"],
                                          "give": card(a["give"])}
        return "action.hustle", {"player": p, "victim": a["victim"]}
    if kind == "swap":
        return ("action.swap_to", {"player": p, "card": card(a["card"])}) if a.get("card") \
            else ("action.swap", {"player": p})
    if kind == "smart":
        if a.get("keep"):
            return "action.smart_keep", {"player": p}
        return ("action.smart_discard", {"player": p, "card": card(a["discard"])}) \
            if a.get("discard") else ("action.smart", {"player": p})
    if kind == "junk":
        if a.get("got"):
            return "action.junk_got", {"player": p, "loot": loot(a["got"])}
        if a.get("pile") is None:
            return "action.junk_keep", {"player": p}
        return "action.junk", {"player": p, "pile": a["pile"]}
    return "ref.deal", {}  # deal: the physical-loot form's own button


def link_name(link: str) -> Text:
    """A link or a watermark's source as the pages name it: the broker, or a sensor hub."""
    if link.startswith("device:"):
        return text("link.device", id=link.removeprefix("device:"))
    return text("link.broker")


def voided(key: str, links: list[str], reason: str = "") -> Text:
    """Why the last countdown was called off, for the pages: `voided.went_down` (a link
    went down during it), `voided.was_down` (down while its facts happened) or
    `voided.late` (sources not heard to its end), naming the links."""
    return text(key, links=[link_name(link) for link in links], reason=reason)


def card(c: str) -> Text:
    return text(f"card.{c}")


def loot(c: str) -> Text:
    return text(f"loot.{c}")
