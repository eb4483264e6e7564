"""A game's result as it travels from a table to the league, made and checked in one place.

The table claims its winners and each player's score, and sends the whole game with them
as a scenario file (the export `companion replay` reads); the league believes only what the
replay of that file gives (companion/league/verify.py). `uid` names the game for good:
the table id, a tag of its journal (so a new journal file never reuses an old game's name)
and the game's number in it. Every field a table sends is checked here; a bad message gets
a sentence saying what and where, and nothing of it is stored.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from companion.referee.game import Game
from companion.rules.scoring import scores
from companion.schema import MAX_NAME

VERSION = 1
MAX_BYTES = 256 * 1024  # a whole game exports to 10 to 30 KiB
UID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}\.[0-9a-f]{12}\.[1-9][0-9]{0,9}")
FIELDS = {"v", "uid", "table", "game", "ended_ms", "players", "winners", "scenario"}
PLAYER_FIELDS = {"name", "seat", "power", "alive", "wounds", "score"}


class ResultError(ValueError):
    """A result message that cannot be taken: the sentence says what and where."""


@dataclass(frozen=True)
class ClaimedPlayer:
    name: str
    seat: int
    score: int
    alive: bool


@dataclass(frozen=True)
class Claim:
    """What a table says happened: checked for shape, not yet for truth."""

    uid: str
    table: str
    game: int
    ended_ms: float
    players: tuple[ClaimedPlayer, ...]
    winners: tuple[str, ...]
    scenario: str


def journal_tag(secret: bytes) -> str:
    """12 hex digits that name a journal file for good, from its own secret (not the
    secret itself: the tag is public)."""
    return hashlib.sha256(b"cashnguns-league-tag" + secret).hexdigest()[:12]


def result_message(table: str, tag: str, game: Game, scenario: str,
                   ended_ms: float) -> dict[str, Any]:
    """The result of a finished game, for the outbox."""
    s = game.state
    totals = scores(s)
    return {
        "v": VERSION, "uid": f"{table}.{tag}.{game.id}", "table": table, "game": game.id,
        "ended_ms": ended_ms,
        "players": [{"name": p.name, "seat": game.seat_of[p.name], "power": p.power,
                     "alive": p.alive, "wounds": p.wounds, "score": totals[p.seat]["total"]}
                    for p in s.players],
        "winners": s.winners[:], "scenario": scenario,
    }


def parse_claim(payload: bytes, table: str) -> Claim:
    """A result message from `table` (the topic it came on), checked field by field."""
    if len(payload) > MAX_BYTES:
        raise ResultError(f"the result is {len(payload)} bytes, over the {MAX_BYTES} a game "
                          "takes")
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ResultError(f"the result is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ResultError("the result must be a JSON object")
    if set(data) != FIELDS:
        raise ResultError(f"the result's fields must be {', '.join(sorted(FIELDS))}; missing "
                          f"{sorted(FIELDS - set(data))}, unknown {sorted(set(data) - FIELDS)}")
    if data["v"] != VERSION:
        raise ResultError(f"v: version {data['v']!r} is not {VERSION}")
    uid, game = data["uid"], data["game"]
    if not isinstance(uid, str) or not UID.fullmatch(uid):
        raise ResultError(f"uid: {uid!r} is not <table>.<12 hex digits>.<game>")
    if data["table"] != table:
        raise ResultError(f"table: the result names {data['table']!r} but came on the "
                          f"topic of {table!r}")
    if not uid.startswith(f"{table}."):
        raise ResultError(f"uid: {uid!r} names the table {uid.split('.')[0]!r}, but the "
                          f"result came from {table!r}")
    if type(game) is not int or not uid.endswith(f".{game}"):
        raise ResultError(f"game: {game!r} is not the game number the uid ends with")
    ended = data["ended_ms"]
    if isinstance(ended, bool) or not isinstance(ended, int | float) or not 0 <= ended < 2**53:
        raise ResultError(f"ended_ms: {ended!r} is not a time in milliseconds")
    if not isinstance(data["scenario"], str):
        raise ResultError("scenario: must be the game's scenario file, as text")
    players = _players(data["players"])
    names = {p.name for p in players}
    winners = data["winners"]
    if not isinstance(winners, list) or not all(w in names for w in winners) or \
            len(set(winners)) != len(winners):
        raise ResultError(f"winners: {winners!r} must be a list of the game's players")
    return Claim(uid, table, game, float(ended), players, tuple(winners), data["scenario"])


def _players(value: Any) -> tuple[ClaimedPlayer, ...]:
    if not isinstance(value, list) or not 4 <= len(value) <= 8:
        raise ResultError("players: must be a list of 4 to 8 players")
    out: list[ClaimedPlayer] = []
    for i, p in enumerate(value):
        where = f"players[{i}]"
        if not isinstance(p, dict) or set(p) != PLAYER_FIELDS:
            raise ResultError(f"{where}: must be an object of {', '.join(sorted(PLAYER_FIELDS))}")
        name, seat, score = p["name"], p["seat"], p["score"]
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or \
                name in {q.name for q in out}:
            raise ResultError(f"{where}.name: {name!r} is not a distinct name of 1 to "
                              f"{MAX_NAME} characters")
        if type(seat) is not int or not 1 <= seat <= 8:
            raise ResultError(f"{where}.seat: {seat!r} is not a seat from 1 to 8")
        if type(score) is not int or not 0 <= score < 10**9:
            raise ResultError(f"{where}.score: {score!r} is not a score in dollars")
        if not isinstance(p["alive"], bool):
            raise ResultError(f"{where}.alive: must be true or false")
        out.append(ClaimedPlayer(name, seat, score, p["alive"]))
    return tuple(out)
