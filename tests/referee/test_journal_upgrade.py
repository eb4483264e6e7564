"""Upgrades that keep the game: a journal of the previous release opened, migrated and played
on; a failed migration or a newer journal leaves the file as it was; finished games kept
up to `keep_games`."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from local_table import NAMES8, LocalPort

from companion.bots.table_bot import TableBot
from companion.referee import journal_schema
from companion.referee.journal import Journal, JournalError
from companion.rules.actions import Choose

FIXTURES = Path(__file__).parent / "fixtures"
OLD = FIXTURES / "journal-b475e92.sqlite3"  # written by make_journal_b475e92.py


@pytest.fixture
def old_journal(tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite3"
    shutil.copyfile(OLD, path)
    return path


def version_and_columns(path: Path) -> tuple[int, list[str]]:
    db = sqlite3.connect(path)
    try:
        return (db.execute("PRAGMA user_version").fetchone()[0],
                [row[1] for row in db.execute("PRAGMA table_info(game)")])
    finally:
        db.close()


def test_the_previous_releases_journal_is_upgraded_and_its_game_resumed_and_finished(
        old_journal):
    assert version_and_columns(old_journal) == (0, ["id", "created_ms", "setup", "finished"])
    port = LocalPort(old_journal)
    assert version_and_columns(old_journal)[0] == journal_schema.VERSION
    seen = json.loads((FIXTURES / "journal-b475e92.json").read_text())
    state = port.control()
    assert {k: state[k] for k in ("round", "phase", "godfather", "winners")} == \
        {k: seen[k] for k in ("round", "phase", "godfather", "winners")}
    assert [{k: p[k] for k in ("name", "alive", "wounds")} for p in state["players"]] == \
        seen["players"]
    games = port.table.journal.games()
    assert [(g, finished) for g, finished, _ in games] == [(1, True), (2, False)]
    last_action = port.table.journal.entries(1)[-1].at_ms
    assert games[0][2] == last_action  # the finished game ends at its last action
    final = TableBot(port, random.Random(5)).play()
    assert final["phase"] == "over" and final["winners"]
    assert port.table.journal.games()[1][1]  # finished, once over
    port.table.journal.close()
    reopened = LocalPort(old_journal)  # opened again: nothing left to upgrade
    assert reopened.control()["phase"] == "over"


def test_export_reads_the_previous_releases_journal(old_journal):
    done = subprocess.run([sys.executable, "-m", "companion.cli", "export", "--journal",
                           str(old_journal), "--game", "1"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "players:" in done.stdout


def test_a_migration_that_fails_leaves_the_journal_as_it_was(old_journal, monkeypatch):
    before = old_journal.read_bytes()
    real_step = journal_schema.STEPS[1]

    def step_then_fail(db: sqlite3.Connection) -> None:
        real_step(db)  # the column is added, then the card fails
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setitem(journal_schema.STEPS, 1, step_then_fail)
    with pytest.raises(JournalError, match=r"cannot write the game journal .*disk I/O error; "
                                           r"the journal was not upgraded and is unchanged"):
        Journal(old_journal)
    assert old_journal.read_bytes() == before
    monkeypatch.setitem(journal_schema.STEPS, 1, real_step)
    assert Journal(old_journal).latest_game() == (2, False)  # the next start upgrades it


def test_a_journal_from_a_newer_companion_is_refused_with_a_sentence(old_journal):
    db = sqlite3.connect(old_journal)
    db.execute(f"PRAGMA user_version = {journal_schema.VERSION + 1}")
    db.close()
    before = old_journal.read_bytes()
    with pytest.raises(JournalError) as refused:
        Journal(old_journal)
    assert str(refused.value) == (
        f"cannot open the game journal {old_journal}: it was written by a newer companion "
        f"(journal version {journal_schema.VERSION + 1}; this one reads up to version "
        f"{journal_schema.VERSION}): upgrade the companion, or point referee.journal at "
        "another file")
    assert old_journal.read_bytes() == before


def test_another_sqlite_file_is_not_taken_for_a_journal(tmp_path):
    path = tmp_path / "photos.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photo (id INTEGER PRIMARY KEY)")
    db.close()
    with pytest.raises(JournalError, match=r"it is not a game journal \(it holds the tables "
                                           r"photo\)"):
        Journal(path)


def play_short_game(journal: Journal, at_ms: float) -> int:
    game = journal.new_game({"players": NAMES8[:4]}, at_ms)
    for i in range(20):
        journal.record(game, Choose(NAMES8[i % 4], card="bang"), "tablet", at_ms + i)
    return game


def test_only_the_newest_finished_games_are_kept_and_the_file_stops_growing(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path, keep_games=3)
    sizes = []
    for n in range(24):
        game = play_short_game(journal, n * 1000.0)
        journal.finish(game)
        sizes.append(journal._db.execute("PRAGMA page_count").fetchone()[0])
    current = play_short_game(journal, 99_000.0)  # in play: never deleted
    assert [(g, f) for g, f, _ in journal.games()] == \
        [(22, True), (23, True), (24, True), (current, False)]
    assert [len(journal.entries(g)) for g in (22, 23, 24, current)] == [20] * 4
    assert journal.entries(5) == []  # a deleted game's actions went with it
    assert set(sizes[12:]) == {sizes[12]}, sizes  # freed pages are reused: it stops growing
    journal.close()
    assert len(Journal(path, keep_games=1).games()) == 2  # a lower setting applies at start


def test_keep_games_zero_keeps_every_game_and_the_journal_grows(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3", keep_games=0)
    sizes = []
    for n in range(24):
        journal.finish(play_short_game(journal, n * 1000.0))
        sizes.append(journal._db.execute("PRAGMA page_count").fetchone()[0])
    assert len(journal.games()) == 24 and sizes[-1] > sizes[12]
