"""Storms of stop signals sent to a real process, and what a clean stop leaves behind."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

STOP_WITHIN_S = 10.0


def storm(command: list[str], rnd: random.Random, log: Path) -> tuple[float, int]:
    """Start the command, wait a random moment, then send it a storm of stop signals until it
    ends; how long it took from the first signal, and its exit code."""
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "companion.cli", *command],
                                stdout=out, stderr=subprocess.STDOUT)
        time.sleep(rnd.uniform(0.0, 4.0))  # any moment: while importing, starting, running
        first = time.monotonic()
        try:
            while proc.poll() is None and time.monotonic() - first < STOP_WITHIN_S:
                with contextlib.suppress(ProcessLookupError):  # it ended in the storm
                    for _ in range(rnd.randint(1, 300)):  # as fast as they can be sent
                        os.kill(proc.pid, rnd.choice((signal.SIGINT, signal.SIGTERM)))
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(rnd.uniform(0.0, 0.3))
            took = time.monotonic() - first
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return took, proc.returncode


def assert_closed_cleanly(journal: Path) -> None:
    if not journal.exists():  # stopped before it was opened
        return
    assert not Path(f"{journal}-wal").exists(), "the journal was left open"
    with sqlite3.connect(journal) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
