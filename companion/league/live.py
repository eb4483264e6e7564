"""Every table at the venue as the venue page shows it, from the topics the tables send up.

A table's retained `game/state` (the spectators' view, docs/API.md) gives its round, phase,
Godfather and who is alive or out; `referee/status` (the referee's last will) and the
bridge's `bridge/state` (its last will at the venue) say whether it can be heard. Only the
public state is read: the leader during play is whoever holds the most loot cards, since
the loot's value stays hidden until the end; at the end it is the winners. Each message
is checked field by field; what does not fit is counted and dropped.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from companion.schema import MAX_NAME


def _is_int(v: object, lo: int = 0, hi: int = 2**53) -> bool:
    return type(v) is int and lo <= v <= hi


def _is_name(v: object) -> bool:
    return isinstance(v, str) and 1 <= len(v) <= MAX_NAME


class VenueTables:
    """The venue's tables, updated from any thread, read as a list of plain dicts."""

    def __init__(self, tables: tuple[str, ...] = ()) -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, dict[str, Any]] = {t: _blank(t) for t in tables}
        self.refused = 0

    def _table(self, table: str) -> dict[str, Any]:
        return self._tables.setdefault(table, _blank(table))

    def state(self, table: str, payload: bytes, now_ms: float) -> bool:
        """A table's `game/state`; False (and counted) if it is not one."""
        summary = summarise(payload)
        with self._lock:
            if summary is None:
                self.refused += 1
                return False
            entry = self._table(table)
            entry.update(summary, seen_ms=now_ms)
            entry["referee"] = True  # it just spoke
            _online(entry)
            return True

    def status(self, table: str, link: str, up: bool, now_ms: float) -> None:
        """`referee` (its status topic) or `bridge` (the venue link) went up or down."""
        with self._lock:
            entry = self._table(table)
            entry[link] = up
            entry["seen_ms"] = now_ms
            _online(entry)

    def listing(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(t) for _, t in sorted(self._tables.items())]


def _blank(table: str) -> dict[str, Any]:
    return {"table": table, "online": False, "referee": None, "bridge": None,
            "seen_ms": None, "game": None, "round": None, "rounds": 8, "phase": None,
            "godfather": None, "leaders": [], "players": [], "winners": [], "over": False}


def _online(entry: dict[str, Any]) -> None:
    entry["online"] = entry["referee"] is True and entry["bridge"] is not False


def summarise(payload: bytes) -> dict[str, Any] | None:
    """What the venue page shows of a table's public state; None if it is not one."""
    try:
        s = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(s, dict) or not isinstance(s.get("players"), list):
        return None
    if s.get("game") is None:
        return {"game": None, "round": None, "phase": None, "godfather": None,
                "leaders": [], "players": [], "winners": [], "over": False}
    players = []
    for p in s["players"][:8]:
        if not isinstance(p, dict) or not _is_name(p.get("name")) or \
                not isinstance(p.get("alive"), bool) or not _is_int(p.get("loot_count"), 0, 64):
            return None
        players.append({"name": p["name"], "alive": p["alive"],
                        "wounds": p["wounds"] if _is_int(p.get("wounds"), 0, 9) else 0,
                        "loot": p["loot_count"]})
    winners = s.get("winners")
    if not isinstance(winners, list):
        return None
    fields_ok = (_is_int(s.get("game"), 1) and _is_int(s.get("round"), 0, 8)
                 and isinstance(s.get("phase"), str) and len(s["phase"]) <= 16
                 and _is_name(s.get("godfather")) and isinstance(s.get("over"), bool)
                 and all(_is_name(w) for w in winners))
    if not fields_ok or not players:
        return None
    if s["over"]:
        leaders = winners[:]
    else:
        most = max((p["loot"] for p in players if p["alive"]), default=0)
        leaders = [p["name"] for p in players if p["alive"] and p["loot"] == most and most]
    return {"game": s["game"], "round": s["round"], "phase": s["phase"],
            "godfather": s["godfather"], "leaders": leaders, "players": players,
            "winners": winners[:], "over": s["over"]}
