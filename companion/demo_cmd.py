"""`companion demo`: a simulated table, played by bots, on the dashboard and in the terminal.

Each seat has a bot with a style (`--bots`); anyone may take a seat over from its bot, on
the virtual table ("Take this seat") or by scanning the seat's QR code on the Phones tab,
and hand it back from the phone page: the bot plays the seat again.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.commandline import add_config_argument, prepare
from companion.config import Config

HELP = "a simulated table with its dashboard, played by bots (or by you, with --manual)"
NAMES = ["Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"]
STYLES = "cautious,aggressive,greedy,vengeful"  # the bots by default, seat after seat
MAX_ERRORS = 20  # surprises in a row before the bots start a new game
# the end screen (the final count, the winner) stays this long before the bots start the
# next game: time for a table to read every total and the rule that decided (README.md)
END_SCREEN_S = 30


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--port", type=int, help="dashboard port (default from the config)")
    parser.add_argument("--players", type=int, default=5, choices=range(4, 9), metavar="{4..8}")
    parser.add_argument("--bots", default=STYLES, metavar="STYLES",
                        help=f"the bots' styles, seat after seat, comma-separated (default "
                             f"{STYLES}; also random, strong: docs/BOTS.md)")
    parser.add_argument("--pace", type=float, default=0.6,
                        help="seconds the bots pause before each look at the table and its tap")
    parser.add_argument("--manual", action="store_true",
                        help="no bots: play from /referee and move sensors on /sim")
    parser.add_argument("--games", type=int, default=0, help="stop after N games (0: never)")
    parser.add_argument("--seed", type=int, help="the bots' seed (default: a new one, printed)")
    parser.add_argument("--journal", metavar="FILE",
                        help="the game journal (default: referee.journal of the config); an "
                             "unfinished game in it is resumed (with --manual: asked)")
    unfinished = parser.add_mutually_exclusive_group()
    unfinished.add_argument("--resume", action="store_true",
                            help="with --manual: play on the journal's unfinished game "
                                 "(perhaps the bots'), without asking")
    unfinished.add_argument("--new", action="store_true",
                            help="with --manual: end the journal's unfinished game and start "
                                 "with none, without asking")


def seated(config: Config, players: int) -> Config:
    """The simulated table with a gun, a badge and a standee for each of the players."""
    sim = config.sensors.sim
    if not sim.guns or len(sim.guns) == players:
        return config
    sim = dataclasses.replace(sim, guns=tuple(range(1, players + 1)), seating=None)
    sensors = dataclasses.replace(config.sensors, sim=sim)
    return dataclasses.replace(config, sections={**config.sections, "sensors": sensors})


def run(args: argparse.Namespace) -> int:
    from companion.bots.lab import parse_styles
    from companion.referee.views import public_event
    from companion.rules.events import RoundBegun
    from companion.runner import start_table

    try:
        styles = parse_styles(args.bots)
    except ValueError as e:
        print(f"companion demo: --bots: {e}")
        return 2
    prepared = prepare(args.config, "WARNING")
    if prepared is None:
        return 2
    config, stop = prepared
    journal = args.journal or config["referee"].journal
    if args.manual and not keep_or_end(journal, args.resume, args.new, ask):
        return 2
    running = start_table(seated(config, args.players), args.journal, port=args.port)
    table = running.table
    unfinished = table.game is not None and not table.game.state.over
    resumed = f"game {table.game.id} resumed from" if unfinished else "journal"
    print(f"Cash 'n Guns demo table on {running.url}  (Godfather's PIN {table.access.pin})\n"
          f"  {resumed} {running.journal.path} (run the demo again to go on)\n"
          f"  table view {running.url}/   controls {running.url}/referee   "
          f"virtual table {running.url}/sim\nCtrl-C to stop.", flush=True)
    printed = [0]

    def tell(_revision: int) -> None:
        """The story told from the views the outbox built after the change's writes, so a
        line is never printed before its action is on disk."""
        game = table.frame().t.game
        if game is None:
            return
        if len(game.state.events) < printed[0]:
            printed[0] = 0
        for e in game.state.events[printed[0]:]:
            text = public_event(e)["text"]
            print(("\n" if isinstance(e, RoundBegun) else "  ") + text, flush=True)
        printed[0] = len(game.state.events)

    table.subscribe(tell)
    if not args.manual:
        if args.seed is None:
            args.seed = random.randrange(1 << 31)
        seats = range(1, args.players + 1)
        table.stand_ins = {seat: styles[(seat - 1) % len(styles)] for seat in seats}
        print(f"Bots play with --seed {args.seed}.\n  Their styles: " + ", ".join(
            f"seat {seat} {style}" for seat, style in table.stand_ins.items()) +
            ".\n  Take a seat over on the virtual table, or scan its QR code on the Phones "
            "tab; hand it back from the phone page.", flush=True)
        threading.Thread(target=_play, args=(table, running.bridge.sim, stop, args),
                         name="demo-bots", daemon=True).start()
    stop.wait()
    running.stop()
    return 0


def ask(question: str) -> str | None:
    """The answer typed at the terminal; None when nobody can type (no terminal)."""
    if not sys.stdin.isatty():
        return None
    try:
        return input(question)
    except EOFError:
        return None


def keep_or_end(path: str | Path, resume: bool, new: bool,
                answer: Callable[[str], str | None]) -> bool:
    """Before a --manual demo: an unfinished game in the journal (the bot demo's, say) is
    resumed or ended as --resume / --new or the person at the terminal says; without a
    terminal and either flag, the demo says so and does not start (False)."""
    from companion.referee.journal import Journal

    if not Path(path).exists():
        return True
    journal = Journal(path)
    try:
        latest = journal.latest_game()
        if latest is None or latest[1]:
            return True
        game = latest[0]
        if not resume and not new:
            said = answer(f"Game {game} in {path} is unfinished (the bots' perhaps). "
                          "Resume it? [y = resume, n = start with no game] ")
            if said is None:
                print(f"companion demo: game {game} in {path} is unfinished: start again "
                      "with --resume to play it on, or --new to end it and start afresh")
                return False
            new = not said.strip().lower().startswith("y")
        if new:
            journal.finish(game)
            print(f"Game {game} ended unfinished; start a new one from /referee.")
        return True
    finally:
        journal.close()


def _play(table: Any, sim: Any, stop: threading.Event, args: argparse.Namespace) -> None:
    from companion.bots.live_port import LivePort
    from companion.bots.stand_ins import StandIns
    from companion.bots.table_bot import TableBot

    rnd = random.Random(args.seed)  # the games and the bots' choices; timing still varies
    players = StandIns(table, table.stand_ins, args.seed)
    played = 0
    resumed = bool(table.game and not table.game.state.over)
    while not stop.is_set():
        bot = TableBot(LivePort(table, sim, stop, args.pace), rnd, players=players)
        if not resumed:  # a game left unfinished in the journal is played on first
            start_game(bot, NAMES[:args.players], rnd.randrange(1 << 31), stop)
        resumed = False
        errors = 0
        while not stop.is_set() and errors < MAX_ERRORS and \
                not (state := bot.port.control())["over"]:
            try:
                bot.step(state)
                errors = 0
            except Exception as exc:  # a demo keeps going: a person moved first, say
                errors += 1
                print(f"  (bots: {exc})", flush=True)
                stop.wait(args.pace)
        played += 1
        if args.games and played >= args.games:
            stop.set()
        stop.wait(END_SCREEN_S)


def start_game(bot: Any, players: list[str], seed: int, stop: threading.Event) -> None:
    """A new game, tapped again while the table moves on between reading its version and
    the tap (409: a sensor's reading, a countdown ending): the bots always get their game."""
    from companion.referee.commands import CommandError

    while not stop.is_set():
        try:
            bot.new_game(players, powers="random", seed=seed)
            return
        except CommandError as exc:
            if exc.kind != "conflict":
                raise
            stop.wait(0.05)

