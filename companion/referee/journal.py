"""The game journal: every accepted action on disk before anyone sees it.

SQLite in WAL mode with `synchronous=FULL`: a commit returns only once the action is on
disk, so a power cut loses at most an action that nobody was shown. A game is its setup
plus its actions in order; the state is never stored, it is replayed. The tables and their
versions are in `journal_schema`; finished games beyond `keep_games` are deleted, oldest
first, when a game ends, so the file stops growing (docs/REFEREE.md, "The journal").
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.referee.effects import Countdowns, Finish, NewGame, Record, Rewrite, Undo, Write
from companion.referee.journal_schema import ENDED_AT, SchemaError, upgrade
from companion.rules import Action, action_from_dict

log = logging.getLogger(__name__)
# (boot, seq, game, at_ms, kind, data, decided): one row of the `input` table
InputRow = tuple[int, int, int | None, float, str, str, str]
Shown = tuple[int, int, str]  # (boot, seq, digest): one row of the `shown` table


@dataclass(frozen=True)
class Entry:
    """One action of a game still in force in the journal."""

    seq: int
    action: Action
    source: str
    at_ms: float


class JournalError(RuntimeError):
    """The journal cannot be opened or written: a sentence saying which file and why."""


class Journal:
    """One SQLite file, readable by its owner only (it holds the seat links' secret, the
    phones' hashed claims and every hand); safe to call from any thread (one connection
    behind a lock)."""

    def __init__(self, path: str | Path, keep_games: int = 0) -> None:
        self.path = Path(path)
        self.keep_games = keep_games  # finished games kept; 0: every one
        self._lock = threading.Lock()
        self.closed = False  # by `close`: what is not written by then never will be
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
        except (OSError, sqlite3.Error) as e:
            raise JournalError(f"cannot open the game journal {self.path}: "
                               f"{getattr(e, 'strerror', None) or e}") from None
        self._upgrade()

    def _upgrade(self) -> None:
        """The tables at this companion's version, in one transaction (docstring above)."""
        try:
            with self._write() as db:
                found, now = upgrade(db)
                self._prune(db)
        except SchemaError as e:
            self._db.close()
            raise JournalError(f"cannot open the game journal {self.path}: it {e}") from None
        except JournalError as e:
            self._db.close()
            raise JournalError(f"{e}; the journal was not upgraded and is unchanged"
                               if str(e).startswith("cannot write") else str(e)) from None
        if 0 < found < now:
            log.info("game journal %s upgraded from version %d to %d", self.path, found, now)

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self.closed = True

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

    def new_game(self, setup: dict[str, Any], at_ms: float, game: int | None = None) -> int:
        """A game's row (numbered `game`, or the next number); returns its number."""
        with self._write() as db:
            return _insert_game(db, game, setup, at_ms)

    def commit(self, inputs: list[InputRow], writes: list[Write],
               shown: tuple[Shown, ...] | list[Shown] = ()) -> None:
        """Inputs heard, what they made the referee write, and digests of the views they
        showed: all on disk together, or none of them (JournalError)."""
        with self._write() as db:
            db.executemany("INSERT INTO input VALUES (?, ?, ?, ?, ?, ?, ?)", inputs)
            db.executemany("INSERT OR REPLACE INTO shown VALUES (?, ?, ?)", shown)
            for w in writes:
                self._carry_out(db, w)

    def _carry_out(self, db: sqlite3.Connection, w: Write) -> None:
        if isinstance(w, NewGame):
            _insert_game(db, w.game, w.setup, w.at_ms)
        elif isinstance(w, Record):
            db.execute("INSERT INTO action (game, seq, action, source, at_ms) "
                       "VALUES (?, ?, ?, ?, ?)",
                       (w.game, w.seq, json.dumps(w.action.to_dict()), w.source, w.at_ms))
        elif isinstance(w, Finish):
            db.execute(f"UPDATE game SET finished = 1, finished_ms = COALESCE(finished_ms, "
                       f"{ENDED_AT}) WHERE id = ?", (w.game,))
            self._prune(db)
        elif isinstance(w, Undo):
            db.execute("UPDATE action SET undone = 1 WHERE game = ? AND seq = ?",
                       (w.game, w.seq))
        elif isinstance(w, Rewrite):
            self._rewrite(db, w.game, w.first, list(w.actions))
        elif isinstance(w, Countdowns):
            db.execute("INSERT OR REPLACE INTO countdowns VALUES (?, ?)",
                       (w.game, json.dumps(list(w.replays), sort_keys=True)))
        elif w.digest is None:  # Hold: a seat let go
            db.execute("DELETE FROM claim WHERE game = ? AND seat = ?", (w.game, w.seat))
        else:
            db.execute("INSERT INTO claim VALUES (?, ?, ?, ?)",
                       (w.game, w.seat, w.digest, w.at_ms))

    def last_game_number(self) -> int:
        """The highest game number given."""
        with self._lock:
            return int(self._db.execute("SELECT COALESCE(MAX(id), 0) FROM game").fetchone()[0])

    def last_seq(self, game: int) -> int:
        """The highest action number a game has used, undone ones too."""
        with self._lock:
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM action WHERE game = ?",
                                   (game,)).fetchone()
        return int(row[0])

    def inputs(self, boot: int) -> list[tuple[int, int | None, float, str, str, str]]:
        """(seq, game, at_ms, kind, data, decided) of one start's inputs, in order."""
        with self._lock:
            return self._db.execute("SELECT seq, game, at_ms, kind, data, decided FROM input "
                                    "WHERE boot = ? ORDER BY seq", (boot,)).fetchall()

    def boots(self, game: int | None = None) -> list[int]:
        """The starts with recorded inputs (those in which `game` was in play)."""
        where, args = ("WHERE game = ?", (game,)) if game is not None else ("", ())
        with self._lock:
            rows = self._db.execute(f"SELECT DISTINCT boot FROM input {where} ORDER BY boot",
                                    args).fetchall()
        return [int(r[0]) for r in rows]

    def shown(self, boot: int) -> dict[int, str]:
        """The digests of the views one start showed, by input number."""
        with self._lock:
            rows = self._db.execute("SELECT seq, digest FROM shown WHERE boot = ?",
                                    (boot,)).fetchall()
        return {int(seq): str(digest) for seq, digest in rows}

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

    @staticmethod
    def _rewrite(db: sqlite3.Connection, game: int, first: int,
                 actions: list[tuple[Action, str, float]]) -> None:
        db.execute("UPDATE action SET undone = 1 WHERE game = ? AND seq >= ?", (game, first))
        row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM action WHERE game = ?",
                         (game,)).fetchone()
        db.executemany("INSERT INTO action (game, seq, action, source, at_ms) "
                       "VALUES (?, ?, ?, ?, ?)",
                       [(game, seq, json.dumps(a.to_dict()), source, at)
                        for seq, (a, source, at) in enumerate(actions, int(row[0]) + 1)])

    def finish(self, game: int) -> None:
        """The game is over (or abandoned); the oldest finished games beyond `keep_games`
        go in the same transaction."""
        self.commit([], [Finish(game)])

    def _prune(self, db: sqlite3.Connection) -> None:
        if not self.keep_games:
            return
        old = ("SELECT id FROM game WHERE finished = 1 ORDER BY id DESC LIMIT -1 OFFSET ?")
        db.execute(f"DELETE FROM action WHERE game IN ({old})", (self.keep_games,))
        db.execute(f"DELETE FROM claim WHERE game IN ({old})", (self.keep_games,))
        db.execute(f"DELETE FROM countdowns WHERE game IN ({old})", (self.keep_games,))
        # a start's inputs go once every game played in it is gone (a replay needs them all)
        gone_boots = (f"SELECT boot FROM input GROUP BY boot HAVING MAX(game) IN ({old}) "
                      "AND boot < (SELECT MAX(boot) FROM input)")
        db.execute(f"DELETE FROM shown WHERE boot IN ({gone_boots})", (self.keep_games,))
        db.execute(f"DELETE FROM input WHERE boot IN ({gone_boots})", (self.keep_games,))
        gone = db.execute(f"DELETE FROM game WHERE id IN ({old})", (self.keep_games,)).rowcount
        if gone:
            log.info("game journal %s: %d finished game(s) deleted, the newest %d kept",
                     self.path, gone, self.keep_games)

    def games(self) -> list[tuple[int, bool, float | None]]:
        """(id, finished, finished_ms) of every game kept, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT id, finished, finished_ms FROM game ORDER BY id"
                                    ).fetchall()
        return [(int(i), bool(f), ms) for i, f, ms in rows]

    def claims(self, game: int) -> dict[int, str]:
        """Each claimed seat of a game, and the digest of its phone's claim."""
        with self._lock:
            rows = self._db.execute("SELECT seat, digest FROM claim WHERE game = ?",
                                    (game,)).fetchall()
        return {int(seat): str(digest) for seat, digest in rows}

    def countdowns(self, game: int) -> tuple[dict[str, Any], ...]:
        """The game's round's countdowns as read ("Show me"), as they last stood."""
        with self._lock:
            row = self._db.execute("SELECT replays FROM countdowns WHERE game = ?",
                                   (game,)).fetchone()
        return tuple(json.loads(row[0])) if row else ()

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


def _insert_game(db: sqlite3.Connection, game: int | None, setup: dict[str, Any],
                 at_ms: float) -> int:
    cur = db.execute("INSERT INTO game (id, created_ms, setup) VALUES (?, ?, ?)",
                     (game, at_ms, json.dumps(setup, sort_keys=True)))
    return int(cur.lastrowid or 0)
