"""`companion demo`: a simulated table, played by bots, on the dashboard and in the terminal."""

from __future__ import annotations

import argparse
import random
import threading

from companion.commandline import add_config_argument, prepare

HELP = "a simulated table with its dashboard, played by bots (or by you, with --manual)"
NAMES = ["Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--port", type=int, help="dashboard port (default from the config)")
    parser.add_argument("--players", type=int, default=5, choices=range(4, 7), metavar="{4..6}")
    parser.add_argument("--pace", type=float, default=0.6, help="seconds between bot taps")
    parser.add_argument("--manual", action="store_true",
                        help="no bots: play from /referee and move sensors on /sim")
    parser.add_argument("--games", type=int, default=0, help="stop after N games (0: never)")
    parser.add_argument("--seed", type=int, help="the bots' seed (default: a new one, printed)")
    parser.add_argument("--journal", metavar="FILE",
                        help="the game journal (default: referee.journal of the config); an "
                             "unfinished game in it is resumed")


def run(args: argparse.Namespace) -> int:
    from companion.referee.views import public_event
    from companion.runner import start_table

    prepared = prepare(args.config, "WARNING")
    if prepared is None:
        return 2
    config, stop = prepared
    running = start_table(config, args.journal, port=args.port)
    table = running.table
    unfinished = table.game is not None and table.game.state.phase != "over"
    resumed = f"game {table.game.id} resumed from" if unfinished else "journal"
    print(f"Cash 'n Guns demo table on {running.url}  (Godfather's PIN {table.access.pin})\n"
          f"  {resumed} {running.journal.path} (run the demo again to go on)\n"
          f"  table view {running.url}/   controls {running.url}/referee   "
          f"virtual table {running.url}/sim\nCtrl-C to stop.", flush=True)
    printed = [0]

    def tell(_revision: int) -> None:
        game = table.game
        if game is None:
            return
        if len(game.state.events) < printed[0]:
            printed[0] = 0
        for e in game.state.events[printed[0]:]:
            text = public_event(e)["text"]
            print(("\n" if e["type"] == "round" else "  ") + text, flush=True)
        printed[0] = len(game.state.events)

    table.subscribe(tell)
    if not args.manual:
        if args.seed is None:
            args.seed = random.randrange(1 << 31)
        print(f"Bots play with --seed {args.seed}.", flush=True)
        threading.Thread(target=_play, args=(table, running.bridge.sim, stop, args),
                         name="demo-bots", daemon=True).start()
    stop.wait()
    running.stop()
    return 0


def _play(table: object, sim: object, stop: threading.Event, args: argparse.Namespace) -> None:
    from companion.bots.live_port import LivePort
    from companion.bots.table_bot import TableBot

    seats = len(getattr(sim, "boards", {})) or args.players
    players = min(args.players, seats)
    rnd = random.Random(args.seed)  # the games and the bots' choices; timing still varies
    played = 0
    resumed = bool(table.game and table.game.state.phase != "over")  # type: ignore[attr-defined]
    while not stop.is_set():
        bot = TableBot(LivePort(table, sim, stop, args.pace), rnd)  # type: ignore[arg-type]
        if not resumed:  # a game left unfinished in the journal is played on first
            bot.new_game(NAMES[:players], powers="random", seed=rnd.randrange(1 << 31))
        resumed = False
        try:
            while not stop.is_set() and bot.port.control()["phase"] != "over":
                bot.step(bot.port.control())
        except Exception as exc:  # a demo keeps going: a new game after a surprise
            print(f"  (bots: {exc}; starting a new game)", flush=True)
        played += 1
        if args.games and played >= args.games:
            stop.set()
        stop.wait(8)  # the final count stays on the screen a moment
