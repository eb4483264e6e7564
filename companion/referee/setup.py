"""A new game's setup, checked: players clockwise from the Godfather's desk, powers, modes.

The rules of a setup (names, powers, variant, modes, seed) are companion.schema's, the same
a scenario file's `players:`/`powers:`/... obey; what only the API has is here: seats
around the real table, and powers dealt at random from the seed.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from companion.referee.commands import CommandError
from companion.rules.powers import POWERS
from companion.schema import MAX_NAME, Checker, JsonDoc
from companion.yamlfile import FieldError, Path_

__all__ = ["MAX_NAME", "check_setup"]


def check_setup(cmd: dict[str, Any]) -> dict[str, Any]:
    """The journal's record of a new game from a `new_game` command, or a CommandError
    (400) naming the field path at fault."""
    try:
        return _check(Checker(JsonDoc(cmd)), cmd)
    except FieldError as e:
        raise CommandError(400, str(e)) from None


def _check(check: Checker, cmd: dict[str, Any]) -> dict[str, Any]:
    players = cmd.get("players")

    def entry(i: int, p: Any) -> tuple[Any, Path_]:  # a name, or {name, seat}
        return (p.get("name"), ("players", i, "name")) if isinstance(p, dict) else (
            p, ("players", i))

    names = check.names = check.players(players, ("players",), entry)
    assert isinstance(players, list)  # checked by players()
    seats: dict[str, int] = {}
    for i, (name, p) in enumerate(zip(names, players, strict=True)):
        seat = check.integer(p.get("seat") if isinstance(p, dict) else i + 1,
                             ("players", i, "seat"), 1, 8)
        if seat in seats.values():
            raise check.fail(("players", i, "seat"), f"seat {seat} is given twice")
        seats[name] = seat
    order = sorted(seats.values())
    first = order.index(seats[names[0]])
    if [seats[n] for n in names] != order[first:] + order[:first]:
        raise check.fail(("players",), "list them clockwise, by seat number, from the "
                         "Godfather's desk")
    seed = check.seed(cmd.get("seed", secrets.randbelow(2**31)))
    powers = cmd.get("powers", "none")
    if powers == "none":
        dealt: dict[str, str] = {}
    elif powers == "random":  # dealt from the game's seed: a seed repeats the whole game
        dealt = dict(zip(names, random.Random(seed).sample(POWERS, len(names)), strict=True))
    elif isinstance(powers, dict):
        dealt = check.powers(powers)
    else:
        raise check.fail(("powers",), f'"none", "random" or {{player: power}}, not {powers!r}')
    variant = check.variant(cmd.get("variant", {}))
    cards = check.mode(cmd.get("cards", "digital"), ("cards",), "cards mode")
    loot = check.mode(cmd.get("loot", "digital"), ("loot",), "loot mode")
    return {"players": list(names), "seats": seats, "powers": dealt, "seed": seed,
            "variant": variant, "cards": cards, "loot": loot}
