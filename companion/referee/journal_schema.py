"""The journal's schema, its version, and the steps from each older version to this one.

The version is SQLite's `user_version` (in the file's header, so it changes with the
transaction that changes the tables). Version 1 is the first format, written before the
journal carried a version (user_version 0, up to release b475e92). A journal is brought up
to `VERSION` in one transaction when it is opened: all the steps or none of them. A journal
from a newer companion is refused with a sentence and left as it is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

VERSION = 5

# run statement by statement (split on ";", so none inside one): executescript would commit
TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE game (
    id INTEGER PRIMARY KEY,
    created_ms REAL NOT NULL,
    setup TEXT NOT NULL,              -- JSON: players, powers, seed, variant, cards, loot_mode
    finished INTEGER NOT NULL DEFAULT 0,
    finished_ms REAL                  -- when it ended or was abandoned (version 2)
);
CREATE TABLE action (
    game INTEGER NOT NULL REFERENCES game(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,             -- JSON, the scenario language
    source TEXT NOT NULL,             -- sensor, tablet, phone, override (by hand)
    at_ms REAL NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seq)
);
CREATE TABLE claim (                  -- the phone holding each seat of a game (version 3)
    game INTEGER NOT NULL REFERENCES game(id),
    seat INTEGER NOT NULL,
    digest TEXT NOT NULL,             -- SHA-256 of the phone's claim, never the claim
    at_ms REAL NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE TABLE input (                  -- what the referee heard, in order (version 4)
    boot INTEGER NOT NULL,            -- the start it was heard in (meta 'boots')
    seq INTEGER NOT NULL,             -- its order in that start (its Boot is 1)
    game INTEGER,                     -- the game in play then, if any
    at_ms REAL NOT NULL,              -- when, on the table's clock
    kind TEXT NOT NULL,               -- Boot, Heard, Command, Claim, Link, Tick, ...
    data TEXT NOT NULL,               -- JSON (companion.referee.inputs)
    decided TEXT NOT NULL,            -- JSON: what the referee decided from it
    PRIMARY KEY (boot, seq)
);
CREATE INDEX input_game ON input (game);
CREATE TABLE shown (                  -- the public view after an input (version 4)
    boot INTEGER NOT NULL,            -- the input's start ...
    seq INTEGER NOT NULL,             -- ... and number
    digest TEXT NOT NULL,             -- SHA-256 of the view's JSON, as the streams send it
    PRIMARY KEY (boot, seq)
);
CREATE TABLE countdowns (             -- a game's round's countdowns as read (version 5)
    game INTEGER PRIMARY KEY REFERENCES game(id),
    replays TEXT NOT NULL             -- JSON: "Show me", as it now stands
);
"""
FIRST_FORMAT_TABLES = {"meta", "game", "action"}
# when a game ended, in SQL on a `game` row: its last action, or its start if it has none
ENDED_AT = "COALESCE((SELECT MAX(at_ms) FROM action WHERE action.game = game.id), created_ms)"


class SchemaError(RuntimeError):
    """The file is not a journal this companion can read: the message says why."""


def _add_finished_ms(db: sqlite3.Connection) -> None:
    """1 -> 2: when each game ended, for the retention of finished games; a game finished
    before the upgrade ends at its last action (or its start, if it has none)."""
    db.execute("ALTER TABLE game ADD COLUMN finished_ms REAL")
    db.execute(f"UPDATE game SET finished_ms = {ENDED_AT} WHERE finished = 1")


def _add_claims(db: sqlite3.Connection) -> None:
    """2 -> 3: the phones' claims on seats; a game resumed after the upgrade has none, so
    each phone claims its seat again with the link it has."""
    db.execute(TABLES[TABLES.index("CREATE TABLE claim"):].split(";")[0])


def _add_inputs(db: sqlite3.Connection) -> None:
    """3 -> 4: the inputs the referee heard and what it showed, for `replay --journal`;
    games played before the upgrade have none (they still resume and export)."""
    for statement in TABLES[TABLES.index("CREATE TABLE input"):].split(";")[:3]:
        db.execute(statement)


def _add_countdowns(db: sqlite3.Connection) -> None:
    """4 -> 5: each game's round's countdowns as read, kept as they change, so a restart
    shows "Show me" again at once; a game in play at the upgrade has its round's countdowns
    again from its next countdown."""
    db.execute(TABLES[TABLES.index("CREATE TABLE countdowns"):].split(";")[0])


# version -> the step that brings a journal of that version to the next one
STEPS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _add_finished_ms, 2: _add_claims,
                                                           3: _add_inputs, 4: _add_countdowns}


def upgrade(db: sqlite3.Connection) -> tuple[int, int]:
    """Bring the open journal to VERSION inside the caller's transaction; (found, now).

    A new file gets the tables; the first format (no version) counts as version 1."""
    found = int(db.execute("PRAGMA user_version").fetchone()[0])
    tables = {row[0] for row in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    if found == 0 and not tables:
        for statement in TABLES.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {VERSION}")
        return 0, VERSION
    if found == 0:
        if not tables >= FIRST_FORMAT_TABLES:
            raise SchemaError(f"is not a game journal (it holds the tables "
                              f"{', '.join(sorted(tables))})")
        found = 1
    if found > VERSION:
        raise SchemaError(f"was written by a newer companion (journal version {found}; this "
                          f"one reads up to version {VERSION}): upgrade the companion, or "
                          "point referee.journal at another file")
    for version in range(found, VERSION):
        STEPS[version](db)
    db.execute(f"PRAGMA user_version = {VERSION}")
    return found, VERSION
