"""`companion run`: the whole table: broker, sensors, referee and dashboard in one process."""

from __future__ import annotations

import argparse

from companion.commandline import add_config_argument, prepare
from companion.runner import log, start_table

HELP = "run the table: sensors, broker, referee and the tablet dashboard"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser, log_level=True)
    parser.add_argument("--journal", metavar="FILE", help="the game journal (overrides config)")
    parser.add_argument("--host", help="dashboard bind address (overrides config)")
    parser.add_argument("--port", type=int, help="dashboard port, 0 for any free one")


def run(args: argparse.Namespace) -> int:
    prepared = prepare(args.config, args.log_level)
    if prepared is None:
        return 2
    config, stop = prepared
    try:
        running = start_table(config, args.journal, args.host, args.port)
    except (RuntimeError, OSError) as exc:
        log.error("cannot start: %s", exc)
        return 1
    stop.wait()
    log.info("stopping")
    running.stop()
    return 0
