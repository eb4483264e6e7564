"""The style bots' speed: whole games of 8 with powers a CPU second, each style alone.

    .venv/bin/python bench/style_speed.py [--games 300] [--repeats 3] [--ref-tree DIR]
    .venv/bin/python bench/style_speed.py --instructions 40 [--ref-tree DIR] [--styles greedy]
    .venv/bin/python bench/style_speed.py --opcodes 40
    .venv/bin/python bench/style_speed.py --parts 40

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

With `--instructions N` (valgrind's callgrind, which the load does not move): the machine
instructions a game of N games of the four styles turning seats (`lab.Plan(games=N,
players=8, styles=STYLES, seed=7, powers=True)`), the imports taken off (the same run with
no game), in each tree; and the arena's and the engine's part alone: the same games again
with each bot's decision read back from a first run (at no cost), so the rest is the bots'.
`--styles` (comma-separated) counts games of those styles instead, e.g. the greedy alone.

With `--opcodes N`: where those games' Python work goes, counted in bytecodes the
interpreter runs (`sys.settrace` with opcode events; a count the load does not move either,
about 70 machine instructions a bytecode here): the arena's and the engine's part, and the
bots' for each kind of decision, a game and a decision.

With `--parts N`: the same games' bytecodes by part, each function's own, with no counting
wrapper: the arena's steps and the rules engine, the path each decision takes to its
style's rule (`Arena.ask`, `Arena.decide`, `Arena.decide_together`, the view renewed,
`StyleBot.decide`), the memories learning the story, and the styles' rules, estimates and
view parts.
Figures go to docs/PERFORMANCE.md and docs/BOTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
STYLES = ("cautious", "aggressive", "greedy", "vengeful")
MIXED = (*STYLES, "random")


def run(styles: tuple[str, ...], games: int, split: bool) -> dict[str, float]:
    """Games/s of `games` games (in this process); with `split`, the CPU seconds the bots'
    part took and the whole run's."""
    from companion.bots import lab
    from companion.bots.arena import Arena

    inside = 0.0

    def timed(method: str) -> None:
        """`Arena.method`'s CPU time added to `inside`."""
        inner = getattr(Arena, method)

        def call(arena: Arena, *args: object) -> object:
            nonlocal inside
            start = time.process_time()
            out = inner(arena, *args)
            inside += time.process_time() - start
            return out

        setattr(Arena, method, call)

    if split:
        timed("decide")
        if moment_calls_rules():  # (the seats deciding at one moment: their views made
            timed("decide_together")  # ready and their rules called, not `decide`)
        elif hasattr(Arena, "read_moment"):  # (older trees: the views made ready)
            timed("read_moment")
    plan = lab.Plan(games=games, players=8, styles=styles, seed=1, powers=True)
    start = time.process_time()
    for i in range(games):
        lab.play_game(plan, i)
    seconds = time.process_time() - start
    return {"games_per_s": games / seconds, "seconds": seconds, "bots": inside}


def moment_calls_rules() -> bool:
    """Whether this tree's arena calls the bots' rules for a moment's seats itself
    (`Arena.decide_together`, `Bot.rules`), not through `Arena.decide` (older trees)."""
    from companion.bots.styles import Bot

    return hasattr(Bot, "rules")


def counted(games: int, mode: str, decisions: Path, styles: tuple[str, ...] = STYLES) -> None:
    """Play games 0 to `games`-1 of the instructions' plan: "whole" as `companion simulate`
    plays them, "record" too, writing each decision's index among its options to
    `decisions`, "replay" with each decision read back from there, "none" only the
    imports (and the read)."""
    from companion.bots import lab
    from companion.bots.arena import Arena

    plan = lab.Plan(games=games, players=8, styles=styles, seed=7, powers=True)
    decide, together = Arena.decide, getattr(Arena, "decide_together", None)
    whole_moment = moment_calls_rules()  # (else each seat's goes through `decide`)
    if mode == "record":
        chosen: list[int] = []

        def recorded(arena: Arena, name: str, options: list) -> object:  # type: ignore[type-arg]
            choice = decide(arena, name, options)
            chosen.append(options.index(choice))
            return choice

        def recorded_together(arena: Arena, asked: list) -> list:  # type: ignore[type-arg]
            choices = together(arena, asked)  # type: ignore[misc]  # (whole_moment: there)
            chosen.extend(o.index(c) for (_, o), c in zip(asked, choices, strict=True))
            return choices

        Arena.decide = recorded  # type: ignore[assignment]
        if whole_moment:
            Arena.decide_together = recorded_together  # type: ignore[assignment]
    elif mode in ("replay", "none"):
        read_back = iter(pickle.loads(decisions.read_bytes()))
        Arena.decide = lambda arena, name, options: options[next(read_back)]  # type: ignore
        if whole_moment:  # (the moment's views and rules: the bots')
            Arena.decide_together = lambda arena, asked: [  # type: ignore
                options[next(read_back)] for _, options in asked]
        elif hasattr(Arena, "read_moment"):  # (the views made ready for a moment: the bots')
            Arena.read_moment = lambda arena, asked: {}  # type: ignore
    for i in range(0 if mode == "none" else games):
        lab.play_game(plan, i)
    if mode == "record":
        decisions.write_bytes(pickle.dumps(chosen))


def traced_games(games: int, count: Callable[[FrameType], object],
                 ready: Callable[[], object] = lambda: None) -> None:
    """Play games 0 to `games`-1 of the instructions' plan (a first game played untraced,
    for the imports and the caches, then `ready` called), calling `count` with the frame
    at each bytecode run (`sys.settrace` with opcode events) and each return."""
    from companion.bots import lab

    plan = lab.Plan(games=games, players=8, styles=STYLES, seed=7, powers=True)
    lab.play_game(plan, 0)
    ready()

    def traced(frame: FrameType, event: str, arg: object) -> object:
        frame.f_trace_opcodes, frame.f_trace_lines = True, False
        return counted

    def counted(frame: FrameType, event: str, arg: object) -> object:
        count(frame)
        return counted

    sys.settrace(traced)  # type: ignore[arg-type]
    for i in range(games):
        lab.play_game(plan, i)
    sys.settrace(None)


def opcodes(games: int) -> None:
    """Print the bytecodes run a game in the arena and the engine, and in the bots by the
    kind of decision (the options' kind), for games 0 to `games`-1 of the instructions'
    plan (a first game played untraced, for the imports and the caches)."""
    from collections import Counter

    from companion.bots.arena import Arena

    ran: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    now = ["the arena and the engine"]
    decide = Arena.decide

    def kind_decided(arena: Arena, name: str, options: list) -> object:  # type: ignore[type-arg]
        kind = next(a.type for a in options if a is not None)
        now[0] = kind
        asked[kind] += 1
        try:
            return decide(arena, name, options)
        finally:
            now[0] = "the arena and the engine"

    Arena.decide = kind_decided  # type: ignore[assignment]
    read_moment = getattr(Arena, "read_moment", None)
    if moment_calls_rules():  # (a moment's views and rules: the bots', by its kind)
        together = Arena.decide_together

        def kind_together(arena: Arena, seats: list) -> object:  # type: ignore[type-arg]
            now[0] = next(a.type for _, options in seats for a in options if a is not None)
            asked.update([now[0]] * sum(len(options) > 1 for _, options in seats))
            try:
                return together(arena, seats)
            finally:
                now[0] = "the arena and the engine"

        Arena.decide_together = kind_together  # type: ignore[assignment]
    elif read_moment is not None:  # (the views made ready for a moment: the bots', by kind)

        def kind_read(arena: Arena, asked: list) -> object:  # type: ignore[type-arg]
            now[0] = next(a.type for _, options in asked for a in options if a is not None)
            try:
                return read_moment(arena, asked)
            finally:
                now[0] = "the arena and the engine"

        Arena.read_moment = kind_read  # type: ignore[attr-defined]
    traced_games(games, lambda frame: ran.update((now[0],)), asked.clear)
    print(f"bytecodes a game: {sum(ran.values()) / games:,.0f}")
    for kind, n in ran.most_common():
        each = (f", {asked[kind] / games:.1f} decisions, {n / asked[kind]:,.0f} each"
                if kind in asked else "")
        print(f"  {kind}: {n / games:,.0f}{each}")


# The functions of each part of a game `--parts` counts (by module, function), the rest of
# the bots' modules being the styles' rules, the estimates and the view's parts.
PATH_TO_RULE = {("arena.py", f) for f in ("ask", "decide", "read_moment", "decide_together",
                                          "<listcomp>")} | {("styles.py", "decide"),
                                                            ("view.py", "renew"),
                                                            ("view.py", "__init__")}
LEARNING = {("memory.py", f) for f in ("catch_up", "hear", "_learn", "memory_of", "_fired",
                                       "_stole", "_recount", "reloaded", "befriended",
                                       "forked", "__init__", "_drop")}
BOTS = {"styles.py", "estimate.py", "view.py", "memory.py", "random.py"}


def parts(games: int) -> None:
    """Print the bytecodes a game by part, each function's own (not those it calls), for
    the games `opcodes` counts, with no counting wrapper."""
    from collections import Counter

    ran: Counter[tuple[str, str]] = Counter()
    traced_games(games, lambda frame: ran.update(
        ((Path(frame.f_code.co_filename).name, frame.f_code.co_name),)))
    by_part: Counter[str] = Counter()
    for (module, function), n in ran.items():
        by_part["the path each decision takes to its style's rule" if (module, function)
                in PATH_TO_RULE else "the memories learning the story" if (module, function)
                in LEARNING else "the styles' rules, the estimates and the view's parts"
                if module in BOTS else "the arena's steps and the rules engine"] += n
    total = sum(by_part.values())
    print(f"bytecodes a game: {total / games:,.0f}")
    for part, n in by_part.most_common():
        print(f"  {part}: {n / games:,.0f} ({n / total:.0%})")


def instructions(tree: Path, games: int, styles: str) -> tuple[float, float]:
    """The instructions a game in `tree`: whole games, and the arena's and engine's part."""
    decisions = Path(f"/tmp/style-decisions-{os.getpid()}.pickle")

    def run(mode: str, n: int, valgrind: bool = True) -> int:
        out = subprocess.run(
            [*(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
               if valgrind else []),
             sys.executable, __file__, "--count", mode, "--games", str(n), "--decisions",
             str(decisions), "--styles", styles], check=True, capture_output=True, text=True,
            cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)})
        found = re.search(r"Collected : (\d+)", out.stderr)
        return int(found.group(1)) if found else 0

    run("record", games, valgrind=False)
    try:
        whole = (run("whole", games) - run("whole", 0)) / games
        floor = (run("replay", games) - run("none", games)) / games
    finally:
        decisions.unlink()
    return whole, floor


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
    parser.add_argument("--instructions", type=int, metavar="N",
                        help="only count machine instructions a game over N games (callgrind)")
    parser.add_argument("--parts", type=int, metavar="N",
                        help="only count the bytecodes a game over N games, by part")
    parser.add_argument("--opcodes", type=int, metavar="N",
                        help="only count the bytecodes a game over N games, by decision kind")
    parser.add_argument("--styles", default=",".join(STYLES),
                        help="with --instructions: the styles at the table (turning seats)")
    parser.add_argument("--count", help=argparse.SUPPRESS)  # (a run under callgrind)
    parser.add_argument("--decisions", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run(tuple(args.one.split(",")), args.games, args.split)))
        return
    trees = {"this tree": ROOT, **({args.ref_tree.name: args.ref_tree} if args.ref_tree else {})}
    if args.count:
        counted(args.games, args.count, args.decisions, tuple(args.styles.split(",")))
        return
    if args.opcodes:
        opcodes(args.opcodes)
        return
    if args.parts:
        parts(args.parts)
        return
    if args.instructions:
        for name, tree in trees.items():
            whole, floor = instructions(tree, args.instructions, args.styles)
            print(f"{name}: {whole / 1e6:.2f} M instructions a game, the arena and the engine "
                  f"{floor / 1e6:.2f} M, the bots {(whole - floor) / 1e6:.2f} M "
                  f"({(whole - floor) / whole:.0%})", flush=True)
        return

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
