"""What the long-running commands share: logging, the config file, stopping on a signal."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading

from companion.config import Config, ConfigError, load


def setup_logging(level: str) -> None:
    """Timestamped lines on a terminal; priority-prefixed ones when stderr is journald's."""
    from companion.service.journald import JournalFormatter, stderr_is_journal

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JournalFormatter() if stderr_is_journal() else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])


def add_config_argument(parser: argparse.ArgumentParser, log_level: bool = False) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="YAML config (default: $COMPANION_CONFIG or config/table.sim.yaml)")
    if log_level:
        parser.add_argument("--log-level", default="INFO",
                            choices=["DEBUG", "INFO", "WARNING", "ERROR"])


def load_config(path: str | None) -> Config | None:
    """The checked config, or None after saying on stderr what is wrong and where."""
    try:
        return load(path)
    except ConfigError as exc:
        print(f"config error: {exc}", file=sys.stderr)
        return None


def prepare(config_path: str | None, log_level: str) -> tuple[Config, threading.Event] | None:
    """Logging, the checked config and a stop event: what a long-running command needs
    first. None when the config is wrong (already said on stderr)."""
    setup_logging(log_level)
    config = load_config(config_path)
    return None if config is None else (config, stop_event())


def stop_event() -> threading.Event:
    """An event set by SIGINT (Ctrl-C) or SIGTERM, for a clean stop, however many come.

    Python runs a signal's handler in the main thread between two of its steps, so a handler
    that set the event could wait forever for the event's own lock, held by the very step
    it interrupted (a second signal while the first was being handled). So the handlers do
    nothing: the signal's number reaches a pipe at C level (`signal.set_wakeup_fd`), and a
    thread reading that pipe sets the event."""
    stop = threading.Event()
    read, write = os.pipe()
    os.set_blocking(write, False)
    signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    for sig in STOP_SIGNALS:
        signal.signal(sig, _noted_by_the_pipe)
    threading.Thread(target=_watch_signals, args=(read, stop), name="stop-signals",
                     daemon=True).start()
    return stop


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _noted_by_the_pipe(_sig: int, _frame: object) -> None:
    """Nothing: the pipe has the signal (see `stop_event`)."""


def _watch_signals(read: int, stop: threading.Event) -> None:
    while True:
        if any(sig in STOP_SIGNALS for sig in os.read(read, 512)):
            stop.set()
