"""The examples in firmware/PROTOCOL.md are real lines: right CRCs, right fields, and the
hub core, on MicroPython, takes the companion's commands as the document says."""

import re

from firmware_harness import FIRMWARE, check_sequence

from companion.wire import linecodec

DOC = (FIRMWARE / "PROTOCOL.md").read_text()


def example(heading):
    block = re.search(re.escape(heading) + r"\n```\n(.*?)```", DOC, re.S)
    assert block, heading
    return [line.encode() + b"\n" for line in block.group(1).splitlines()]


def test_the_board_examples_are_lines_a_hub_sends():
    decoded = check_sequence(example("Board → companion:"))
    assert {f[0] for f in decoded} == {"HELLO", "GUN", "POST", "SLOTS", "HB", "SEEN", "STAT",
                                       "PONG", "OK", "ERR"}


def test_the_command_examples_are_answered_as_documented(micropython):
    commands = example("Companion → board:")
    for raw in commands:
        assert linecodec.encode(linecodec.decode(raw)) == raw
    events = [["rx", 10 + i, raw.decode().rstrip("\n")] for i, raw in enumerate(commands)]
    [got] = micropython.ask(["hub", ["hub", [1, 2], 3000, 500, 30, 3], events])
    answers = [line.split("*")[0].split(" ") for line in got["lines"]]
    assert [a[0] for a in answers] == ["HELLO", "GUN", "POST", "GUN", "POST", "SLOTS", "PONG",
                                       "OK"]
    assert answers[-2][3:] == ["1f"] and got["schedule"] == [0, 1, 2]
