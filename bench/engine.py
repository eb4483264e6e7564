"""Rules engine speed: whole random games, replays, and the cost of one action.

    .venv/bin/python bench/engine.py [--games 1000] [--players 8] [--ref GIT_REF] [--rounds 3]
                                     [--instructions 100]

Each engine runs in a process of its own, on one core (a single Python thread): this tree,
and with `--ref` an older commit checked out in a temporary git worktree, with this
checkout's virtual environment. The two alternate, `--rounds` times each, and the best run
of each is kept, so a machine busy with something else slows both alike; the ratio is the
speed-up. Times are the process's CPU time. Both play the same seeds: the digest of every
game's actions says whether they played the same games. `--instructions N` also counts the
machine instructions of N random games under valgrind (callgrind), a figure no other load
on the machine changes. Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def play_games(games: int, players: int) -> Iterator[Any]:
    from companion.bots.random_bot import play, random_setup

    for i in range(games):
        rnd = random.Random(i)
        yield play(random_setup(rnd, players, i, powers=True), rnd)


def measure(games: int, players: int) -> dict[str, Any]:
    """The figures of the engine importable here (run in a worker process)."""
    import companion
    import companion.bots.random_bot  # (imported before the clock starts: games are timed)
    from companion.rules import apply, apply_in_place, legal_actions, new_game

    clock = time.process_time
    actions = 0
    start = clock()
    for g in play_games(games, players):  # played and let go, as the lab does: keeping
        actions += len(g.actions)  # a thousand games would time the collector walking them
    random_s = clock() - start
    played = list(play_games(games, players))  # the same seeds again, kept for the replays
    digest = hashlib.sha256("\n".join(str(a) for g in played for a in g.actions).encode())

    start = clock()
    for g in played:
        s = new_game(g.setup)
        for a in g.actions:
            apply_in_place(s, a)
    replay_s = clock() - start

    apply_us, legal_us = [], []
    ns = time.perf_counter_ns
    for g in played[:100]:
        s = new_game(g.setup)
        for a in g.actions:
            t0 = ns()
            legal_actions(s)
            t1 = ns()
            s, _ = apply(s, a)
            t2 = ns()
            legal_us.append((t1 - t0) / 1000)
            apply_us.append((t2 - t1) / 1000)
    return {
        "engine": str(Path(companion.__file__).parent.parent), "games": games,
        "actions": actions, "random_s": random_s, "replay_s": replay_s,
        "digest": digest.hexdigest()[:16],
        "apply_us": [statistics.median(apply_us), percentile(apply_us, 0.99)],
        "legal_us": [statistics.median(legal_us), percentile(legal_us, 0.99)],
    }


def run_worker(tree: Path, games: int, players: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", "--games", str(games),
         "--players", str(players)],
        env=env, cwd=tree, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out)
    if Path(result["engine"]).resolve() != tree.resolve():
        raise SystemExit(f"the worker for {tree} imported the engine from {result['engine']}")
    return result


def instructions(tree: Path, games: int, players: int) -> float:
    """Machine instructions a random game costs, counted by valgrind (the worker's start
    and imports taken off: a run of no game is counted too)."""
    counts = []
    for n in (0, games):
        err = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
             str(Path(__file__).resolve()), "--worker", "--only-play", "--games", str(n),
             "--players", str(players)],
            env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree, check=True,
            capture_output=True, text=True).stderr
        counts.append(int(next(line for line in err.splitlines() if "I   refs" in line)
                          .split(":")[1].replace(",", "")))
    return (counts[1] - counts[0]) / games


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return min(runs, key=lambda r: r["random_s"])


def report(name: str, r: dict[str, Any], players: int) -> None:
    n, actions = r["games"], r["actions"]
    print(f"{name}:")
    print(f"  random games ({players} players, powers): {n / r['random_s']:7.0f} games/s, "
          f"{actions / r['random_s']:8.0f} actions/s, {actions / n:.0f} actions/game")
    print(f"  replay of the same games:         {n / r['replay_s']:7.0f} games/s, "
          f"{actions / r['replay_s']:8.0f} actions/s")
    for label, key in (("apply (copy + rules)", "apply_us"), ("legal_actions", "legal_us")):
        p50, p99 = r[key]
        print(f"  {label:<22} p50 {p50:6.1f} us  p99 {p99:6.1f} us")


def compare(args: argparse.Namespace) -> None:
    trees = {"this tree": ROOT}
    with tempfile.TemporaryDirectory() as tmp:
        if args.ref:
            old = Path(tmp) / "old"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                            args.ref], check=True, capture_output=True)
            trees[args.ref] = old
        try:
            runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
            for _ in range(args.rounds):
                for name, tree in trees.items():
                    runs[name].append(run_worker(tree, args.games, args.players))
            counted = {name: instructions(tree, args.instructions, args.players)
                       for name, tree in trees.items()} if args.instructions else {}
        finally:
            if args.ref:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(trees[args.ref])], check=True, capture_output=True)
    print(f"best of {args.rounds} runs each, {args.games} games, CPU time of one process")
    for name, r in runs.items():
        report(name, best(r), args.players)
        if name in counted:
            print(f"  instructions: {counted[name] / 1e6:.2f} million a random game "
                  f"(valgrind, {args.instructions} games)")
    if args.ref:
        new, old_r = best(runs["this tree"]), best(runs[args.ref])
        same = "the same games" if new["digest"] == old_r["digest"] else "DIFFERENT games"
        print(f"speed-up over {args.ref}: random games {old_r['random_s'] / new['random_s']:.2f}x"
              f", replay {old_r['replay_s'] / new['replay_s']:.2f}x ({same} from the seeds)")
        if counted:
            print(f"instructions: {counted[args.ref] / counted['this tree']:.2f}x fewer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--ref", help="also measure this older commit, for a ratio")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree (best kept)")
    parser.add_argument("--instructions", type=int, default=0, metavar="GAMES",
                        help="also count instructions of this many games (valgrind)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only-play", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker and args.only_play:
        for _ in play_games(args.games, args.players):
            pass
    elif args.worker:
        print(json.dumps(measure(args.games, args.players)))
    else:
        compare(args)


if __name__ == "__main__":
    main()
