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
from companion.schema import MAX_NAME, MAX_PLAYERS, MIN_PLAYERS, Checker, JsonDoc
from companion.yamlfile import FieldError, Path_

# A new game's key the table sets (Table.command) to the seating check's {"verdict", "why"}
# for its seats; the Godfather's "confirm_seating": true starts it on a warning alone.
SEATING = "seating"

__all__ = ["MAX_NAME", "check_setup"]


class _Doc(JsonDoc):
    """A JsonDoc that remembers where the setup failed, for `reason`."""

    at: Path_ = ()

    def error(self, path: Path_, message: str) -> FieldError:
        self.at = tuple(path)
        return super().error(path, message)


def check_setup(cmd: dict[str, Any]) -> dict[str, Any]:
    """The journal's record of a new game from a `new_game` command, or a CommandError
    (400) naming the field path at fault, with a `code` a page turns into its own words."""
    doc = _Doc(cmd)
    try:
        return _check(Checker(doc), cmd)
    except FieldError as e:
        raise CommandError("invalid", str(e), field=e.key, **reason(doc.at, cmd)) from None


def setup_seats(cmd: dict[str, Any]) -> list[int] | None:
    """The seats a `new_game` command seats players in, sorted; None if it is refused."""
    try:
        return sorted(check_setup({**cmd, "seed": 0})["seats"].values())
    except CommandError:
        return None


def reason(at: Path_, cmd: dict[str, Any]) -> dict[str, Any]:
    """What is wrong, as a code and the value at fault: `players_count`, `clockwise`,
    `name_twice`/`name_bad` (with the name), `seat_twice`/`seat_bad` (with the seat),
    else `setup_bad`."""
    players = cmd.get("players")
    if at == ("players",):
        count_ok = isinstance(players, list) and MIN_PLAYERS <= len(players) <= MAX_PLAYERS
        return {"code": "clockwise"} if count_ok else {
            "code": "players_count", "min": MIN_PLAYERS, "max": MAX_PLAYERS}
    if len(at) < 2 or at[0] != "players" or not isinstance(players, list):
        return {"code": "setup_bad"}
    i, what = int(at[1]), str(at[2]) if len(at) > 2 else "name"

    def value(j: int) -> Any:
        p = players[j]
        return p.get(what) if isinstance(p, dict) else (p if what == "name" else j + 1)
    twice = value(i) in [value(j) for j in range(i)]
    shown = value(i) if isinstance(value(i), str | int) else None
    return {"code": f"{what}_{'twice' if twice else 'bad'}", what: shown}


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
