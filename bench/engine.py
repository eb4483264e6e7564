"""Rules engine speed: whole random games, replays, and the cost of one action.

    .venv/bin/python bench/engine.py [--games 1000] [--players 8] [--ref GIT_REF] [--rounds 3]

Each engine runs in a process of its own, on one core (a single Python thread): this tree,
and with `--ref` an older commit checked out in a temporary git worktree, with this
checkout's virtual environment. The two alternate, `--rounds` times each, and the best run
of each is kept, so a machine busy with something else slows both alike; the ratio is the
speed-up. Times are the process's CPU time. Both play the same seeds: the digest of every
game's actions says whether they played the same games. Figures go to docs/PERFORMANCE.md.
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def measure(games: int, players: int) -> dict[str, Any]:
    """The figures of the engine importable here (run in a worker process)."""
    import companion
    from companion.bots.random_bot import play, random_setup
    from companion.rules import apply, apply_in_place, legal_actions, new_game

    clock = time.process_time
    start = clock()
    played = []
    for i in range(games):
        rnd = random.Random(i)
        played.append(play(random_setup(rnd, players, i, powers=True), rnd))
    random_s = clock() - start
    actions = sum(len(g.actions) for g in played)
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
        finally:
            if args.ref:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(trees[args.ref])], check=True, capture_output=True)
    print(f"best of {args.rounds} runs each, {args.games} games, CPU time of one process")
    for name, r in runs.items():
        report(name, best(r), args.players)
    if args.ref:
        new, old_r = best(runs["this tree"]), best(runs[args.ref])
        same = "the same games" if new["digest"] == old_r["digest"] else "DIFFERENT games"
        print(f"speed-up over {args.ref}: random games {old_r['random_s'] / new['random_s']:.2f}x"
              f", replay {old_r['replay_s'] / new['replay_s']:.2f}x ({same} from the seeds)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--ref", help="also measure this older commit, for a ratio")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree (best kept)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(measure(args.games, args.players)))
    else:
        compare(args)


if __name__ == "__main__":
    main()
