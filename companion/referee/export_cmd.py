"""`companion export`: a game from the journal as a scenario file, on standard output."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.referee.export import export_scenario
from companion.referee.journal import Journal, JournalError

HELP = "write a journaled game (the latest by default) as a scenario file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--journal", default="var/journal.sqlite3", help="the journal file")
    parser.add_argument("--game", type=int, default=None, help="game number (default: latest)")


def run(args: argparse.Namespace) -> int:
    if not Path(args.journal).is_file():
        print(f"companion export: no journal at {args.journal}", file=sys.stderr)
        return 2
    try:
        journal = Journal(args.journal)
    except JournalError as e:
        print(f"companion export: {e}", file=sys.stderr)
        return 2
    game = args.game
    if game is None:
        latest = journal.latest_game()
        if latest is None:
            print(f"companion export: no game in {args.journal}", file=sys.stderr)
            return 2
        game = latest[0]
    try:
        sys.stdout.write(export_scenario(journal, game))
    except KeyError as e:
        print(f"companion export: {e.args[0]}", file=sys.stderr)
        return 2
    return 0
