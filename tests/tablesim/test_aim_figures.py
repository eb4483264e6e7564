"""The aim bench's figures per grip and seating in docs/PERFORMANCE.md against the seating
check: where a grip misses the targets on a seating (wrong over 0.5 %, or under 99.5 %
correct with the lock LED at 1 to 3°), the check refuses that seating for that grip, and
where the check accepts one the figures meet the targets. The table is the bench's own
output (`bench/aim_accuracy.py --summary`); the verdicts are the check's, computed here."""

from __future__ import annotations

import re
from pathlib import Path

from companion.tablesim.advice import seating_verdict

DOC = Path(__file__).resolve().parents[2] / "docs" / "PERFORMANCE.md"
HEAD = "| grip | players | table | check | held aims ("
ROW = re.compile(r"\| (?P<grip>[^|]+) \| (?P<players>[^|]+) \| (?P<shape>round|rect) "
                 r"(?P<size>[\d.]+) m (?P<seating>[\d+]+) \| (?P<check>\w+) \| (?P<held>\d+) "
                 r"\| (?P<wrong>\d+) \([\d.]+%\) \| (?P<lock>[\d.]+)% of (?P<n>\d+) ")


def rows() -> list[dict[str, str]]:
    text = DOC.read_text()
    table = text[text.index(HEAD):].split("\n\n")[0].splitlines()[2:]
    found = [m.groupdict() for line in table if (m := ROW.match(line))]
    assert len(found) == len(table), "every row of the table is read"
    return found


def test_the_tables_verdicts_are_the_seating_checks():
    found = rows()
    assert len(found) >= 24  # four grips on six tables
    for r in found:
        assert r["check"] == seating_verdict(r["shape"], float(r["size"]), r["seating"],
                                             r["grip"]), r


def test_the_check_refuses_exactly_where_a_grip_misses_the_targets():
    for r in rows():
        missed = int(r["wrong"]) > 0.005 * int(r["held"]) or float(r["lock"]) < 99.5
        assert missed == (r["check"] == "refuse"), r
