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
                 r"\| (?P<wrong>\d+) \((?P<bound>[\d.]+)%\) \| (?P<lock>[\d.]+)% of (?P<n>\d+) ")


POOLED = "| grip | players | check | tables | held aims ("
POOL_ROW = re.compile(r"\| (?P<grip>[^|]+) \| (?P<players>[^|]+) \| (?P<check>\w+) \| \d+ "
                      r"\| (?P<held>\d+) \| (?P<wrong>\d+) \([\d.]+%\) \| (?P<lock>[\d.]+)% of ")
ACCEPTED = "| players | rows the check accepts | held aims ("
ACCEPTED_ROW = re.compile(
    r"\| (?P<players>[^|]+) \| (?P<rows>\d+) \| (?P<held>\d+) \| (?P<fewest>\d+) "
    r"\| (?P<wrong>\d+) \((?P<bound>[\d.]+)%\) \| (?P<lock>[\d.]+)% of (?P<n>\d+) "
    r"\((?P<least>[\d.]+)%\) \| (?P<swept>\d+) of \d+ \| (?P<lowered>\d+) of \d+ \|$")


def rows(head: str = HEAD, row: re.Pattern = ROW, which: int = 0) -> list[dict[str, str]]:
    """The rows of the `which`-th table of PERFORMANCE.md whose header starts `head`."""
    text = DOC.read_text()
    at = -1
    for _ in range(which + 1):
        at = text.index(head, at + 1)
    table = text[at:].split("\n\n")[0].splitlines()[2:]
    found = [m.groupdict() for line in table if (m := row.match(line))]
    assert len(found) == len(table), "every row of the table is read"
    return found


def test_the_tables_verdicts_are_the_seating_checks():
    """Seated, half standing, and leaning in or turned: every table's verdicts."""
    tables = [rows(which=k) for k in range(DOC.read_text().count(HEAD))]
    # grips on six tables seated, half standing, leaning in or turned; then every
    # seating the check accepts, per stance, at 600 held aims or more; then the rows
    # with a miss with the lock, at 600 such aims
    assert [len(t) for t in tables] == [24, 24, 60, 60, 5]
    for r in (r for t in tables for r in t):
        assert r["check"] == seating_verdict(r["shape"], float(r["size"]), r["seating"],
                                             r["grip"]), r


def test_leaning_and_turned_players_meet_the_targets_where_the_check_accepts():
    """Pooled per grip and stance over the tables the check accepts; where it warns, a
    turned torso misses the lock's target (the rows of three, PERFORMANCE.md)."""
    pools = rows(POOLED, POOL_ROW)
    assert {(r["grip"], r["players"]) for r in pools if r["check"] == "ok"} == {
        (g, s) for g in ("held out", "arm extended", "at the chest", "from the shoulder")
        for s in ("leaning in", "turned torso")}
    for r in pools:
        missed = int(r["wrong"]) > 0.005 * int(r["held"]) or float(r["lock"]) < 99.5
        if r["check"] == "ok":
            assert not missed, r
    assert all(float(r["lock"]) < 99.5 for r in pools
               if r["check"] == "warn" and r["players"] == "turned torso")


def test_the_check_refuses_exactly_where_a_grip_misses_the_targets():
    for r in rows():
        missed = int(r["wrong"]) > 0.005 * int(r["held"]) or float(r["lock"]) < 99.5
        assert missed == (r["check"] == "refuse"), r


def test_every_seating_the_check_accepts_bounds_its_wrong_calls_below_the_target():
    """At 600 held aims or more a row with no wrong call bounds its rate below 0.5 % at
    95 % (3/N): every grip, stance and table the check accepts ("ok"), two seeds."""
    accepted = rows(which=3)
    assert {r["players"] for r in accepted} == {"seated", "half standing", "leaning in",
                                                 "turned torso"}
    for r in accepted:
        assert r["check"] == "ok", r
        assert int(r["held"]) >= 600 and float(r["bound"]) <= 0.5, r


def test_the_totals_over_what_the_check_accepts_meet_the_targets():
    """Per stance over every row the check accepts: wrong under 0.5 % at 95 %, at least
    99.5 % correct with the lock at 1 to 3°, no sweep and no lowered gun counted."""
    totals = rows(ACCEPTED, ACCEPTED_ROW)
    assert [r["players"] for r in totals] == ["seated", "half standing", "leaning in",
                                              "turned torso"]
    for r in totals:
        assert int(r["rows"]) == 15 and int(r["fewest"]) >= 600, r
        assert float(r["bound"]) < 0.5 and float(r["lock"]) >= 99.5, r
        assert r["swept"] == r["lowered"] == "0", r


def test_the_rows_with_a_miss_meet_the_lock_target_at_600_such_aims():
    """The accepted rows that missed once with the lock at 1 to 3° (late swings), played
    again at about 600 of those aims: at least 99.5 % correct, never wrong."""
    again = rows(which=4)
    for r in again:
        assert r["check"] == "ok" and r["wrong"] == "0", r
        assert int(r["n"]) >= 550 and float(r["lock"]) >= 99.5, r
