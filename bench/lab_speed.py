"""The balance lab's speed: random games, each style, the strong bot, and the same command
against an older commit; and the deaths a game with physical cards against digital ones.

    .venv/bin/python bench/lab_speed.py [--games 2000] [--style-games 300] [--strong-games 2]
                                        [--ref-tree DIR] [--physical-games 500]
    .venv/bin/python bench/lab_speed.py --ref-tree DIR --instructions 400
    .venv/bin/python bench/lab_speed.py --imports

One core, one process, CPU time (`time.process_time`), 8 players with powers. With
`--ref-tree`, a checkout of an older commit (`git worktree add /tmp/lab_b475 b475e92`), the
command `companion simulate --games 2000 --players 8 --powers --seed 7` runs in turn in
that tree and in this one (A, B, B, A; `--jobs 1` where the tree has it), each tree's
modules compiled first, and the medians of their user + system CPU seconds give the ratio.
With `--instructions N`, only the instructions the same command executes (Valgrind's
callgrind, `apt-get install valgrind`) with 1 and N games in each tree: a count the load
does not move, where CPU seconds on a busy machine move by a fifth from run to run. The
command's fixed cost is the 1-game count, a game's the difference over N - 1 games. With
`--imports`, the instructions each module of the rules costs to import (callgrind), in the
order the engine imports them, each counted apart from the package's `__init__`.
Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from companion.bots import lab
from companion.bots.strong import PLAYOUTS

ROOT = Path(__file__).resolve().parents[1]
STYLES = ("cautious", "aggressive", "greedy", "vengeful")
COMMAND = ["simulate", "--games", "2000", "--players", "8", "--powers", "--seed", "7"]


def games_per_second(styles: tuple[str, ...], games: int, cards: str = "digital") -> float:
    plan = lab.Plan(games=games, players=8, styles=styles, seed=1, cards=cards)
    start = time.process_time()
    for i in range(games):
        lab.play_game(plan, i)
    return games / (time.process_time() - start)


def compiled(tree: Path) -> None:
    """The tree's modules compiled once, as an installed package runs (the shell here sets
    PYTHONDONTWRITEBYTECODE: without this, a tree never run before compiles at each run)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "companion")],
                   check=True, stdout=subprocess.DEVNULL)


def command_cpu(tree: Path, jobs: bool) -> float:
    """User + system CPU seconds of `companion simulate` run from `tree`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "from companion.cli import main; main()", *COMMAND,
                    *(["--jobs", "1"] if jobs else [])], check=True, cwd=tree,
                   env={**os.environ, "PYTHONPATH": str(tree)}, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def command_instructions(tree: Path, jobs: bool, games: int) -> int:
    """The instructions `companion simulate --games games ...` executes from `tree`."""
    command = [*COMMAND[:2], str(games), *COMMAND[3:]]
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", "from companion.cli import main; main()",
                          *command, *(["--jobs", "1"] if jobs else [])], check=True, cwd=tree,
                         env={**os.environ, "PYTHONPATH": str(tree)}, text=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    found = re.search(r"Collected : (\d+)", run.stderr)
    assert found is not None, run.stderr[-2000:]
    return int(found.group(1))


def instructions(ref_tree: Path, games: int) -> None:
    """Each tree's fixed and per-game instructions, and the 2,000-game command's ratio."""
    totals = {}
    for side, tree in (("ref", ref_tree), ("this", ROOT)):
        compiled(tree)
        fixed = command_instructions(tree, side == "this", 1)
        per_game = (command_instructions(tree, side == "this", games) - fixed) / (games - 1)
        totals[side] = fixed + 1999 * per_game
        print(f"{tree.name}: {fixed / 1e6:.0f} M instructions for 1 game, "
              f"{per_game / 1e6:.2f} M a game more (over {games})")
    print(f"2,000 games, fixed + 1,999 games: {totals['ref'] / 1e9:.2f} G against "
          f"{totals['this'] / 1e9:.2f} G instructions: {totals['ref'] / totals['this']:.2f}x less")


RULES = ("cards", "powers", "rng", "errors", "events", "state", "scoring", "actions", "menu",
         "effects", "steps", "loot_step", "split", "fastplay", "turn", "phases", "engine",
         "legal", "report", "setup", "random_game")
BARE = ("import importlib, sys, types; import companion; p = types.ModuleType('companion.rules'); "
        "p.__path__ = [{path!r}]; sys.modules['companion.rules'] = p\n"
        "for m in {mods!r}: importlib.import_module('companion.rules.' + m)")


def import_instructions() -> None:
    """The instructions of the interpreter's start, then of each rules module imported in
    turn (the package's `__init__`, which imports them all, left out)."""
    path, before = str(ROOT / "companion" / "rules"), 0
    for n in range(len(RULES) + 1):
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                              sys.executable, "-c", BARE.format(path=path, mods=RULES[:n])],
                             check=True, text=True, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        found = re.search(r"Collected : (\d+)", run.stderr)
        assert found is not None, run.stderr[-2000:]
        count = int(found.group(1))
        print(f"{RULES[n - 1] if n else 'the interpreter'}: {(count - before) / 1e6:.0f} M")
        before = count


def deaths(cards: str, games: int) -> float:
    plan = lab.Plan(games=games, players=6, styles=(*STYLES, "random"), seed=5, cards=cards)
    return sum(sum(seat["died"] is not None for seat in lab.play_game(plan, i)["seats"])
               for i in range(games)) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--style-games", type=int, default=300)
    parser.add_argument("--strong-games", type=int, default=2)
    parser.add_argument("--physical-games", type=int, default=500)
    parser.add_argument("--ref-tree", type=Path, help="a checkout of the older commit")
    parser.add_argument("--instructions", type=int, metavar="N",
                        help="with --ref-tree: only count the command's instructions with "
                             "1 and N games in each tree (callgrind)")
    parser.add_argument("--imports", action="store_true",
                        help="only count each rules module's import (callgrind)")
    args = parser.parse_args()
    if args.imports:
        import_instructions()
        return
    if args.instructions:
        if args.ref_tree is None or args.instructions < 2:
            parser.error("--instructions N takes --ref-tree and N of 2 or more")
        instructions(args.ref_tree, args.instructions)
        return

    print(f"random bots: {games_per_second(('random',), args.games):.0f} games/s")
    for style in STYLES:
        print(f"{style} bots: {games_per_second((style,), args.style_games):.0f} games/s")
    mixed = games_per_second((*STYLES, "random"), args.style_games)
    print(f"the four styles and random, turning seats: {mixed:.0f} games/s")

    plan = lab.Plan(games=args.strong_games, players=8, styles=("strong", *STYLES), seed=1)
    decisions, seconds = 0, 0.0
    for i in range(args.strong_games):  # (the bot's own count and CPU time, as the lab's)
        n, s = lab.play_game(plan, i)["strong"]
        decisions, seconds = decisions + n, seconds + s
    print(f"strong bot ({PLAYOUTS} playouts): {decisions / seconds:.1f} decisions/s "
          f"({decisions} decisions in {seconds:.1f} s)")

    if args.physical_games:
        g = args.physical_games
        print(f"deaths a game, 6 players, styles and random, {g} games: digital cards "
              f"{deaths('digital', g):.3f}, physical cards {deaths('physical', g):.3f}")

    if args.ref_tree:
        runs: dict[str, list[float]] = {"ref": [], "this": []}
        compiled(args.ref_tree)
        compiled(ROOT)
        for side in ("ref", "this", "this", "ref"):
            tree = args.ref_tree if side == "ref" else ROOT
            runs[side].append(command_cpu(tree, jobs=side == "this"))
        ref, this = (statistics.median(runs[k]) for k in ("ref", "this"))
        print(f"companion {' '.join(COMMAND)}: {args.ref_tree.name} {ref:.2f} s, this tree "
              f"{this:.2f} s of CPU (medians of A,B,B,A: {runs}); {ref / this:.2f}x less")


if __name__ == "__main__":
    main()
