"""How fast a short command starts: `companion replay FILE` against a bare `python -c pass`.

    .venv/bin/python bench/startup.py [--runs 40] [--ref GIT_REF] [--breakdown]

Each command runs `--runs` times in a fresh process, the commands taking turns, so that a
machine busy with something else slows them alike; the figures are the median and the
best wall time of each, the best CPU time (user and system, which a busy machine
stretches less), and their ratio to the bare interpreter. Two scenarios: the
repository's first example (a few actions) and a whole 8-player game with powers (about
270 actions, written by the engine). Two ways to run: with the modules' bytecode cached
(as an installed package runs, once its modules are compiled; here in a temporary cache
folder), and compiled from source at every start (PYTHONDONTWRITEBYTECODE=1 and no cache,
as in a shell that sets it). `--ref` also times an older commit, checked out in a temporary
git worktree and run with this checkout's virtual environment. `--breakdown` instead says
what a replay of the first example imports beyond `python -c pass` (`-X importtime`, best
of `--runs`, bytecode cached) and how long making the companion's classes takes (the
slowest named).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "scenarios" / "examples" / "e01_first_round.yaml"


def whole_game(path: Path) -> Path:
    """A scenario file of one whole random game of 8 players with powers."""
    from companion.bots.random_bot import play, random_setup

    rnd = random.Random(7)
    game = play(random_setup(rnd, 8, 7, powers=True), rnd)
    powers = ", ".join(f"{name}: {power}" for name, power in game.setup.powers.items())
    lines = [f"players: [{', '.join(game.setup.players)}]", f"powers: {{{powers}}}",
             f"seed: {game.setup.seed}", "actions:", *(f"  - {a}" for a in game.actions)]
    path.write_text("\n".join(lines) + "\n")
    return path


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The wall time and the CPU time (user and system) of one run of `cmd`."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()  # (in the tree: `-m` puts the working folder first)
    subprocess.run(cmd, env=env, cwd=env.get("PYTHONPATH"), check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, now.ru_utime - used.ru_utime + now.ru_stime - used.ru_stime


CLASS_PROBE = """
import builtins, json, time
made, build = {}, builtins.__build_class__
def timed(body, name, *bases, **kwargs):
    start = time.perf_counter()
    cls = build(body, name, *bases, **kwargs)
    if cls.__module__.startswith("companion"):
        made[name] = (time.perf_counter() - start) * 1000
    return cls
builtins.__build_class__ = timed
import companion.scenario.replay_cmd
print(json.dumps(made))
"""


def importtimes(cmd: list[str], env: dict[str, str], runs: int) -> dict[str, list]:
    """Each module's best own and cumulative import time (ms) and who imported it."""
    best: dict[str, list] = {}
    for _ in range(runs):
        err = subprocess.run([sys.executable, "-X", "importtime", *cmd], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=True).stderr
        rows = [(int(m[1]) / 1000, int(m[2]) / 1000, len(m[3]), m[4]) for m in re.finditer(
            r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", err)]
        run: dict[str, list] = {}  # (a module named twice: its package was imported first)
        for i, (own, total, depth, name) in enumerate(rows):  # (a parent follows its children)
            parent = next((r[3] for r in rows[i + 1:] if r[2] < depth), "")
            seen = run.setdefault(name, [0.0, 0.0, parent])
            seen[0], seen[1] = seen[0] + own, max(seen[1], total)
        for name, (own, total, parent) in run.items():
            old = best.setdefault(name, [own, total, parent])
            old[0], old[1] = min(old[0], own), min(old[1], total)
    return best


def breakdown(runs: int, env: dict[str, str]) -> None:
    """The companion's modules (own time) and what each imports from elsewhere (in all)."""
    bare = importtimes(["-c", "pass"], env, runs)
    seen = importtimes(["-m", "companion.cli", "replay", str(EXAMPLE)], env, runs)
    print(f"a replay's imports beyond python -c pass, best of {runs}, ms (own | in all):")
    rows = []
    for name, (own, total, parent) in seen.items():
        ours = name.startswith("companion")
        if name not in bare and (ours or parent.startswith("companion")):
            rows.append((own if ours else total, name, "own" if ours else f"in all, for {parent}"))
    for ms, name, what in sorted(rows, reverse=True):
        print(f"  {name:<30} {ms:5.1f} {what}")
    print(f"  {'(in all)':<30} {sum(row[0] for row in rows):5.1f}")
    made: dict[str, float] = {}
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", CLASS_PROBE], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
        for name, ms in json.loads(out).items():
            made[name] = min(made.get(name, ms), ms)
    slowest = sorted(made.items(), key=lambda item: -item[1])[:8]
    print(f"making the companion's {len(made)} classes (part of their modules' own time), ms: "
          + ", ".join(f"{name} {ms:.2f}" for name, ms in slowest)
          + f", ...; in all {sum(made.values()):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--ref", help="also time this older commit, side by side")
    parser.add_argument("--breakdown", action="store_true",
                        help="what a replay imports, module by module, instead of timing it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        plain = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        if args.breakdown:
            return breakdown(args.runs, {**plain, "PYTHONPYCACHEPREFIX": f"{tmp}/pycache"})
        game = whole_game(Path(tmp) / "whole_game.yaml")
        trees = {"this tree": ROOT}
        if args.ref:
            trees[args.ref] = Path(tmp) / "old"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach",
                            str(trees[args.ref]), args.ref], check=True, capture_output=True)
        ways = {"bytecode cached": {**plain, "PYTHONPYCACHEPREFIX": f"{tmp}/pycache"},
                "compiled at every start": {**plain, "PYTHONDONTWRITEBYTECODE": "1"}}
        try:
            commands: dict[tuple[str, str], tuple[list[str], dict[str, str]]] = {}
            for way, env in ways.items():
                commands[way, "python -c pass"] = ([sys.executable, "-c", "pass"], env)
                for name, tree in trees.items():
                    for label, file in (("example", EXAMPLE), ("whole game", game)):
                        cmd = [sys.executable, "-m", "companion.cli", "replay", str(file)]
                        commands[way, f"replay {label} ({name})"] = (
                            cmd, {**env, "PYTHONPATH": str(tree)})
            for cmd, env in commands.values():  # (fills the bytecode cache)
                timed(cmd, env)
            times: dict[tuple[str, str], list[tuple[float, float]]] = {
                key: [] for key in commands}
            for _ in range(args.runs):
                for key, (cmd, env) in commands.items():
                    times[key].append(timed(cmd, env))
        finally:
            if args.ref:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(trees[args.ref])], check=True, capture_output=True)
    print(f"{args.runs} runs each, wall time of a fresh process (and its CPU time, user and "
          "system: steadier on a busy machine); ratio to python -c pass")
    for way in ways:
        bare = [t for t, _ in times[way, "python -c pass"]]
        bare_cpu = [t for _, t in times[way, "python -c pass"]]
        print(f"{way}:")
        for (w, name), values in times.items():
            if w != way:
                continue
            wall, cpu = [t for t, _ in values], [t for _, t in values]
            median, best = statistics.median(wall), min(wall)
            print(f"  {name:<30} median {median * 1000:6.1f} ms "
                  f"({median / statistics.median(bare):.1f}x)"
                  f"  best {best * 1000:6.1f} ms ({best / min(bare):.1f}x)"
                  f"  CPU best {min(cpu) * 1000:6.1f} ms ({min(cpu) / min(bare_cpu):.1f}x)")


if __name__ == "__main__":
    main()
