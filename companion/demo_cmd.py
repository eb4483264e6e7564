"""`companion demo`: a simulated table played by bots, told in the terminal."""

from __future__ import annotations

import argparse
import random
import time

from companion.bots.random_bot import play, random_setup
from companion.rules import state_to_dict
from companion.story import describe

HELP = "watch a simulated game played by bots"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=6, choices=range(4, 9), metavar="{4..8}")
    parser.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    parser.add_argument("--pace", type=float, default=0.4,
                        help="seconds between lines (default 0.4; 0 prints at once)")


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    rnd = random.Random(seed)
    game = play(random_setup(rnd, args.players, seed, powers=True), rnd)
    out = state_to_dict(game.state)
    powers = ", ".join(f"{p['name']} ({p['power'].replace('_', ' ')})" for p in out["players"])
    print(f"Seed {seed}. At the table: {powers}.")
    for event in out["events"]:
        print(("\n" if event["type"] == "round" else "  ") + describe(event), flush=True)
        time.sleep(args.pace)
    print("\nFinal count:")
    for p in sorted(out["players"], key=lambda p: -p["score"]["total"]):
        status = "" if p["alive"] else " (dead)"
        print(f"  {p['name']:<5} ${p['score']['total']:>7,}{status}")
    return 0
