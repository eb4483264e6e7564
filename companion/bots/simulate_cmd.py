"""`companion simulate`: whole games of random legal play, for speed and balance figures."""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict

from companion.bots.random_bot import play, random_setup

HELP = "play whole games with random legal actions and print a summary"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=5, choices=range(4, 9), metavar="{4..8}",
                        help="players at the table (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed (default 0)")
    parser.add_argument("--powers", action="store_true", help="deal a random power to each")
    parser.add_argument("--cards", choices=("digital", "physical"), default="digital")


class Progress:
    """A one-line bar on a terminal; silent when standard error is not one."""

    def __init__(self, total: int) -> None:
        self.total, self.shown = total, -1
        self.live = sys.stderr.isatty() and total >= 50

    def update(self, done: int) -> None:
        percent = done * 100 // self.total
        if self.live and percent != self.shown:
            self.shown = percent
            bar = "#" * (percent // 4)
            print(f"\r[{bar:<25}] {done}/{self.total}", end="", file=sys.stderr, flush=True)
            if done == self.total:
                print(file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("companion simulate: --games must be at least 1", file=sys.stderr)
        return 2
    rounds = deaths = actions = no_winner = 0
    dealt: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    progress = Progress(args.games)
    start = time.perf_counter()
    for i in range(args.games):
        rnd = random.Random(args.seed * 1_000_003 + i)
        game = play(random_setup(rnd, args.players, args.seed + i, args.powers, args.cards), rnd)
        s = game.state
        rounds += s.round
        deaths += sum(not p.alive for p in s.players)
        actions += len(game.actions)
        no_winner += not s.winners
        for p in s.players:
            if p.power:
                dealt[p.power] += 1
                if p.name in s.winners:
                    wins[p.power] += 1 / len(s.winners)
        progress.update(i + 1)
    elapsed = time.perf_counter() - start
    n = args.games
    print(f"{n} games of {args.players} players{' with powers' if args.powers else ''} "
          f"in {elapsed:.2f} s: {n / elapsed:.0f} games/s, {actions / elapsed:.0f} actions/s")
    print(f"average rounds {rounds / n:.2f}, deaths per game {deaths / n:.2f}, "
          f"actions per game {actions / n:.1f}, games with no winner {no_winner}")
    if args.powers:
        print(f"win rate per power (an even share is {1 / args.players:.1%}):")
        for power in sorted(dealt, key=lambda p: -wins[p] / dealt[p]):
            print(f"  {power:<13} {wins[power] / dealt[power]:6.1%}  ({dealt[power]} games)")
    return 0
