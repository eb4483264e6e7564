"""`companion simulate`: the balance lab. Whole games between bots on every core, a summary,
and on request one self-contained HTML report and its data as JSON (docs/BOTS.md)."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from companion.bots import lab
from companion.bots.lab_report import page
from companion.bots.lab_stats import style_summaries, summarize
from companion.bots.strong import PLAYOUTS

HELP = "play whole games between bots: a summary, or the balance lab's report (--report)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=5, choices=range(4, 9), metavar="{4..8}",
                        help="players at the table (default 5)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the run's seed: the same seed plays the same games (default 0)")
    parser.add_argument("--powers", action="store_true", help="deal a random power to each")
    parser.add_argument("--cards", choices=("digital", "physical"), default="digital",
                        help="bullet cards kept by the companion, or real ones (not for the "
                             "strong bot, which reasons on the hands)")
    parser.add_argument("--bots", default="random", metavar="STYLES",
                        help="bot styles by seat, comma-separated, turning one seat each game: "
                             f"{', '.join(lab.STYLES)} (default random)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes to play on (default: one per core)")
    parser.add_argument("--playouts", type=int, metavar="N",
                        help="the strong bot's playouts per decision (default "
                             f"{PLAYOUTS})")
    parser.add_argument("--report", type=Path, metavar="FILE.html",
                        help="write the lab's HTML report (and its data as JSON beside it)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the data as JSON here")


class Progress:
    """A bar with an ETA on a terminal; a plain line every 10 % when stderr is not one."""

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.start = time.monotonic()
        self.shown = -1

    def update(self, done: int) -> None:
        elapsed = time.monotonic() - self.start
        eta = elapsed * (self.total - done) / done if done else 0.0
        percent = done * 100 // self.total
        if self.live:
            bar = "#" * (done * 30 // self.total)
            print(f"\r[{bar:<30}] {done}/{self.total} games  {elapsed:.0f} s  "
                  f"ETA {_duration(eta)}  ", end="", file=self.stream, flush=True)
            if done == self.total:
                print(file=self.stream)
        elif percent // 10 != self.shown:
            self.shown = percent // 10
            print(f"simulate: {done}/{self.total} games ({percent} %), {elapsed:.0f} s, "
                  f"ETA {_duration(eta)}", file=self.stream, flush=True)


def _duration(seconds: float) -> str:
    minutes, s = divmod(int(seconds + 0.5), 60)
    return f"{minutes} min {s:02d} s" if minutes else f"{s} s"


def _problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments, in a sentence, or None."""
    if args.games < 1:
        return "--games must be at least 1"
    if args.jobs < 1:
        return "--jobs must be at least 1"
    if args.playouts is not None and args.playouts < 1:
        return "--playouts must be at least 1"
    for option, path in (("--report", args.report), ("--json", args.json)):
        if path is not None and not path.parent.is_dir():
            return f"{option}: the folder {str(path.parent)!r} does not exist"
    return None


def run(args: argparse.Namespace) -> int:
    problem = _problem(args)
    try:
        styles = lab.parse_styles(args.bots)
    except ValueError as e:
        problem = problem or f"--bots: {e}"
    else:
        if args.cards == "physical" and "strong" in styles:
            problem = problem or "--bots: the strong bot plays with digital cards only"
    if problem:
        print(f"companion simulate: {problem}", file=sys.stderr)
        return 2
    plan = lab.Plan(games=args.games, players=args.players, styles=styles, seed=args.seed,
                    powers=args.powers, cards=args.cards, playouts=args.playouts)
    progress = Progress(plan.games)
    start = time.perf_counter()
    try:
        records = lab.run(plan, min(args.jobs, plan.games), progress.update)
    except lab.LabError as e:
        print(f"companion simulate: {e}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - start
    data = summarize(plan, records, style_summaries(lab.STYLES))
    command = reproduce(args)
    json_path = args.json or (args.report.with_suffix(".json") if args.report else None)
    written = []  # (files first: a reader closing the summary early must not lose them)
    if json_path is not None:
        json_path.write_text(json.dumps({"command": command, **data}, indent=1) + "\n")
        written.append(f"data written to {json_path}")
    if args.report is not None:
        args.report.write_text(page(data, command))
        written.append(f"report written to {args.report}")
    print_summary(data, records, elapsed)
    for line in written:
        print(line)
    return 0


def reproduce(args: argparse.Namespace) -> str:
    """The command that plays the same games again (the number of processes does not count)."""
    words = ["companion", "simulate", "--games", str(args.games), "--players", str(args.players),
             "--bots", args.bots, "--seed", str(args.seed)]
    words += ["--powers"] if args.powers else []
    words += ["--cards", args.cards] if args.cards != "digital" else []
    words += ["--playouts", str(args.playouts)] if args.playouts is not None else []
    words += ["--report", str(args.report)] if args.report is not None else []
    words += ["--json", str(args.json)] if args.json is not None else []
    return shlex.join(words)


def print_summary(data: dict[str, Any], records: list[lab.GameRecord], elapsed: float) -> None:
    plan, avg = data["plan"], data["averages"]
    n = plan["games"]
    actions = sum(r["actions"] for r in records)
    no_winner = sum(not r["winners"] for r in records)
    print(f"{n} games of {plan['players']} players{' with powers' if plan['powers'] else ''} "
          f"in {elapsed:.2f} s: {n / elapsed:.0f} games/s, {actions / elapsed:.0f} actions/s")
    print(f"average rounds {avg['rounds']:.2f}, deaths per game {avg['deaths']:.2f}, "
          f"actions per game {avg['actions']:.1f}, games with no winner {no_winner}")
    if data["by_power"]:
        print(f"win rate per power (an even share is {data['even_share']:.1%}):")
        for row in data["by_power"]:
            print(f"  {row['label']:<13} {row['rate']:6.1%}  ({row['n']} games)")
    if len(data["by_style"]) > 1:
        print("win rate per bot style (95 % interval):")
        for row in data["by_style"]:
            print(f"  {row['label']:<13} {row['rate']:6.1%}  [{row['low']:.1%} to "
                  f"{row['high']:.1%}]  {row['n']} seats")
