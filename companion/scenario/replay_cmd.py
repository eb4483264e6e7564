"""`companion replay FILE`: a scenario through the rules engine, as JSON on stdout."""

from __future__ import annotations

import argparse
import json
import sys

from companion.scenario.expect import mismatches
from companion.scenario.load import load_scenario
from companion.scenario.replay import replay
from companion.yamlfile import YamlError

HELP = "play a scenario file through the rules engine and print the game as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="scenario file (YAML)")
    parser.add_argument("--indent", type=int, default=None, help="pretty-print the JSON")
    parser.add_argument("--check", action="store_true",
                        help="check the file's expect block; exit 1 if any expectation fails")


def run(args: argparse.Namespace) -> int:
    try:
        scenario = load_scenario(args.file)
    except YamlError as e:
        print(f"companion replay: {e}", file=sys.stderr)
        return 2
    result = replay(scenario)
    json.dump(result.output, sys.stdout, indent=args.indent, ensure_ascii=False)
    sys.stdout.write("\n")
    code = 2 if result.error else 0
    if result.error:
        print(f"companion replay: {result.error}", file=sys.stderr)
    if args.check:
        failed = mismatches(result.output, code, scenario.expect)
        for line in failed:
            print(f"companion replay: {scenario.filename}: expect {line}", file=sys.stderr)
        if failed:
            return 1
    return code
