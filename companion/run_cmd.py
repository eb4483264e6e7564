"""`companion run`: the whole table: broker, sensors, referee and dashboard in one process."""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from companion.config import ConfigError, load
from companion.runner import log, start_table
from companion.sensors.sensors_cmd import setup_logging

HELP = "run the table: sensors, broker, referee and the tablet dashboard"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="YAML config (default: $COMPANION_CONFIG or config/table.sim.yaml)")
    parser.add_argument("--journal", metavar="FILE", help="the game journal (overrides config)")
    parser.add_argument("--host", help="dashboard bind address (overrides config)")
    parser.add_argument("--port", type=int, help="dashboard port, 0 for any free one")
    parser.add_argument("--log-level", default="INFO",
                        choices=["DEBUG", "INFO", "WARNING", "ERROR"])


def run(args: argparse.Namespace) -> int:
    setup_logging(args.log_level)
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"config error: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        running = start_table(config, args.journal, args.host, args.port)
    except (RuntimeError, OSError) as exc:
        log.error("cannot start: %s", exc)
        return 1
    stop.wait()
    log.info("stopping")
    running.stop()
    return 0
