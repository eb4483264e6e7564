"""The balance lab's store: one SQLite file that a run writes as its games finish.

SQLite because it is in the standard library (nothing to build on a Pi), and a data person
opens the file with what they already use: the `sqlite3` shell, `pandas.read_sql`, DuckDB
(`ATTACH 'lab.sqlite3'`). Games are written in batches, one transaction each, so memory
stays flat however long the run, and a run killed at any point keeps every batch committed
before it: the same command resumes with the games still missing (docs/BOTS.md).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.bots.lab import GameRecord, Plan

VERSION = 1  # PRAGMA user_version of a lab store
BATCH_GAMES = 2000  # games a transaction holds at most, and a twentieth of the run's
BATCH_SECONDS = 5.0  # and the longest a finished game waits for its transaction

SCHEMA = """
CREATE TABLE plan (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
  game INTEGER PRIMARY KEY,  -- the game's index in the run: it and the seed make the game
  seed INTEGER NOT NULL,     -- the run's seed
  players INTEGER NOT NULL,
  styles TEXT NOT NULL,      -- the bots by seat, comma-separated
  powers TEXT NOT NULL,      -- the powers by seat, comma-separated ('' without powers)
  winners TEXT NOT NULL,     -- the winning seats (from 1), comma-separated; '' for nobody
  n_winners INTEGER NOT NULL,
  ending TEXT NOT NULL,      -- richest, tiebreak, shared, last_standing, no_winner
  bonus_decided INTEGER NOT NULL,  -- the winners would differ without the diamond bonus
  rounds INTEGER NOT NULL,
  actions INTEGER NOT NULL,
  deaths INTEGER NOT NULL
);
CREATE TABLE seats (
  game INTEGER NOT NULL REFERENCES games (game),
  seat INTEGER NOT NULL,     -- from 1: seat 1 holds the Godfather's desk in round 1
  style TEXT NOT NULL,
  power TEXT,                -- NULL without powers
  alive INTEGER NOT NULL,
  wounds INTEGER NOT NULL,
  total INTEGER NOT NULL,    -- final total in dollars, the diamond bonus included
  bonus INTEGER NOT NULL,    -- held the $60k diamond bonus
  died INTEGER,              -- the round of death, NULL for a survivor
  godfather INTEGER NOT NULL,  -- rounds begun at the Godfather's desk
  tokens INTEGER NOT NULL,   -- New Godfather tokens taken
  won INTEGER NOT NULL,      -- among the winners (a win shared by k counts 1/k)
  PRIMARY KEY (game, seat)
) WITHOUT ROWID;
"""
# (kept apart, and made in a store of an older run too: the games' figures are the same)
THINKING = """
CREATE TABLE IF NOT EXISTS thinking (
  game INTEGER PRIMARY KEY REFERENCES games (game),  -- a game with strong bots
  decisions INTEGER NOT NULL,  -- the decisions its strong bots made
  seconds REAL NOT NULL        -- the CPU seconds they took (the process's, where it played)
);
"""


class StoreError(ValueError):
    """The file cannot serve this run; the message says why in a sentence."""


def plan_fields(plan: Plan) -> dict[str, Any]:
    """What makes a plan's games: every field but the engine check of the tests."""
    fields = dataclasses.asdict(plan)
    fields.pop("checked")
    fields["styles"] = list(plan.styles)
    return fields


class Store:
    """A lab store open for writing one plan's games, or for reading them (`read`)."""

    def __init__(self, path: Path, plan: Plan | None = None, command: str = "") -> None:
        self.path = path
        new = not path.exists() or path.stat().st_size == 0
        if plan is None and new:
            raise StoreError(f"{path} does not exist")
        self.db = sqlite3.connect(path, isolation_level=None)
        try:
            self._check(new)
            if new and plan is not None:
                self._create(plan, command)
            self.plan, self.command = self._read_plan()
            if plan is not None:
                self._same(plan)
        except BaseException:
            self.db.close()
            raise
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        if plan is not None:
            self.db.execute(THINKING)
        self._games: list[tuple[Any, ...]] = []
        self._seats: list[tuple[Any, ...]] = []
        self._thinking: list[tuple[int, int, float]] = []
        self._since = time.monotonic()

    def _check(self, new: bool) -> None:
        try:
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path} is not an SQLite file ({e})") from e
        if not new and (version != VERSION or not {"plan", "games", "seats"} <= tables):
            raise StoreError(f"{self.path} is not a lab store of this version "
                             f"(user_version {version}, expected {VERSION})")

    def _create(self, plan: Plan, command: str) -> None:
        with self.db:  # (the script's BEGIN: executescript would commit one begun before)
            self.db.executescript("BEGIN;\n" + SCHEMA)
            self.db.executemany("INSERT INTO plan VALUES (?, ?)", [
                ("plan", json.dumps(plan_fields(plan))), ("command", command)])
            self.db.execute(f"PRAGMA user_version = {VERSION}")

    def _read_plan(self) -> tuple[Plan, str]:
        meta = dict(self.db.execute("SELECT key, value FROM plan"))
        fields = json.loads(meta["plan"])
        return Plan(**{**fields, "styles": tuple(fields["styles"])}), meta.get("command", "")

    def _same(self, plan: Plan) -> None:
        theirs, ours = plan_fields(self.plan), plan_fields(plan)
        differ = [f"{k} {theirs[k]!r} there, {ours[k]!r} here"
                  for k in ours if theirs.get(k) != ours[k]]
        if differ:
            raise StoreError(f"{self.path} holds the games of another plan ({'; '.join(differ)})"
                             ": run the same options again to resume it, or give another file")

    def games(self) -> int:
        """The games on disk."""
        return int(self.db.execute("SELECT count(*) FROM games").fetchone()[0])

    def missing(self) -> list[tuple[int, int]]:
        """The plan's games not on disk, as ranges (start, stop) in order. A run commits whole
        chunks, so the gaps are few: the chunks in flight when it stopped, and the rest."""
        gaps, expected = [], 0
        for (game,) in self.db.execute("SELECT game FROM games ORDER BY game"):
            if game > expected:
                gaps.append((expected, game))
            expected = game + 1
        if expected < self.plan.games:
            gaps.append((expected, self.plan.games))
        return gaps

    def add(self, start: int, records: Iterable[GameRecord]) -> None:
        """Games `start`, `start + 1`, ... of the plan; on disk at the next batch's commit."""
        for i, r in enumerate(records, start):
            self._games.append(game_row(self.plan.seed, i, r))
            self._seats.extend(seat_rows(i, r))
            if "strong" in r:
                self._thinking.append((i, *r["strong"]))
        if (len(self._games) >= min(BATCH_GAMES, max(1, self.plan.games // 20))
                or time.monotonic() - self._since >= BATCH_SECONDS):
            self.flush()

    def flush(self) -> None:
        """Commit the games added so far in one transaction."""
        games, seats, thinking = self._games, self._seats, self._thinking
        self._games, self._seats, self._thinking = [], [], []  # (cut short: played again)
        if games:
            with self.db:
                self.db.execute("BEGIN")
                self.db.executemany(f"INSERT INTO games VALUES ({', '.join('?' * 12)})",
                                    games)
                self.db.executemany(f"INSERT INTO seats VALUES ({', '.join('?' * 12)})",
                                    seats)
                self.db.executemany("INSERT INTO thinking VALUES (?, ?, ?)", thinking)
        self._since = time.monotonic()

    def strong_speed(self) -> dict[str, float] | None:
        """The strong bots' decisions, the CPU seconds they took and so their decisions a
        second, over the stored games that had them (None: none had, or an older store)."""
        try:
            decisions, seconds = self.db.execute(
                "SELECT sum(decisions), sum(seconds) FROM thinking").fetchone()
        except sqlite3.OperationalError:  # (a store written before the table was)
            return None
        if not decisions or not seconds:
            return None
        return {"decisions": decisions, "cpu_seconds": round(seconds, 3),
                "decisions_per_second": round(decisions / seconds, 2)}

    def close(self) -> None:
        self.flush()
        self.db.close()


def game_row(seed: int, i: int, r: GameRecord) -> tuple[Any, ...]:
    seats = r["seats"]
    return (i, seed, len(seats), ",".join(s["style"] for s in seats),
            ",".join(s["power"] or "" for s in seats),
            ",".join(str(w + 1) for w in r["winners"]), len(r["winners"]), r["end"],
            int(r["bonus_decided"]), r["rounds"], r["actions"],
            sum(not s["alive"] for s in seats))


def seat_rows(i: int, r: GameRecord) -> list[tuple[Any, ...]]:
    won = set(r["winners"])
    return [(i, seat + 1, s["style"], s["power"], int(s["alive"]), s["wounds"], s["total"],
             int(s["bonus"]), s["died"], s["godfather"], s["tokens"], int(seat in won))
            for seat, s in enumerate(r["seats"])]
