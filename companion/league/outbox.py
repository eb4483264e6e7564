"""The table's outbox of results, and its last copy of the league roster, in its journal.

A finished game's result is written here in the same file as the game itself (the
journal's SQLite, in tables of this module's own), so neither a power cut nor a venue
link that is down can lose it: it is sent until the league acknowledges it. The roster
copy lets the Godfather pick league names while the venue is out of reach.
"""

from __future__ import annotations

from typing import Any

from companion.referee.journal import Journal

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS league_outbox (
        game INTEGER PRIMARY KEY,     -- the journal's game
        uid TEXT NOT NULL UNIQUE,     -- the result's name at the league
        payload TEXT NOT NULL,        -- the result message (JSON), sent as it is
        queued_ms REAL NOT NULL,
        acked_ms REAL,                -- when the league acknowledged it; NULL: send again
        status TEXT                   -- the league's verdict: accepted or flagged
    )""",
    "CREATE TABLE IF NOT EXISTS league_roster (name TEXT PRIMARY KEY)",
)


class Outbox:
    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        with journal.transaction() as db:
            for statement in SCHEMA:
                db.execute(statement)

    def add(self, game: int, uid: str, payload: str, at_ms: float) -> bool:
        """Queue a game's result once; False if it was already queued."""
        with self.journal.transaction() as db:
            cur = db.execute("INSERT OR IGNORE INTO league_outbox (game, uid, payload, "
                             "queued_ms) VALUES (?, ?, ?, ?)", (game, uid, payload, at_ms))
            return cur.rowcount == 1

    def has(self, game: int) -> bool:
        with self.journal.transaction() as db:
            return db.execute("SELECT 1 FROM league_outbox WHERE game = ?",
                              (game,)).fetchone() is not None

    def pending(self) -> list[tuple[str, str]]:
        """(uid, payload) of every result the league has not acknowledged, oldest first."""
        with self.journal.transaction() as db:
            return [(str(u), str(p)) for u, p in db.execute(
                "SELECT uid, payload FROM league_outbox WHERE acked_ms IS NULL ORDER BY game")]

    def acknowledge(self, uid: str, status: str, at_ms: float) -> bool:
        """The league has stored `uid`: stop sending it. False for an unknown uid."""
        with self.journal.transaction() as db:
            cur = db.execute("UPDATE league_outbox SET acked_ms = COALESCE(acked_ms, ?), "
                             "status = ? WHERE uid = ?", (at_ms, status, uid))
            return cur.rowcount == 1

    def entries(self) -> list[dict[str, Any]]:
        """Every queued result with its fate, newest first (for tests and the doctor)."""
        with self.journal.transaction() as db:
            rows = db.execute("SELECT game, uid, queued_ms, acked_ms, status FROM "
                              "league_outbox ORDER BY game DESC").fetchall()
        return [dict(zip(("game", "uid", "queued_ms", "acked_ms", "status"), r, strict=True))
                for r in rows]

    def roster(self) -> list[str]:
        with self.journal.transaction() as db:
            return [str(n) for (n,) in db.execute("SELECT name FROM league_roster ORDER BY name")]

    def keep_roster(self, names: list[str]) -> None:
        """Replace the roster copy with the league's latest."""
        with self.journal.transaction() as db:
            db.execute("DELETE FROM league_roster")
            db.executemany("INSERT OR IGNORE INTO league_roster VALUES (?)",
                           [(n,) for n in names])
