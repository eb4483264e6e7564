"""`companion replay FILE`: a scenario through the rules engine, as JSON on stdout;
`companion replay --journal FILE [--game N]`: a live game replayed from the inputs the
table journaled (companion.referee.journal_replay)."""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

from companion.scenario.load import load_scenario
from companion.scenario.replay import replay
from companion.yamlfile import YamlError

TYPE_CHECKING = False  # (argparse is imported only when a command line needs it)
if TYPE_CHECKING:
    import argparse

HELP = ("play a scenario file through the rules engine and print the game as JSON; or, "
        "with --journal, replay a live game's inputs and compare every decision and view")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="scenario file (YAML)")
    parser.add_argument("--journal", metavar="FILE",
                        help="a table's game journal: replay a recorded game from its inputs")
    parser.add_argument("--game", type=int, metavar="N",
                        help="with --journal: the game to replay (default: the latest)")
    parser.add_argument("--indent", type=int, default=None, help="pretty-print the JSON")
    parser.add_argument("--check", action="store_true",
                        help="check the file's expect block; exit 1 if any expectation fails")


def plain_args(words: list[str]) -> SimpleNamespace | None:
    """The arguments of `add_arguments` from a command line that spells them plainly: one
    FILE not starting with `-`, `--check`, `--indent` and a number of ASCII digits; None
    for any other (`--help`, `--indent=2`, an abbreviation, a mistake), which argparse then
    reads or refuses. Building argparse's parser costs about 6 ms of a replay's start."""
    args = SimpleNamespace(file=None, indent=None, check=False)
    rest = iter(words)
    for word in rest:
        if word == "--check":
            args.check = True
        elif word == "--indent":
            number = next(rest, "")
            if not (number.isascii() and number.isdigit()):
                return None
            args.indent = int(number)
        elif args.file is None and word and word[0] != "-":
            args.file = word
        else:
            return None
    return args if args.file is not None else None


def run(args: argparse.Namespace | SimpleNamespace) -> int:
    journal, game = getattr(args, "journal", None), getattr(args, "game", None)
    if journal is not None or game is not None or args.file is None:
        return _journal(journal, game, args.file)
    try:
        scenario = load_scenario(args.file)
    except YamlError as e:
        print(f"companion replay: {e}", file=sys.stderr)
        return 2
    result = replay(scenario)
    # (json.dumps, not dump: dump encodes in Python, piece by piece; dumps in C at once)
    sys.stdout.write(json.dumps(result.output, indent=args.indent, ensure_ascii=False) + "\n")
    code = 2 if result.error else 0
    if result.error:
        print(f"companion replay: {result.error}", file=sys.stderr)
    if args.check:
        from companion.scenario.expect import mismatches

        failed = mismatches(result.output, code, scenario.expect)
        for line in failed:
            print(f"companion replay: {scenario.filename}: expect {line}", file=sys.stderr)
        if failed:
            return 1
    return code


def _journal(path: str | None, game: int | None, file: str | None) -> int:
    if path is None or file is not None:
        print("companion replay: give a scenario FILE, or --journal FILE [--game N]",
              file=sys.stderr)
        return 2
    from companion.referee.journal_replay import run as replay_journal

    lines: list[str] = []
    code = replay_journal(path, game, lines)
    print("\n".join(lines), file=sys.stdout if code == 0 else sys.stderr)
    return code
