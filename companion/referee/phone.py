"""A phone's own buttons: said to its owner ("Take a $5,000 bill"), each under the step it
belongs to, and only what the owner does themselves.

The tablet's buttons name the player because the Godfather taps for anyone; on a phone
the player is "you". The pages draw what is here and decide nothing (seat.js).
"""

from __future__ import annotations

from typing import Any

from companion.referee.views import Snapshot, action_label, aiming_at_nobody, button, public
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


def phone_button(a: dict[str, Any], aimless: frozenset[str]) -> dict[str, Any]:
    key, args = action_label(a, phone=True, aimless=aimless)
    if key not in SECOND_PERSON:
        key = "mine." + key.removeprefix("action.")
        args = {k: v for k, v in args.items() if k != "player"}
    return {**button({"type": "action", "action": a}, key, **args),
            "group": GROUP.get(a["type"], "power")}


def phone_buttons(s: GameState, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The owner's buttons, ordered by step (GROUPS), each with its `group`."""
    aimless = aiming_at_nobody(s)
    buttons = [phone_button(a, aimless) for a in legal if mine(a)]
    return sorted(buttons, key=lambda b: GROUPS.index(b["group"]))


def my_turn(s: GameState, name: str) -> str | None:
    """The banner's key when the table waits for this player, else None."""
    wait = waiting(s)
    return f"turn.{wait.key}" if name in wait.players and wait.key in TURNS else None


def phone_commands(t: Snapshot, name: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The part of a phone's private view that asks something of its owner."""
    game = t.game
    assert game is not None
    return {"turn": my_turn(game.state, name), "commands": phone_buttons(game.state, legal)}


def seat(t: Snapshot, seat_no: int) -> dict[str, Any]:
    """A phone's view: the public view plus `me`, its last key (the event streams splice
    `me` onto the public view's bytes instead of building the public part again)."""
    return {**public(t), "me": seat_private(t, seat_no)}


def seat_private(t: Snapshot, seat_no: int) -> dict[str, Any] | None:
    """What only the phone of `seat_no` sees: its player's hand, loot, power and buttons."""
    game = t.game
    if game is None or seat_no not in game.player_at:
        return None
    name = game.player_at[seat_no]
    p = game.state.players[game.state.index[name]]
    hand = None if game.state.physical else {"bang": p.bang, "click": p.click}
    legal = [a.to_dict() for a in t.legal if a.player == name]
    return {
        "seat": seat_no, "player": name, "power": p.power, "hand": hand,
        "card": p.card if not game.state.physical else None, "loot": p.loot[:],
        "legal": legal, **phone_commands(t, name, legal),
    }
