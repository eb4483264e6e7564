"""A new game's setup, checked: players clockwise from the Godfather's desk, powers, modes."""

from __future__ import annotations

import random
import secrets
from typing import Any

from companion.referee.commands import CommandError
from companion.rules.powers import POWERS
from companion.rules.setup import VARIANTS

MAX_NAME = 24


def check_setup(cmd: dict[str, Any]) -> dict[str, Any]:
    """The journal's record of a new game from a `new_game` command, or a CommandError."""
    players = cmd.get("players")
    if not isinstance(players, list) or not 4 <= len(players) <= 8:
        raise CommandError(400, "players: list 4 to 8 players, clockwise from the "
                                "Godfather's desk")
    names: list[str] = []
    seats: dict[str, int] = {}
    for i, p in enumerate(players):
        entry = p if isinstance(p, dict) else {"name": p, "seat": i + 1}
        name, seat = entry.get("name"), entry.get("seat")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise CommandError(400, f"players[{i}].name: a name of 1 to {MAX_NAME} characters")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 8:
            raise CommandError(400, f"players[{i}].seat: a seat from 1 to 8")
        if name in seats or seat in seats.values():
            raise CommandError(400, f"players[{i}]: {name!r} or seat {seat} is given twice")
        names.append(name)
        seats[name] = seat
    order = sorted(seats.values())
    first = order.index(seats[names[0]])
    if [seats[n] for n in names] != order[first:] + order[:first]:
        raise CommandError(400, "players: list them clockwise, by seat number, from "
                                "the Godfather's desk")
    seed = cmd.get("seed", secrets.randbelow(2**31))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise CommandError(400, "seed: a whole number")
    powers = _check_powers(cmd.get("powers", "none"), names, seed)
    variant = cmd.get("variant", {})
    if not isinstance(variant, dict) or any(
            k not in VARIANTS or v not in VARIANTS[k] for k, v in variant.items()):
        raise CommandError(400, f"variant: known switches are {VARIANTS}")
    cards = cmd.get("cards", "digital")
    if cards not in ("digital", "physical"):
        raise CommandError(400, "cards: digital or physical")
    loot = cmd.get("loot", "digital")
    if loot not in ("digital", "physical"):
        raise CommandError(400, "loot: digital (the companion deals) or physical (the "
                                "Godfather enters the cards turned up)")
    return {"players": names, "seats": seats, "powers": powers, "seed": seed,
            "variant": variant, "cards": cards, "loot": loot}


def _check_powers(powers: Any, names: list[str], seed: int) -> dict[str, str]:
    if powers == "none":
        return {}
    if powers == "random":  # dealt from the game's seed: a seed repeats the whole game
        dealt = random.Random(seed).sample(POWERS, len(names))
        return dict(zip(names, dealt, strict=True))
    if not isinstance(powers, dict) or any(n not in names for n in powers):
        raise CommandError(400, "powers: \"none\", \"random\" or {player: power}")
    for name, power in powers.items():
        if power not in POWERS:
            raise CommandError(400, f"powers.{name}: unknown power {power!r}")
    if len(set(powers.values())) != len(powers):
        raise CommandError(400, "powers: a power is dealt twice")
    return dict(powers)
