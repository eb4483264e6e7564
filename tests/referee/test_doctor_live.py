"""`companion doctor` against a running `companion run`: it reads the live table and answers
while the referee probes its broker every 0.2 s and a game is under way."""

from __future__ import annotations

import random
import subprocess
import sys
import time

from companion.bots.table_bot import TableBot

NAMES = ["Ana", "Bob", "Cyd", "Dee"]


def test_doctor_answers_on_a_live_table(remote):
    table = remote(4)
    TableBot(table, random.Random(3)).new_game(NAMES)
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "companion.cli", "doctor", "--config",
                           str(table.config)], capture_output=True, text=True, timeout=20)
    took = time.monotonic() - began
    assert "live state from the running sensor bridge" in done.stdout, done.stdout + done.stderr
    assert done.returncode in (0, 1), done.stderr  # 1: something missing (no service here)
    for seat in range(1, 5):
        assert f"seat {seat}" in done.stdout
    print(f"companion doctor on a live table: {took:.2f} s")
