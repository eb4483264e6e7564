"""Bot speed: whole games between style bots, and the strong bot's time per decision.

    .venv/bin/python bench/bots.py [--games 300] [--players 6] [--strong-games 3]

One core, one process. Figures go to docs/PERFORMANCE.md; the lab (`companion simulate`)
runs the same games on every core.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from companion.bots import lab
from companion.bots.strong import StrongBot
from companion.bots.styles import Option
from companion.bots.view import SeatView

TIMES: list[float] = []


class Timed(StrongBot):
    """The strong bot, timing each decision it had to think about (in `TIMES`)."""

    def decide(self, view: SeatView | None, options: Sequence[Option]) -> Option:
        start = time.perf_counter()
        choice = super().decide(view, options)
        TIMES.append(time.perf_counter() - start)
        return choice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--strong-games", type=int, default=3)
    args = parser.parse_args()

    styles = ("cautious", "aggressive", "greedy", "vengeful", "random")
    plan = lab.Plan(games=args.games, players=args.players, styles=styles, seed=1)
    start = time.perf_counter()
    records = lab.run(plan, jobs=1)
    elapsed = time.perf_counter() - start
    actions = sum(r["actions"] for r in records)
    print(f"style bots ({args.players} players, powers): {args.games / elapsed:6.1f} games/s, "
          f"{actions / elapsed:7.0f} actions/s on one core")

    lab.STYLES["strong"] = Timed
    plan = lab.Plan(games=args.strong_games, players=args.players,
                    styles=("strong", *styles), seed=1)
    start = time.perf_counter()
    lab.run(plan, jobs=1)
    elapsed = time.perf_counter() - start
    t = sorted(TIMES)
    print(f"strong bot ({StrongBot(0).playouts} playouts): {len(t) / args.strong_games:.0f} "
          f"decisions a game, median {statistics.median(t) * 1000:.0f} ms, "
          f"p90 {t[int(0.9 * len(t))] * 1000:.0f} ms, max {t[-1] * 1000:.0f} ms; "
          f"{elapsed / args.strong_games:.1f} s a game with one strong seat")


if __name__ == "__main__":
    main()
