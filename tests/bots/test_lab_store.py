"""The lab's store: memory that does not grow with the run, runs that resume after a kill to
the very games of an uninterrupted run, another plan refused, the report rebuilt from disk."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import wait_for

from companion.bots import lab
from companion.bots.lab import Plan
from companion.bots.lab_cluster import IN_FLIGHT_PER_THREAD
from companion.bots.lab_store import BATCH_GAMES, BATCH_SECONDS, Store

SIMULATE = [sys.executable, "-m", "companion.cli", "simulate"]
PLAN = ("--games", "1000", "--players", "4", "--seed", "11", "--powers")

ROOT = Path(__file__).resolve().parents[2]


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SIMULATE, *args], capture_output=True, text=True, timeout=600,
                          check=False)


def rows(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every game and seat a store holds, in key order."""
    with sqlite3.connect(path) as db:
        return (db.execute("SELECT * FROM games ORDER BY game").fetchall(),
                db.execute("SELECT * FROM seats ORDER BY game, seat").fetchall())


def held(path: Path) -> int:
    """Games committed to a store another process writes (0 before it exists)."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


@pytest.mark.timeout(900)  # (9,000 games, on a machine shared and busy)
def test_resident_memory_is_the_same_for_a_thousand_games_and_for_eight_thousand(tmp_path):
    # the records alone took 4 KiB a game when they were held: 7,000 more games were 27 MiB
    # (each run in its own interpreter, as docs/PERFORMANCE.md measures it)
    bench = subprocess.run([sys.executable, str(ROOT / "bench" / "lab_memory.py"), "1000",
                            "8000"], capture_output=True, text=True, timeout=880, check=True)
    rows = [line.split("|") for line in bench.stdout.splitlines()[2:]]
    assert [r[1].strip() for r in rows] == ["1,000", "8,000"]
    small, large = (float(r[2].split()[0]) for r in rows)
    assert small > 0 and abs(large - small) < 10, bench.stdout


@pytest.mark.timeout(900)
def test_a_run_killed_halfway_resumes_to_the_games_of_an_uninterrupted_run(tmp_path):
    whole = tmp_path / "whole.sqlite3"
    assert simulate(*PLAN, "--jobs", "1", "--out", str(whole)).returncode == 0
    cut = tmp_path / "cut.sqlite3"
    command = [*SIMULATE, *PLAN, "--jobs", "2", "--out", str(cut)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: held(cut) >= 500 or proc.poll() is not None, timeout=300,
                 what="half the games on disk")
        proc.kill()  # kill -9: nothing of the run's own gets to run
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    stopped_at = held(cut)
    assert 500 <= stopped_at < 1000

    resumed = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming with {stopped_at:,} of 1,000 games on disk" in resumed.stderr
    assert "(resumed: " in resumed.stdout
    assert rows(cut) == rows(whole)


def test_sigterm_stops_a_run_with_its_games_on_disk_and_says_how_to_go_on(tmp_path):
    out = tmp_path / "lab.sqlite3"
    proc = subprocess.Popen([*SIMULATE, *PLAN, "--jobs", "1", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: held(out) >= 100 or proc.poll() is not None, timeout=300,
                 what="games on disk")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    games = held(out)
    assert (f"stopped with {games:,} of 1,000 games on disk; the same command resumes the run "
            f"into {out}") in err


def test_another_plan_in_the_same_file_is_refused_with_a_sentence(tmp_path):
    out = tmp_path / "lab.sqlite3"
    assert simulate("--games", "10", "--players", "4", "--out", str(out)).returncode == 0
    before = rows(out)
    run = simulate("--games", "12", "--players", "4", "--powers", "--out", str(out))
    assert run.returncode == 2 and run.stdout == ""
    assert (f"--out: {out} holds the games of another plan (games 10 there, 12 here; powers "
            "False there, True here): run the same options again to resume it, or give "
            "another file") in run.stderr
    assert rows(out) == before
    not_a_store = tmp_path / "notes.sqlite3"
    not_a_store.write_text("shopping list\n")
    run = simulate("--games", "10", "--out", str(not_a_store))
    assert run.returncode == 2 and f"--out: {not_a_store} is not an SQLite file" in run.stderr
    assert not_a_store.read_text() == "shopping list\n"


def test_the_report_is_rebuilt_from_the_store_alone(tmp_path):
    out = tmp_path / "lab.sqlite3"
    run = simulate("--games", "40", "--players", "6", "--powers", "--seed", "2",
                   "--bots", "random,cautious,greedy", "--out", str(out),
                   "--json", str(tmp_path / "run.json"))
    assert run.returncode == 0, run.stderr
    again = simulate("--report-only", str(out), "--report", str(tmp_path / "again.html"))
    assert again.returncode == 0, again.stderr
    assert json.loads((tmp_path / "again.json").read_text()) == json.loads(
        (tmp_path / "run.json").read_text())
    assert "40 games of 6 players with powers" in (tmp_path / "again.html").read_text()
    # the summary's figures, without a speed: nothing was played
    assert again.stdout.splitlines()[0] == "40 games of 6 players with powers"
    assert figures(again.stdout) == figures(run.stdout)


def figures(summary: str) -> list[str]:
    return [line for line in summary.splitlines()[1:] if " written to " not in line]


def test_a_store_still_being_played_is_reported_for_the_games_it_holds(tmp_path):
    out = tmp_path / "lab.sqlite3"
    plan = Plan(games=30, players=4, styles=("random",), seed=5)
    store = Store(out, plan, "companion simulate --games 30 --seed 5 --out lab.sqlite3")
    store.add(0, lab.run(Plan(**{**plan.__dict__, "games": 12}), jobs=1))
    store.close()
    run = simulate("--report-only", str(out), "--json", str(tmp_path / "part.json"))
    assert run.returncode == 0, run.stderr
    assert (f"{out} holds 12 of 30 games, the figures are of those; its command plays the "
            "rest: companion simulate --games 30 --seed 5 --out lab.sqlite3") in run.stderr
    data = json.loads((tmp_path / "part.json").read_text())
    assert data["plan"]["games"] == 12 and sum(r["n"] for r in data["by_seat"]) == 12 * 4

    empty = tmp_path / "empty.sqlite3"
    Store(empty, plan).close()
    run = simulate("--report-only", str(empty))
    assert run.returncode == 2 and f"--report-only: {empty} holds no game yet" in run.stderr
    run = simulate("--report-only", str(tmp_path / "none.sqlite3"))
    assert run.returncode == 2 and "none.sqlite3 does not exist" in run.stderr


def test_the_documented_batches_are_the_stores():
    doc = " ".join((ROOT / "docs" / "BOTS.md").read_text().split())
    assert (f"committed in transactions of at most {BATCH_GAMES:,} games, a twentieth of the "
            f"run, or {BATCH_SECONDS:.0f} seconds' worth") in doc
    assert f"with at most {IN_FLIGHT_PER_THREAD} a worker thread in flight" in doc
