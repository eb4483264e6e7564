"""The `referee:` config section: countdown pace, snapshot windows, PIN, journal, outputs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from companion.bus.topics import DISCOVERY_PREFIX
from companion.config import Node
from companion.referee.timing import Timing

PIN = re.compile(r"[0-9]{4,8}")
NAME = re.compile(r"\S.{0,23}")


@dataclass(frozen=True)
class RefereeSettings:
    timing: Timing = field(default_factory=Timing)
    pin: str | None = None  # None: generated and printed at start
    journal: Path = Path("var/journal.sqlite3")
    keep_games: int = 100  # finished games kept in the journal, the oldest deleted; 0: all
    names: dict[int, str] = field(default_factory=dict)  # seat -> default player name
    buzzer_pin: int | None = None  # a piezo buzzer on a Pi pin beeps the countdown
    home_assistant: bool = False  # publish Home Assistant MQTT discovery
    discovery_prefix: str = DISCOVERY_PREFIX


def parse(node: Node) -> RefereeSettings:
    t = node.section("timing")
    timing = Timing(
        beat_ms=t.number("beat_ms", 800.0, lo=200, hi=3000),
        hold_ms=t.number("hold_ms", 500.0, lo=0, hi=2000),
        too_slow_ms=t.number("too_slow_ms", 1000.0, lo=100, hi=5000),
        settle_ms=t.number("settle_ms", 150.0, lo=0, hi=2000),
        posture_ms=t.number("posture_ms", 700.0, lo=0, hi=3000),
    )
    t.done()
    if timing.too_slow_ms < timing.hold_ms:
        raise t.error("too_slow_ms", "must be at least hold_ms")
    pin = node.raw("pin", None)
    if pin is not None and not (isinstance(pin, str) and PIN.fullmatch(pin)):
        raise node.error("pin", "must be 4 to 8 digits, quoted (e.g. \"2468\")")
    names: dict[int, str] = {}
    for seat_node in node.items("seats"):
        seat = seat_node.integer("seat", lo=1, hi=8)
        if seat in names:
            raise seat_node.error("seat", f"seat {seat} is listed twice")
        names[seat] = seat_node.text("name", pattern=NAME)
        seat_node.done()
    return RefereeSettings(
        timing=timing,
        pin=pin,
        journal=Path(node.text("journal", "var/journal.sqlite3")),
        keep_games=node.integer("keep_games", 100, lo=0, hi=100_000),
        names=names,
        buzzer_pin=node.integer("buzzer_pin", None, lo=0, hi=27),
        home_assistant=node.flag("home_assistant", False),
        discovery_prefix=node.text("discovery_prefix", DISCOVERY_PREFIX),
    )
