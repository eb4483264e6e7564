"""`python -m companion.sensors.sim [--config FILE] COMMAND...`: act on a running simulated table.

Each command (e.g. `aim 3 5`, `tip 2`, `unplug 4`; see COMMANDS) is checked here and
sent to the running `companion sensors` on its `sim/command` topic.
"""

from __future__ import annotations

import argparse
import os
import sys

from companion.bus.broker import BrokerError
from companion.bus.client import BusClient
from companion.bus.topics import Topics
from companion.config import ConfigError, load
from companion.sensors.sim.simulator import COMMANDS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.sensors.sim", description=__doc__.splitlines()[0],
        epilog="commands: " + "; ".join(COMMANDS.values()))
    parser.add_argument("--config", metavar="FILE")
    parser.add_argument("command", nargs="+", help="one command, e.g. aim 3 5")
    args = parser.parse_args(argv)
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"config error: {exc}", file=sys.stderr)
        return 2
    text = " ".join(args.command)
    if args.command[0] not in COMMANDS:
        print(f"unknown command {args.command[0]!r}; known: {', '.join(COMMANDS.values())}",
              file=sys.stderr)
        return 2
    bus = BusClient(config.mqtt, f"cashnguns-{config.table}-simcli-{os.getpid()}", qos=1,
                    user="sim")
    try:
        bus.start(wait_s=3)
    except BrokerError as exc:
        print(exc, file=sys.stderr)
        return 1
    if not bus.connected.is_set():
        print(f"no broker at {config.mqtt.describe()}: is `companion sensors` running?",
              file=sys.stderr)
        bus.stop()
        return 1
    bus.publish(Topics(config.table).sim_command, text).wait_for_publish(3)
    bus.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
