"""The game journal: every accepted action on disk before anyone sees it.

SQLite in WAL mode with `synchronous=FULL`: a commit returns only once the action is on
disk, so a power cut loses at most an action that nobody was shown. A game is its setup
plus its actions in order; the state is never stored, it is replayed.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.rules import Action, action_from_dict

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS game (
    id INTEGER PRIMARY KEY,
    created_ms REAL NOT NULL,
    setup TEXT NOT NULL,              -- JSON: players, powers, seed, variant, cards, loot_mode
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS action (
    game INTEGER NOT NULL REFERENCES game(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,             -- JSON, the scenario language
    source TEXT NOT NULL,             -- sensor, tablet, phone, override
    at_ms REAL NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seq)
);
"""


@dataclass(frozen=True)
class Entry:
    seq: int
    action: Action
    source: str
    at_ms: float


class JournalError(RuntimeError):
    """The journal cannot be opened or written: a sentence saying which file and why."""


class Journal:
    """One SQLite file, readable by its owner only (it holds the seat links' secret and
    every hand); safe to call from any thread (one connection behind a lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
                os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
                os.chmod(self.path, 0o600)  # SQLite gives its -wal and -shm files this mode
            # Autocommit mode: every write below is one explicit transaction (`_write`).
            self._db = sqlite3.connect(str(path), check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as e:
            raise JournalError(f"cannot open the game journal {self.path}: "
                               f"{getattr(e, 'strerror', None) or e}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, on disk when the block ends; nothing of it if the block fails."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as e:  # the disk is full, the card went read-only, ...
                raise JournalError(f"cannot write the game journal {self.path}: {e}") from None

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """One transaction on the journal's connection, for a part that keeps its own
        tables in the journal's file (the league's outbox): on disk when the block ends."""
        return self._write()

    def secret(self) -> bytes:
        """A random key kept with the games, so phone links survive a restart."""
        with self._write() as db:
            db.execute("INSERT OR IGNORE INTO meta VALUES ('secret', ?)",
                       (secrets.token_bytes(32),))
            return bytes(db.execute("SELECT value FROM meta WHERE key = 'secret'"
                                    ).fetchone()[0])

    def boot(self) -> int:
        """Count one more start of the table: versions begin at boots x 1,000,000, so a
        command made before a power cut is never taken for one made after it."""
        with self._write() as db:
            db.execute("INSERT OR IGNORE INTO meta VALUES ('boots', 0)")
            db.execute("UPDATE meta SET value = value + 1 WHERE key = 'boots'")
            return int(db.execute("SELECT value FROM meta WHERE key = 'boots'").fetchone()[0])

    def new_game(self, setup: dict[str, Any], at_ms: float) -> int:
        with self._write() as db:
            cur = db.execute("INSERT INTO game (created_ms, setup) VALUES (?, ?)",
                             (at_ms, json.dumps(setup, sort_keys=True)))
            return int(cur.lastrowid or 0)

    def record(self, game: int, action: Action, source: str, at_ms: float) -> int:
        """Append an action; returns its sequence number once it is on disk."""
        with self._write() as db:
            row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM action WHERE game = ?",
                             (game,)).fetchone()
            seq = int(row[0]) + 1
            db.execute("INSERT INTO action (game, seq, action, source, at_ms) "
                       "VALUES (?, ?, ?, ?, ?)",
                       (game, seq, json.dumps(action.to_dict()), source, at_ms))
            return seq

    def undo(self, game: int, seq: int) -> None:
        with self._write() as db:
            db.execute("UPDATE action SET undone = 1 WHERE game = ? AND seq = ?", (game, seq))

    def finish(self, game: int) -> None:
        with self._write() as db:
            db.execute("UPDATE game SET finished = 1 WHERE id = ?", (game,))

    def setup(self, game: int) -> dict[str, Any]:
        with self._lock:
            row = self._db.execute("SELECT setup FROM game WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game} in {self.path}")
        return dict(json.loads(row[0]))

    def entries(self, game: int) -> list[Entry]:
        """The game's actions still in force, in order."""
        with self._lock:
            rows = self._db.execute("SELECT seq, action, source, at_ms FROM action "
                                    "WHERE game = ? AND undone = 0 ORDER BY seq",
                                    (game,)).fetchall()
        return [Entry(seq, action_from_dict(json.loads(a)), src, at) for seq, a, src, at in rows]

    def latest_game(self) -> tuple[int, bool] | None:
        """(id, finished) of the newest game, if any."""
        with self._lock:
            row = self._db.execute("SELECT id, finished FROM game ORDER BY id DESC LIMIT 1"
                                   ).fetchone()
        return None if row is None else (int(row[0]), bool(row[1]))
