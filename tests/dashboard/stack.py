"""A whole simulated table behind the dashboard, for the browser tests and the benchmark.

What `companion run` starts (companion.runner): the sensor bridge with its mock pins and
pty gun boards, the referee on a real broker with its clock ticking, and the dashboard
served by waitress. The virtual table's clicks therefore travel the same road as a real
sensor's edges.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

from companion import config
from companion.referee.commands import Auth
from companion.referee.table import Table
from companion.runner import Running, start_table

PIN = "2468"
SEATS = (1, 2, 3, 4, 5, 6)
_tables = itertools.count(1)


def table_config(tmp: Path, mqtt_url: str, debounce_ms: int,
                 seats: tuple[int, ...] = SEATS, more: str = "",
                 referee: str = "") -> config.Config:
    """Quicker beats than at a real table, same rules: a test round takes seconds.
    `more` and `referee`: YAML lines added to the sensors (e.g. `gpio:` switches) and
    referee sections."""
    return config.parse(f"""
table: dash{next(_tables)}
mqtt: {{url: '{mqtt_url}'}}
sensors:
  filters: {{debounce_ms: {debounce_ms}, hold_ms: 100}}
  sim:
    guns: [{", ".join(map(str, seats))}]
    hand: {{ideal: true}}
    slot_us: 1500
    link_dir: {tmp / "links"}
{more}
referee:
  pin: "{PIN}"
  timing: {{beat_ms: 300, hold_ms: 100, too_slow_ms: 400, settle_ms: 60,
            posture_ms: 300}}
{referee}
dashboard: {{host: 127.0.0.1, port: 0}}
""", "dashboard-test.yaml")


def start_live_table(tmp: Path, mqtt_url: str, debounce_ms: int = 10,
                     seats: tuple[int, ...] = SEATS, more: str = "", referee: str = "",
                     **dashboard: object) -> Running:
    """`dashboard`: settings of the dashboard section to change (e.g. public_url)."""
    cfg = table_config(tmp, mqtt_url, debounce_ms, seats, more, referee)
    cfg.sections["dashboard"] = replace(cfg["dashboard"], **dashboard)
    return start_table(cfg, str(tmp / "journal.sqlite3"))


def cards_down(table: Table, names: list[str], card: str = "click") -> None:
    """Each player puts a card down on their own phone (the tablet may not play a hand)."""
    for name in names:
        table.command({"type": "action", "version": table.version, "action": {
            "type": "choose", "player": name, "card": card}},
            Auth(seat=table.game.seat_of[name] if table.game else None))
