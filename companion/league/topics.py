"""The league's topics, beside the table's own under `cashnguns/<table>/` (docs/LEAGUE.md).

A table publishes `league/result` and reads `league/ack`; the league publishes the roster,
retained, under `cashnguns/_league/` (a table id cannot start with `_`, so no table owns it).
"""

from __future__ import annotations

from companion.bus.topics import ROOT

LEAGUE_BASE = f"{ROOT}/_league"
ROSTER = f"{LEAGUE_BASE}/roster"

# What a table's bridge carries up to the venue: the public game, its status, its results.
UP = ("game/state", "game/event", "referee/status", "league/result")
DOWN = ("league/ack",)


def result(table: str) -> str:
    return f"{ROOT}/{table}/league/result"


def ack(table: str) -> str:
    return f"{ROOT}/{table}/league/ack"


def bridge_state(table: str) -> str:
    """The bridge's own notification: `1` while the table's link to the venue is up, `0`
    (its last will at the venue) when it is lost."""
    return f"{ROOT}/{table}/bridge/state"


def table_of(topic: str) -> str | None:
    """The table id of a `cashnguns/<table>/...` topic; None for the league's own."""
    parts = topic.split("/")
    if len(parts) < 3 or parts[0] != ROOT or parts[1].startswith("_"):
        return None
    return parts[1]
