"""The balance lab: its figures, its endings, and runs that repeat whatever the processes."""

from __future__ import annotations

import json
import os
import pty
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from companion.bots import lab
from companion.bots.lab_stats import wilson
from companion.bots.strong import StrongBot
from companion.rules import Setup, new_game
from companion.rules.scoring import finish, scores

ROOT = Path(__file__).resolve().parents[2]


def simulate(*args: str, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", "simulate", *args],
                          capture_output=True, text=True, timeout=110, check=False, **kw)


def test_wilson_intervals_match_the_textbook():
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)


def finished(loot: dict[str, list[str]], wounds: dict[str, int] | None = None,
             dead: tuple[str, ...] = ()):
    s = new_game(Setup(players=("Ana", "Bob", "Cyd", "Dee"), seed=1))
    for p in s.players:
        p.loot = loot.get(p.name, [])
        p.wounds = (wounds or {}).get(p.name, 0)
        p.alive = p.name not in dead
    finish(s)
    counted = scores(s)  # (the whole count of R15: each total, and who has the bonus)
    bonus = next((p for p, c in zip(s.players, counted, strict=True) if c["diamond_bonus"]),
                 None)
    return s, [c["total"] for c in counted], bonus


def test_endings_say_what_decided_the_game():
    s, totals, bonus = finished({"Ana": ["bill20000"], "Bob": ["bill5000"]})
    assert lab.ending(s, totals) == "richest" and not lab.bonus_decided(s, totals, bonus)
    s, totals, bonus = finished({"Ana": ["bill10000"], "Bob": ["bill10000"]}, {"Bob": 1})
    assert s.winners == ["Bob"] and lab.ending(s, totals) == "tiebreak"
    s, totals, bonus = finished({"Ana": ["bill10000"], "Bob": ["bill10000"]})
    assert lab.ending(s, totals) == "shared"
    s, totals, bonus = finished({}, dead=("Ana", "Bob", "Cyd"))
    assert lab.ending(s, totals) == "last_standing"


def test_the_diamond_bonus_decides_a_game_only_when_it_changes_the_winner():
    # Bob is richer in bills, Ana's lone diamond brings $60k: she wins because of it
    s, totals, bonus = finished({"Ana": ["diamond1000"], "Bob": ["bill20000", "bill20000"]})
    assert s.winners == ["Ana"] and lab.bonus_decided(s, totals, bonus)
    # Ana would have won anyway
    s, totals, bonus = finished({"Ana": ["diamond1000", "bill20000"], "Bob": ["bill5000"]})
    assert s.winners == ["Ana"] and not lab.bonus_decided(s, totals, bonus)


def test_a_run_repeats_whatever_the_number_of_processes():
    plan = lab.Plan(games=10, players=4, styles=("strong", "cautious", "aggressive", "greedy",
                                                 "vengeful", "random"), seed=7, playouts=2)
    one = lab.run(plan, jobs=1)
    assert untimed(lab.run(plan, jobs=2)) == untimed(one)
    assert untimed(lab.run(plan, jobs=3)) == untimed(one)
    assert len(one) == 10 and {s["style"] for r in one for s in r["seats"]} == set(plan.styles)
    other = lab.run(lab.Plan(**{**plan.__dict__, "seed": 8}), jobs=2)
    assert untimed(other) != untimed(one)


def untimed(records: list[lab.GameRecord]) -> list[lab.GameRecord]:
    """The records less the CPU seconds the strong bots took (their decisions stay)."""
    return [{**r, "strong": r["strong"][0]} if "strong" in r else r for r in records]


class Counted(StrongBot):
    """The strong bot, each decision it is asked for counted here, apart from its own count."""

    asked = 0

    def decide(self, view, options):
        Counted.asked += 1
        return super().decide(view, options)


def test_the_summary_gives_the_strong_bots_decisions_a_second_measured_in_the_run(
        tmp_path, monkeypatch):
    args = ("--games", "2", "--players", "4", "--bots", "strong,random", "--playouts", "2",
            "--seed", "5")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = simulate(*args, "--jobs", "1", "--json", str(tmp_path / "lab.json"))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert run.returncode == 0, run.stderr
    strong = json.loads((tmp_path / "lab.json").read_text())["strong_bot"]

    monkeypatch.setitem(lab.STYLES, "strong", Counted)  # the same games, played here
    plan = lab.Plan(games=2, players=4, styles=("strong", "random"), seed=5, powers=False,
                    playouts=2)
    for i in range(2):
        lab.play_game(plan, i)
    assert strong["decisions"] == Counted.asked > 0
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert 0 < strong["cpu_seconds"] < cpu
    assert strong["decisions_per_second"] == pytest.approx(
        strong["decisions"] / strong["cpu_seconds"], rel=0.01)
    assert (f"strong bot: {strong['decisions_per_second']:.1f} decisions a second "
            f"({strong['decisions']} decisions in") in run.stdout


def test_a_summary_without_strong_bots_gives_no_decisions_a_second(tmp_path):
    run = simulate("--games", "3", "--players", "4", "--jobs", "1", "--json",
                   str(tmp_path / "lab.json"))
    assert run.returncode == 0, run.stderr
    assert "strong_bot" not in json.loads((tmp_path / "lab.json").read_text())
    assert "strong bot:" not in run.stdout


def test_a_run_in_one_process_loads_neither_processes_nor_the_report(tmp_path):
    """What a run does not use is not imported: its CPU time is the games' (10 ms for
    multiprocessing, 7 ms for the report's page at each run otherwise)."""
    script = ("import sys; from companion.cli import main; main(sys.argv[1:]); "
              "print(sorted(m for m in ('multiprocessing', 'companion.bots.lab_report') "
              "if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", script, "simulate", "--games", "2",
                          "--jobs", "1", "--json", str(tmp_path / "lab.json")],
                         capture_output=True, text=True, timeout=110, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "[]"
    assert (tmp_path / "lab.json").exists()


def test_the_command_writes_the_same_data_with_one_process_or_two(tmp_path):
    args = ("--games", "24", "--players", "5", "--powers", "--seed", "4",
            "--bots", "random,cautious,aggressive,greedy,vengeful")
    runs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"lab{jobs}.json"
        run = simulate(*args, "--jobs", jobs, "--json", str(out))
        assert run.returncode == 0, run.stderr
        runs.append(json.loads(out.read_text()))
    assert runs[0].pop("command") != runs[1].pop("command")  # (the file named differs)
    assert runs[0] == runs[1]
    data = json.loads((tmp_path / "lab2.json").read_text())
    assert data["command"] == ("companion simulate --games 24 --players 5 --bots "
                               "random,cautious,aggressive,greedy,vengeful --seed 4 --powers "
                               f"--json {tmp_path / 'lab2.json'}")
    assert sum(r["n"] for r in data["by_style"]) == 24 * 5
    assert sum(r["wins"] for r in data["by_seat"]) == pytest.approx(
        24 - data["decided_by"]["endings"][-1]["games"])
    assert "win rate per bot style (95 % interval):" in run.stdout


def test_bad_arguments_are_refused_with_a_sentence(tmp_path):
    for args, words in [
        (("--bots", "random,sneaky"), "--bots: unknown bot style 'sneaky' (known: random,"),
        (("--jobs", "0"), "--jobs must be at least 1"),
        (("--report", str(tmp_path / "nowhere" / "r.html")), "--report: the folder"),
        (("--bots", "strong", "--cards", "physical"), "strong bot plays with digital cards"),
        (("--playouts", "0"), "--playouts must be at least 1"),
    ]:
        run = simulate("--games", "2", *args)
        assert run.returncode == 2 and words in run.stderr, (args, run.stderr)
        assert run.stdout == ""


def test_progress_is_plain_lines_in_a_log_and_a_bar_with_an_eta_on_a_terminal(tmp_path):
    run = simulate("--games", "20", "--jobs", "1")
    lines = run.stderr.splitlines()
    assert lines[-1].startswith("simulate: 20/20 games (100 %)") and "ETA" in lines[0]
    assert all(line.startswith("simulate: ") for line in lines)

    master, slave = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "companion.cli", "simulate", "--games",
                               "20", "--jobs", "1"], stdout=subprocess.PIPE, stderr=slave,
                              timeout=110, check=True)
        os.close(slave)
        shown = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal's other end is closed: all was read
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(master)
    text = shown.decode()
    assert "\r[" in text and "20/20 games" in text and "ETA" in text
    assert "simulate: " not in text
    assert proc.stdout.startswith(b"20 games of 5 players")
