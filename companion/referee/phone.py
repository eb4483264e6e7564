"""A phone's own buttons: said to its owner ("Take a $5,000 bill"), each under the step it
belongs to, and only what the owner does themselves.

The tablet's buttons name the player because the Godfather taps for anyone; on a phone
the player is "you". The pages draw what is here and decide nothing (seat.js).
"""

from __future__ import annotations

from typing import Any

from companion.referee.labels import action_label, aiming_at_nobody, button
from companion.rules.phases import waiting
from companion.rules.state import GameState

# The step each kind of action belongs to, in the order a phone shows the steps.
GROUP = {"choose": "card", "reveal": "card", "aim": "aim", "courage": "courage",
         "take": "split", "privilege": "godfather", "hustle": "power", "swap": "power",
         "smart": "power", "junk": "power", "forbid": "power"}
GROUPS = ("card", "aim", "courage", "split", "godfather", "power")
# What the table may wait for a player's own move, each with its banner "Your turn: …";
# not the Godfather entering physical loot (on the tablet's form), nor the game's end.
TURNS = ("choose", "holdup", "reaim", "courage", "reveal", "split", "privilege", "hustle",
         "swap", "smart", "junk")
# Tablet labels that already speak to the one who taps (the Godfather's orders, the deal).
SECOND_PERSON = ("action.privilege", "action.privilege_aim", "action.privilege_none",
                 "phone.play_bang", "phone.play_click", "ref.deal")


def mine(a: dict[str, Any]) -> bool:
    """Whether the owner does this themselves: "was too slow" is what the sensors or the
    Godfather say of a player, never a choice on the player's phone."""
    return not (a["type"] == "aim" and not a.get("target"))


def phone_button(a: dict[str, Any], aimless: frozenset[str],
                 down: str | None = None) -> dict[str, Any]:
    """`down`: the owner's card down. The Smart taking it back and discarding the same
    kind changes nothing (R28): that choice is the Smart's pass, and says so."""
    key, args = action_label(a, phone=True, aimless=aimless)
    if key not in SECOND_PERSON:
        key = "mine." + key.removeprefix("action.")
        args = {k: v for k, v in args.items() if k != "player"}
    if a["type"] == "smart" and down is not None and a.get("discard") == down:
        key = "mine.smart_pass"
    return {**button({"type": "action", "action": a}, key, **args),
            "group": GROUP.get(a["type"], "power")}


def phone_buttons(s: GameState, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The owner's buttons, ordered by step (GROUPS), each with its `group`."""
    aimless = aiming_at_nobody(s)
    buttons = [phone_button(a, aimless, s.players[s.index[a["player"]]].card)
               for a in legal if mine(a)]
    return sorted(buttons, key=lambda b: GROUPS.index(b["group"]))


def my_turn(s: GameState, name: str) -> str | None:
    """The banner's key when the table waits for this player, else None."""
    wait = waiting(s)
    return f"turn.{wait.key}" if name in wait.players and wait.key in TURNS else None


def phone_commands(s: GameState, name: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The part of a phone's private view that asks something of its owner."""
    return {"turn": my_turn(s, name), "commands": phone_buttons(s, legal)}
