"""A live table brought to the Smart's step (R28), as people would play it: Ana (the
Smart) shoots at Bob, who lies down, while everyone else stands."""

from __future__ import annotations

from typing import Any

from companion.referee.access import SENSED, who_taps
from companion.referee.commands import Auth
from companion.referee.table import Table

NAMES = ("Ana", "Bob", "Cyd", "Dee")


def tap(table: Table, **fields: Any) -> None:
    """The first legal action with these fields, tapped as the table would (the sensors'
    steps entered by the Godfather's override, a card from a hand on its phone)."""
    action = next(a.to_dict() for a in table.legal()
                  if all(a.to_dict().get(k) == v for k, v in fields.items()))
    table.command({"type": "action", "version": table.version, "action": action,
                   "override": action["type"] in SENSED},
                  who_taps(action, table.game.seat_of if table.game else {}))


def to_the_smarts_step(table: Table, cards: str = "digital") -> None:
    """Ana plays Bang! (or a hidden card) at Bob, who lies down; everyone else stands."""
    table.command({"type": "new_game", "version": table.version, "players": list(NAMES),
                   "seed": 4, "powers": {"Ana": "smart"}, "cards": cards}, Auth(control=True))
    digital = cards == "digital"
    tap(table, type="choose", player="Ana", **({"card": "bang"} if digital else {}))
    for name in NAMES[1:]:
        tap(table, type="choose", player=name, **({"card": "click"} if digital else {}))
    for name, target in (("Ana", "Bob"), ("Bob", "Cyd"), ("Cyd", "Dee"), ("Dee", "Ana")):
        tap(table, type="aim", player=name, target=target)
    if table.game and table.game.state.phase == "privilege":
        tap(table, type="privilege", order=None)
    tap(table, type="courage", player="Bob", down=True)
    for name in ("Ana", "Cyd", "Dee"):
        tap(table, type="courage", player=name, down=False)
