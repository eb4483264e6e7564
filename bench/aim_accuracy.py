"""Aim accuracy: scripted hands on simulated tables, through the aim rule and the referee.

    .venv/bin/python bench/aim_accuracy.py [--trials N] [--seed S] [--quick]
                                           [--optics SCENE] [--json FILE] [--svg FILE]
    .venv/bin/python bench/aim_accuracy.py --grips [--trials N] [--seed S] [--optics SCENE]
                                           [--stances seated,mixed] [--offsets 3]
                                           [--only-grips "held out,at the chest"]
                                           [--held-aims N] [--accepted]
                                           [--only-tables "round 0.9 4"]
    .venv/bin/python bench/aim_accuracy.py --summary seed1.json seed2.json
    .venv/bin/python bench/aim_accuracy.py --stillness [--seed S]

For each table (round and rectangular, 0.9 to 1.6 m, 4 to 8 seats), offset (1 to 5 degrees
RMS) and lock feedback (off, on), plays `trials` scenes: every gun gets one intent (hold a
target from before "three", swing to another target arriving around "three", sweep across
two neighbours at 10 to 200 °/s, point between two neighbours, or lower the gun; with
--grips also lazy holds, 6 to 8° off, and shaky ones, a tremor of 0.3 to 0.5°). The hub's
slots (2000 us, a dark slot first) ask `TableModel.detect`; each gun's IMU goes through the
hub's `companion.wire.motion.GunMotion` (raised or lowered, still or moving) and its
looks, those of a moving gun emptied, through `companion.wire.aimrule.AimTracker` (hold
500 ms), its lock LED back to the hand; the referee's window around "three" then counts
the aim. --grips plays every grip (geometry.GRIPS) seated and with every other player
standing, at 3°; --stances adds leaning in and a turned torso (geometry.STANCES), --offsets
other offsets (1,2,3,4,5), --only-grips and --only-tables fewer of them, --accepted only
the seatings the seating check accepts for the grip, --held-aims N as many scenes a case
as give each grip, stance and table N held aims a seed (a table of 4 plays twice the
scenes of one of 8: a row's 95 % bound on wrong calls needs its aims, not its scenes).
--summary pools the --grips runs'
JSON files (one a seed) per grip, stance and table over the offsets and the seeds, with
95 % bounds and the seating check's verdict for that grip. Deterministic for a seed,
whatever the number of worker processes (the scenes: bench/aim_scenes.py, the tables of
figures: bench/aim_report.py). Figures go to docs/PERFORMANCE.md, the chart to
docs/aim-accuracy.svg.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import resource
import sys
import time
from pathlib import Path

from aim_report import grip_table_text, meets, summary, svg_chart, table_text
from aim_scenes import GRIP_TABLES, HELD_SHARE, OFFSETS, OPTICS, TABLES, run_case, stillness

from companion.tablesim.advice import seating_verdict
from companion.tablesim.geometry import GRIPS, STANCES, make_table


def scenes_for(args: argparse.Namespace, seats: int) -> int:
    """Scenes a case: --trials, or with --held-aims as many as give a grip, stance and
    table row (its offsets, lock off and on) that many held aims a seed, expected."""
    if not args.held_aims:
        return args.trials
    per_scene = HELD_SHARE * seats * len(args.offsets) * 2
    return math.ceil(args.held_aims / per_scene)


def cases(args: argparse.Namespace) -> list[tuple]:
    if args.grips:
        return [(args.seed, scenes_for(args, make_table(*table).seats), *table, offset, fb,
                 args.optics, grip, stance)
                for table in GRIP_TABLES if table in args.only_tables
                for grip in args.only_grips
                if not args.accepted or seating_verdict(*table, grip) == "ok"
                for stance in args.stances for offset in args.offsets for fb in (False, True)]
    tables = TABLES
    offsets = OFFSETS
    if args.quick:
        tables = [("round", 1.2, "8"), ("round", 0.9, "4"), ("rect", 1.6, "3+3"),
                  ("rect", 1.2, "2+2+1+1")]
        offsets = (3.0,)
    return [(args.seed, args.trials * (2 if offset == 3.0 else 1), *table, offset, fb,
             args.optics)
            for table in tables for offset in offsets for fb in (False, True)]


def _stances(text: str) -> tuple[str, ...]:
    chosen = tuple(text.split(","))
    if not set(chosen) <= set(STANCES):
        raise argparse.ArgumentTypeError(f"stances are {', '.join(STANCES)}")
    return chosen


def _grips(text: str) -> tuple[str, ...]:
    chosen = tuple(g.strip() for g in text.split(","))
    if not set(chosen) <= set(GRIPS):
        raise argparse.ArgumentTypeError(f"grips are {', '.join(GRIPS)}")
    return chosen


def _tables(text: str) -> tuple[tuple, ...]:
    chosen = []
    for name in text.split(","):
        shape, size, seating = [*name.split(), "", "", ""][:3]
        table = (shape, float(size) if size.replace(".", "").isdigit() else 0.0, seating)
        if table not in GRIP_TABLES:
            raise argparse.ArgumentTypeError(
                "tables are " + ", ".join(f"{a} {b} {c}" for a, b, c in GRIP_TABLES))
        chosen.append(table)
    return tuple(chosen)


def _offsets(text: str) -> tuple[float, ...]:
    try:
        chosen = tuple(float(o) for o in text.split(","))
    except ValueError:
        chosen = ()
    if not chosen or not all(0 < o <= 10 for o in chosen):
        raise argparse.ArgumentTypeError("offsets: degrees from 0 to 10, e.g. 1,2,3,4,5")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=60,
                        help="scenes per case (doubled at 3 degrees)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a few tables at 3 degrees (CI)")
    parser.add_argument("--optics", choices=OPTICS, default="typical",
                        help="the parts and the table top (default: typical parts, no cloth)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--svg", type=Path)
    parser.add_argument("--workers", type=int, default=None, help="default: all cores")
    parser.add_argument("--grips", action="store_true",
                        help="every grip, seated and half standing, at 3 degrees")
    parser.add_argument("--stances", type=_stances, default=("seated", "mixed"),
                        help="with --grips: comma-separated, of " + ", ".join(STANCES))
    parser.add_argument("--offsets", type=_offsets, default=(3.0,),
                        help="with --grips: degrees RMS, comma-separated, e.g. 1,2,3,4,5")
    parser.add_argument("--only-grips", type=_grips, default=tuple(GRIPS),
                        help="with --grips: comma-separated, of " + ", ".join(GRIPS))
    parser.add_argument("--only-tables", type=_tables, default=tuple(GRIP_TABLES),
                        help='with --grips: comma-separated, e.g. "round 0.9 4,rect 1.2 2+2+1+1"')
    parser.add_argument("--held-aims", type=int, default=0, metavar="N",
                        help="with --grips: scenes a case for N held aims a seed per grip, "
                        "stance and table (fewer seats, more scenes); instead of --trials")
    parser.add_argument("--accepted", action="store_true",
                        help="with --grips: only the seatings the seating check accepts "
                        "for the grip")
    parser.add_argument("--summary", type=Path, nargs="+", metavar="JSON",
                        help="pool --grips runs (one JSON file a seed) per grip and table")
    parser.add_argument("--stillness", action="store_true",
                        help="the rates held and swept guns show (motion.STILL_DPS)")
    args = parser.parse_args(argv)
    if args.summary:
        runs = [json.loads(path.read_text()) for path in args.summary]
        print(summary([r for run in runs for r in run["results"]],
                      len({run["seed"] for run in runs})))
        return 0
    if args.stillness:
        print(stillness(args.seed))
        return 0
    todo = cases(args)
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(run_case, todo, chunksize=1)
        pool.close()
        pool.join()  # the workers' CPU time is counted once they are waited for
    elapsed = time.perf_counter() - start
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    print(grip_table_text(results) if args.grips else table_text(results))
    failing = [r for r in results if not meets(r)]
    scenes = sum(case[1] for case in todo)
    print(f"\n{len(results)} cases in {elapsed:.0f} s; {len(results) - len(failing)} meet "
          f"wrong <= 0.5 %, no sweep counted and correct >= 99.5 %\n"
          f"{scenes} scenes, {cpu:.0f} CPU s in the workers: {scenes / max(cpu, 1e-9):.1f} "
          "scenes a CPU second")
    if args.json:
        args.json.write_text(json.dumps({"seed": args.seed, "trials": args.trials,
                                         "held_aims": args.held_aims,
                                         "optics": args.optics,
                                         "quick": args.quick, "results": results}, indent=1))
    if args.svg:
        args.svg.write_text(svg_chart(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
