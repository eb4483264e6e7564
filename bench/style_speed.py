"""The style bots' speed: whole games of 8 with powers a CPU second, each style alone.

    .venv/bin/python bench/style_speed.py [--games 300] [--repeats 3] [--ref-tree DIR]

One core, one process per measure, CPU time (`time.process_time`), `lab.play_game` as
`companion simulate` plays it (`--players 8 --powers --bots STYLE`): each style at every
seat, then the four styles and the random bot turning seats. Each figure is the best of
`--repeats` runs (other work on the machine only slows a run down). Then, for each style,
the share of that time spent in the bots' own part (`Arena.decide`: the seat's view and
the decision), timed call by call in a run of its own, and what is left: the arena and the
engine, which a bot deciding at no cost would still take.

With `--ref-tree` (the files of an older commit: `mkdir /tmp/ref && git archive 2c277c8 |
tar -x -C /tmp/ref`), each run is made in that tree too, in turn (this tree, that tree, ...),
for the speed-up.
Figures go to docs/PERFORMANCE.md and docs/BOTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STYLES = ("cautious", "aggressive", "greedy", "vengeful")
MIXED = (*STYLES, "random")


def run(styles: tuple[str, ...], games: int, split: bool) -> dict[str, float]:
    """Games/s of `games` games (in this process); with `split`, the CPU seconds the bots'
    part took and the whole run's."""
    from companion.bots import lab
    from companion.bots.arena import Arena

    inside = 0.0
    if split:
        decide = Arena.decide

        def timed(arena: Arena, name: str, options: list) -> object:  # type: ignore[type-arg]
            nonlocal inside
            start = time.process_time()
            choice = decide(arena, name, options)
            inside += time.process_time() - start
            return choice

        Arena.decide = timed  # type: ignore[assignment]
    plan = lab.Plan(games=games, players=8, styles=styles, seed=1, powers=True)
    start = time.process_time()
    for i in range(games):
        lab.play_game(plan, i)
    seconds = time.process_time() - start
    return {"games_per_s": games / seconds, "seconds": seconds, "bots": inside}


def measure(tree: Path, styles: tuple[str, ...], games: int, split: bool = False,
            ) -> dict[str, float]:
    """`run` in a fresh process with `tree`'s code."""
    out = subprocess.run(
        [sys.executable, __file__, "--one", ",".join(styles), "--games", str(games),
         *(["--split"] if split else [])],
        check=True, capture_output=True, text=True, cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)})
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--ref-tree", type=Path, help="a checkout of an older commit")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # (a single run, as JSON)
    parser.add_argument("--split", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run(tuple(args.one.split(",")), args.games, args.split)))
        return

    trees = {"this tree": ROOT, **({args.ref_tree.name: args.ref_tree} if args.ref_tree else {})}
    for styles in [(s,) for s in STYLES] + [MIXED]:
        best = {name: 0.0 for name in trees}
        for _ in range(args.repeats):
            for name, tree in trees.items():
                best[name] = max(best[name], measure(tree, styles, args.games)["games_per_s"])
        label = "+".join(styles)
        figures = ", ".join(f"{name} {rate:.0f}" for name, rate in best.items())
        ratio = (f" ({best['this tree'] / best[args.ref_tree.name]:.2f}x)"
                 if args.ref_tree else "")
        print(f"{label}: {figures} games/s{ratio}", flush=True)

    for style in STYLES:
        split = measure(ROOT, (style,), args.games, split=True)
        rest = split["seconds"] - split["bots"]
        print(f"{style}: the bots' views and decisions {split['bots'] / split['seconds']:.0%} "
              f"of the time; the arena and the engine {rest / args.games * 1000:.2f} ms a game "
              f"(at most {args.games / rest:.0f} games/s with bots that cost nothing)",
              flush=True)


if __name__ == "__main__":
    main()
