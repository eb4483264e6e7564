"""The `companion` command: one sub-command per module, imported only when used.

Each command module exposes `HELP` (one line), `add_arguments(parser)` and
`run(args) -> int`; importing lazily keeps `companion replay` fast to start, and a replay's
plainly spelled command line is read without argparse (`replay_cmd.plain_args`).
"""

from __future__ import annotations

import importlib
import os
import sys

TYPE_CHECKING = False  # (argparse is imported only when a command line needs it)
if TYPE_CHECKING:
    import argparse
    from types import ModuleType

COMMANDS: dict[str, str] = {
    "replay": "companion.scenario.replay_cmd",
    "simulate": "companion.bots.simulate_cmd",
    "sensors": "companion.sensors.sensors_cmd",
    "doctor": "companion.sensors.doctor_cmd",
    "demo": "companion.demo_cmd",
    "run": "companion.run_cmd",
    "export": "companion.referee.export_cmd",
    "league": "companion.league.league_cmd",
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["replay"]:
        from companion.scenario import replay_cmd

        plain = replay_cmd.plain_args(argv[1:])
        if plain is not None:
            return run_command(replay_cmd, plain)
    args = parse(argv)
    return run_command(args._module, args)


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line by argparse, with the command's module as `_module`."""
    import argparse

    parser = argparse.ArgumentParser(prog="companion", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    name = argv[0] if argv and argv[0] in COMMANDS else None
    for cmd, module_name in COMMANDS.items():
        if cmd == name:
            module = importlib.import_module(module_name)
            p = sub.add_parser(cmd, help=module.HELP, description=module.HELP)
            module.add_arguments(p)
            p.set_defaults(_module=module)
        else:
            sub.add_parser(cmd, help=f"see 'companion {cmd} --help'")
    return parser.parse_args(argv)


def run_command(module: ModuleType, args: object) -> int:
    try:
        return int(module.run(args) or 0)
    except BrokenPipeError:  # the reader (e.g. `head`) has gone: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
