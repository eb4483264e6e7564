"""`companion simulate`: the balance lab. Whole games between bots on every core, a summary,
and on request one self-contained HTML report and its data as JSON (docs/BOTS.md)."""

from __future__ import annotations

import argparse
import functools
import json
import os
import shlex
import signal
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from companion.bots import lab
from companion.bots.lab_stats import style_summaries, summarize
from companion.bots.lab_store import Store, StoreError
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
    parser.add_argument("--out", type=Path, metavar="FILE.sqlite3",
                        help="keep every game in this SQLite store as it finishes; the same "
                             "command again resumes an interrupted run")
    parser.add_argument("--report-only", type=Path, metavar="FILE.sqlite3",
                        help="play nothing: the summary, --report and --json of a finished "
                             "store")
    parser.add_argument("--cluster", metavar="tcp://HOST:8786",
                        help="play the games on this Dask scheduler's workers (the cluster "
                             "extra)")


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
    for option, path in (("--report", args.report), ("--json", args.json),
                         ("--out", args.out)):
        if path is not None and not path.parent.is_dir():
            return f"{option}: the folder {str(path.parent)!r} does not exist"
    return None


def run(args: argparse.Namespace) -> int:
    if args.report_only is not None:
        return _report_only(args)
    problem = _problem(args)
    try:
        styles = lab.parse_styles(args.bots)
    except ValueError as e:
        problem = problem or f"--bots: {e}"
    else:
        if args.cards == "physical" and "strong" in styles:
            problem = problem or "--bots: the strong bot plays with digital cards only"
    if problem:
        return _refuse(problem)
    plan = lab.Plan(games=args.games, players=args.players, styles=styles, seed=args.seed,
                    powers=args.powers, cards=args.cards, playouts=args.playouts)
    with tempfile.TemporaryDirectory(prefix="companion-lab-") as scratch:
        path = args.out or Path(scratch) / "lab.sqlite3"
        try:
            store = Store(path, plan, reproduce(args))
        except StoreError as e:
            return _refuse(f"--out: {e}")
        try:
            timing = _play(store, plan, args)
        except lab.LabError as e:
            print(f"companion simulate: {e}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            store.flush()
            print(f"\ncompanion simulate: stopped with {store.games():,} of {plan.games:,} "
                  "games on disk" + (f"; the same command resumes the run into {args.out}"
                                     if args.out else ""), file=sys.stderr)
            return 130
        finally:
            store.close()
        store = Store(path)
        try:
            _write(args, store, timing)
        finally:
            store.db.close()
    return 0


def _refuse(problem: str) -> int:
    print(f"companion simulate: {problem}", file=sys.stderr)
    return 2


def _cluster(address: str | None) -> Callable[[Iterator[lab.Chunk]], lab.Played] | None:
    """The games sent to a Dask scheduler's workers (the optional `cluster` extra)."""
    if address is None:
        return None
    from companion.bots.lab_cluster import on_cluster  # (only with --cluster: Dask)
    return functools.partial(on_cluster, address)


def _play(store: Store, plan: lab.Plan, args: argparse.Namespace) -> tuple[int, float]:
    """Play the games missing from the store into it; how many, in how many seconds."""
    todo = store.missing()
    done = held = plan.games - sum(stop - start for start, stop in todo)
    if done:
        print(f"simulate: resuming with {done:,} of {plan.games:,} games on disk",
              file=sys.stderr)
    progress = Progress(plan.games)
    start = time.perf_counter()
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        for first, batch in lab.results(plan, todo, min(args.jobs, plan.games),
                                        _cluster(args.cluster)):
            store.add(first, batch)
            done += len(batch)
            progress.update(done)
    finally:
        signal.signal(signal.SIGTERM, previous)
    return done - held, time.perf_counter() - start


def _stop(signum: int, frame: object) -> None:
    """SIGTERM stops a run as Ctrl-C does: what is played is committed, the rest resumes."""
    raise KeyboardInterrupt


def _report_only(args: argparse.Namespace) -> int:
    """The summary and files of a store, playing nothing: of the games it holds so far when
    its run is not finished (a long run is looked at while it plays)."""
    try:
        store = Store(args.report_only)
    except (StoreError, sqlite3.Error) as e:
        return _refuse(f"--report-only: {e}")
    try:
        held, planned = store.games(), store.plan.games
        if held == 0:
            return _refuse(f"--report-only: {args.report_only} holds no game yet")
        if held < planned:
            print(f"simulate: {args.report_only} holds {held:,} of {planned:,} games, the "
                  f"figures are of those; its command plays the rest: {store.command}",
                  file=sys.stderr)
        _write(args, store, None)
    finally:
        store.db.close()
    return 0


def _write(args: argparse.Namespace, store: Store, timing: tuple[int, float] | None) -> None:
    """The JSON, the report and the summary, from the store."""
    data = summarize(store.plan, store.db, style_summaries(lab.STYLES))
    strong = store.strong_speed()
    if strong is not None:  # (measured in the run: CPU seconds spent deciding, every process)
        data["strong_bot"] = strong
    json_path = args.json or (args.report.with_suffix(".json") if args.report else None)
    written = []  # (files first: a reader closing the summary early must not lose them)
    if json_path is not None:
        json_path.write_text(json.dumps({"command": store.command, **data}, indent=1) + "\n")
        written.append(f"data written to {json_path}")
    if args.report is not None:
        from companion.bots.lab_report import page  # (only for a report: 7 ms of a run)

        args.report.write_text(page(data, store.command))
        written.append(f"report written to {args.report}")
    print_summary(data, timing)
    for line in written:
        print(line)


def reproduce(args: argparse.Namespace) -> str:
    """The command that plays the same games again (the number of processes does not count)."""
    words = ["companion", "simulate", "--games", str(args.games), "--players", str(args.players),
             "--bots", args.bots, "--seed", str(args.seed)]
    words += ["--powers"] if args.powers else []
    words += ["--cards", args.cards] if args.cards != "digital" else []
    words += ["--playouts", str(args.playouts)] if args.playouts is not None else []
    words += ["--report", str(args.report)] if args.report is not None else []
    words += ["--json", str(args.json)] if args.json is not None else []
    words += ["--out", str(args.out)] if args.out is not None else []
    return shlex.join(words)


def print_summary(data: dict[str, Any], timing: tuple[int, float] | None) -> None:
    """The figures a terminal shows; `timing`: the games played by this run and its seconds."""
    plan, avg = data["plan"], data["averages"]
    n = plan["games"]
    no_winner = next(e["games"] for e in data["decided_by"]["endings"]
                     if e["end"] == "no_winner")
    speed = ""
    if timing and timing[1] > 0:
        played, elapsed = timing
        speed = (f" in {elapsed:.2f} s: {played / elapsed:.0f} games/s, "
                 f"{played * avg['actions'] / elapsed:.0f} actions/s")
        speed += f" (resumed: {played} played now)" if played != n else ""
    print(f"{n} games of {plan['players']} players{' with powers' if plan['powers'] else ''}"
          + speed)
    print(f"average rounds {avg['rounds']:.2f}, deaths per game {avg['deaths']:.2f}, "
          f"actions per game {avg['actions']:.1f}, games with no winner {no_winner}")
    if data["by_power"]:
        print(f"win rate per power (an even share is {data['even_share']:.1%}):")
        for row in data["by_power"]:
            print(f"  {row['label']:<13} {row['rate']:6.1%}  ({row['n']} games)")
    if "strong_bot" in data:
        strong = data["strong_bot"]
        print(f"strong bot: {strong['decisions_per_second']:.1f} decisions a second "
              f"({strong['decisions']} decisions in {strong['cpu_seconds']:.1f} s of CPU)")
    if len(data["by_style"]) > 1:
        print("win rate per bot style (95 % interval):")
        for row in data["by_style"]:
            print(f"  {row['label']:<13} {row['rate']:6.1%}  [{row['low']:.1%} to "
                  f"{row['high']:.1%}]  {row['n']} seats")
