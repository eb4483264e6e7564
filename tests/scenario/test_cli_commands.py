"""`companion simulate` and `companion demo` as a user runs them."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def companion(*args: str, timeout: float = 100) -> subprocess.CompletedProcess[str]:
    """Run the command; if it outlives the test's time, fail with what it printed so far."""
    try:
        return subprocess.run([sys.executable, "-m", "companion.cli", *args],
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as e:
        out, err = (x.decode(errors="replace") if isinstance(x, bytes) else x or ""
                    for x in (e.stdout, e.stderr))
        pytest.fail(f"companion {' '.join(args)} did not end in {timeout:.0f} s\n"
                    f"stdout:\n{out[-3000:]}\nstderr:\n{err[-3000:]}")


SIM_HAND = "hand: {offset_deg: 3, feedback: true}"


def demo_config(tmp_path: Path, port: int) -> Path:
    """The simulated table's config on a free broker port, counting fast: the countdown at
    its shortest beats, an aim counted once held 100 ms (the least the config takes) and
    ideal hands that turn at once. Every aim still goes through the hub firmware's slots and
    the lock; how long a person's hand takes to find a badge is the aim bench's business
    (tests/tablesim), not the demo's."""
    sim = (ROOT / "config" / "table.sim.yaml").read_text()
    assert SIM_HAND in sim, "the simulated table's config changed its hands"
    sim = sim.replace("sensors:\n", "sensors:\n  filters: {hold_ms: 100}\n", 1)
    sim = sim.replace(SIM_HAND, "hand: {ideal: true}")
    fast = ("referee:\n  timing: {beat_ms: 200, hold_ms: 150, too_slow_ms: 400, "
            "settle_ms: 150, posture_ms: 300}\n")
    config = tmp_path / "demo.yaml"
    config.write_text(sim + f"mqtt: {{embedded_port: {port}}}\n" + fast)
    return config


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


@pytest.mark.timeout(300)
def test_demo_plays_a_whole_game_on_a_simulated_table(tmp_path, unused_port):
    config = demo_config(tmp_path, unused_port)
    run = companion("demo", "--config", str(config), "--games", "1", "--pace", "0",
                    "--port", "0", "--players", "4", "--journal", str(tmp_path / "j.sqlite3"),
                    timeout=240)  # a whole game through the sensors, on a busy machine too
    told = f"stdout:\n{run.stdout[-2000:]}\nstderr:\n{run.stderr[-2000:]}"
    assert run.returncode == 0, told
    assert "Cash 'n Guns demo table on http://" in run.stdout, told
    assert "Round 1: Ana is the Godfather." in run.stdout, told
    assert "Game over:" in run.stdout, told
    rounds = len(re.findall(r"^Round \d+:", run.stdout, re.M))
    too_slow = run.stdout.count(" was too slow.")  # at most a tenth of the bots' aims
    assert too_slow < 4 * rounds, told  # some aim was read through the hub's slots
    assert re.search(r"^Bots play with --seed \d+\.$", run.stdout, re.M), told


def test_the_demo_seats_eight_bots_with_the_styles_asked_for(tmp_path, unused_port):
    """Eight seats, the styles given: the first round is played by all eight, then Ctrl-C."""
    config = demo_config(tmp_path, unused_port)
    demo = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "demo", "--config", str(config), "--pace", "0",
         "--port", "0", "--players", "8", "--bots", "aggressive,greedy",
         "--journal", str(tmp_path / "j.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        for line in demo.stdout:  # type: ignore[union-attr]
            lines.append(line)
            if line.startswith("Round 2:"):
                break
    finally:
        demo.send_signal(signal.SIGINT)
        rest, _ = demo.communicate(timeout=30)
    told = "".join(lines) + rest
    assert demo.returncode == 0, told
    assert "Their styles: seat 1 aggressive, seat 2 greedy, seat 3 aggressive" in told, told
    assert "seat 8 greedy." in told, told
    round_1 = told[told.index("Round 1:"):told.index("Round 2:")]
    for name in ("Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"):
        assert name in round_1, (name, told)


def test_the_demo_refuses_an_unknown_bot_style(tmp_path, unused_port):
    run = companion("demo", "--config", str(demo_config(tmp_path, unused_port)),
                    "--bots", "cautious,sneaky")
    assert run.returncode == 2
    assert "unknown bot style 'sneaky'" in run.stdout + run.stderr


@pytest.mark.timeout(300)
def test_the_demo_goes_on_with_a_game_left_in_its_journal(tmp_path, unused_port):
    from companion.clock import SYSTEM_CLOCK
    from companion.referee.commands import Auth
    from companion.referee.journal import Journal
    from companion.referee.settings import RefereeSettings
    from companion.referee.table import Table

    journal = tmp_path / "demo.sqlite3"
    left = Table("demo", RefereeSettings(), Journal(journal), SYSTEM_CLOCK)  # a demo stopped
    left.command({"type": "new_game", "version": left.version, "seed": 4, "powers": "none",
                  "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    left.journal.close()
    config = demo_config(tmp_path, unused_port)
    run = companion("demo", "--config", str(config), "--games", "1", "--pace", "0",
                    "--port", "0", "--journal", str(journal), timeout=240)
    told = f"stdout:\n{run.stdout[-2000:]}\nstderr:\n{run.stderr[-2000:]}"
    assert run.returncode == 0, told
    assert f"game 1 resumed from {journal}" in run.stdout, told
    assert "Game over:" in run.stdout, told
    again = Journal(journal)
    assert again.latest_game() == (1, True)  # that game, played to its end: no new one
