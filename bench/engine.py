"""Rules engine speed: whole random games, replays, and the cost of one action.

    .venv/bin/python bench/engine.py [--games 500] [--players 8]

Runs on one core (a single Python thread). Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.bots.random_bot import play, random_setup
from companion.rules import apply, apply_in_place, legal_actions, new_game


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=8)
    args = parser.parse_args()

    start = time.perf_counter()
    games = []
    for i in range(args.games):
        rnd = random.Random(i)
        games.append(play(random_setup(rnd, args.players, i, powers=True), rnd))
    elapsed = time.perf_counter() - start
    actions = sum(len(g.actions) for g in games)
    print(f"random games ({args.players} players, powers): {args.games / elapsed:7.0f} games/s, "
          f"{actions / elapsed:8.0f} actions/s, {actions / args.games:.0f} actions/game")

    start = time.perf_counter()
    for g in games:
        s = new_game(g.setup)
        for a in g.actions:
            apply_in_place(s, a)
    elapsed = time.perf_counter() - start
    print(f"replay of the same games:         {args.games / elapsed:7.0f} games/s, "
          f"{actions / elapsed:8.0f} actions/s")

    apply_us, legal_us = [], []
    clock = time.perf_counter_ns
    for g in games[:100]:
        s = new_game(g.setup)
        for a in g.actions:
            t0 = clock()
            legal_actions(s)
            t1 = clock()
            s, _ = apply(s, a)
            t2 = clock()
            legal_us.append((t1 - t0) / 1000)
            apply_us.append((t2 - t1) / 1000)
    for name, values in (("apply (copy + rules)", apply_us), ("legal_actions", legal_us)):
        print(f"{name:<22} p50 {statistics.median(values):6.1f} us  "
              f"p99 {percentile(values, 0.99):6.1f} us  max {max(values):7.1f} us")


if __name__ == "__main__":
    main()
