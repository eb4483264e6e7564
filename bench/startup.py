"""How fast a short command starts: `companion replay FILE` against a bare `python -c pass`.

    .venv/bin/python bench/startup.py [--runs 40] [--ref GIT_REF]

Each command runs `--runs` times in a fresh process, the commands taking turns, so that a
machine busy with something else slows them alike; the figures are the median and the
best wall time of each, and their ratio to the bare interpreter. Two scenarios: the
repository's first example (a few actions) and a whole 8-player game with powers (about
270 actions, written by the engine). Two ways to run: with the modules' bytecode cached
(as an installed package runs, once its modules are compiled; here in a temporary cache
folder), and compiled from source at every start (PYTHONDONTWRITEBYTECODE=1 and no cache,
as in a shell that sets it). `--ref` also times an older commit, checked out in a temporary
git worktree and run with this checkout's virtual environment.
"""

from __future__ import annotations

import argparse
import os
import random
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


def timed(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()  # (in the tree: `-m` puts the working folder first)
    subprocess.run(cmd, env=env, cwd=env.get("PYTHONPATH"), check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--ref", help="also time this older commit, side by side")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        game = whole_game(Path(tmp) / "whole_game.yaml")
        trees = {"this tree": ROOT}
        if args.ref:
            trees[args.ref] = Path(tmp) / "old"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach",
                            str(trees[args.ref]), args.ref], check=True, capture_output=True)
        plain = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
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
            times: dict[tuple[str, str], list[float]] = {key: [] for key in commands}
            for _ in range(args.runs):
                for key, (cmd, env) in commands.items():
                    times[key].append(timed(cmd, env))
        finally:
            if args.ref:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(trees[args.ref])], check=True, capture_output=True)
    print(f"{args.runs} runs each, wall time of a fresh process; ratio to python -c pass")
    for way in ways:
        bare = times[way, "python -c pass"]
        print(f"{way}:")
        for (w, name), values in times.items():
            if w != way:
                continue
            median, best = statistics.median(values), min(values)
            print(f"  {name:<36} median {median * 1000:6.1f} ms "
                  f"({median / statistics.median(bare):.1f}x)"
                  f"  best {best * 1000:6.1f} ms ({best / min(bare):.1f}x)")


if __name__ == "__main__":
    main()
