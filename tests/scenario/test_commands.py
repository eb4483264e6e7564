"""`companion simulate` and `companion demo` as a user runs them."""

from __future__ import annotations

import re
import subprocess
import sys


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_simulate_reports_speed_rounds_deaths_and_power_win_rates():
    run = companion("simulate", "--games", "40", "--players", "8", "--seed", "3", "--powers")
    assert run.returncode == 0, run.stderr
    assert re.search(r"^40 games of 8 players with powers in [\d.]+ s: \d+ games/s", run.stdout,
                     re.M)
    rounds = float(re.search(r"average rounds ([\d.]+)", run.stdout).group(1))
    assert 1 <= rounds <= 8
    assert re.search(r"deaths per game [\d.]+", run.stdout)
    rates = re.findall(r"^  (\w+) +([\d.]+)%  \((\d+) games\)$", run.stdout, re.M)
    assert len(rates) == 16 and sum(int(n) for _, _, n in rates) == 40 * 8


def test_simulate_is_repeatable_from_its_seed():
    a = companion("simulate", "--games", "10", "--seed", "9", "--powers").stdout.splitlines()[1:]
    b = companion("simulate", "--games", "10", "--seed", "9", "--powers").stdout.splitlines()[1:]
    assert a == b


def test_simulate_refuses_bad_arguments():
    assert companion("simulate", "--players", "9").returncode == 2
    assert companion("simulate", "--games", "0").returncode == 2


def test_demo_tells_a_whole_game():
    run = companion("demo", "--pace", "0", "--seed", "5", "--players", "5")
    assert run.returncode == 0, run.stderr
    assert "Round 1: Ana is the Godfather." in run.stdout
    assert "Game over:" in run.stdout and "Final count:" in run.stdout
