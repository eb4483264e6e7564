"""`companion demo --manual` after the bot demo: the bots' unfinished game is not taken
over silently; the person at the terminal, or --resume / --new, decides."""

from __future__ import annotations

import subprocess
import sys

import pytest
from local_table import NAMES8, LocalPort

from companion.demo_cmd import keep_or_end
from companion.referee.journal import Journal


@pytest.fixture
def unfinished(tmp_path):
    """A journal whose last game was left in round 1, as the bot demo leaves it."""
    path = tmp_path / "journal.sqlite3"
    port = LocalPort(path)
    port.do("new_game", players=NAMES8[:4], powers="none", seed=1)
    port.table.journal.close()
    return path


def finished(path) -> bool:
    journal = Journal(path)
    try:
        return journal.latest_game()[1]
    finally:
        journal.close()


def test_the_person_at_the_terminal_is_asked(unfinished):
    asked = []
    assert keep_or_end(unfinished, False, False, lambda q: asked.append(q) or "y")
    assert "Game 1" in asked[0] and "unfinished" in asked[0] and not finished(unfinished)
    assert keep_or_end(unfinished, False, False, lambda _q: "n")
    assert finished(unfinished)
    assert keep_or_end(unfinished, False, False, lambda _q: pytest.fail("asked again"))


def test_the_flags_decide_without_asking(unfinished):
    never = lambda _q: pytest.fail("asked")  # noqa: E731
    assert keep_or_end(unfinished, True, False, never) and not finished(unfinished)
    assert keep_or_end(unfinished, False, True, never) and finished(unfinished)


def test_without_a_terminal_or_a_flag_the_demo_says_what_to_do(unfinished, tmp_path):
    done = subprocess.run([sys.executable, "-m", "companion.cli", "demo", "--manual",
                           "--journal", str(unfinished), "--port", "0"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert "game 1" in done.stdout and "--resume" in done.stdout and "--new" in done.stdout
    assert "Traceback" not in done.stderr and not finished(unfinished)
