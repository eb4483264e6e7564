"""What the referee can hear: the broker and each sensor device, up or down, and since when.

The referee never decides blind: no countdown starts while a link is down, and a countdown
during which one went down is voided and offered again, never settled as "nobody". An
outage is dated from the last message heard from the link (watermarks.py), not from when
its loss was noticed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

KEPT = 50  # outages remembered: far more than one countdown can overlap


@dataclass
class Outage:
    link: str
    reason: str
    start_ms: float
    end_ms: float | None = None


class Links:
    def __init__(self) -> None:
        self._outages: list[Outage] = []

    def copy(self) -> Links:
        twin = Links()
        twin._outages = [replace(o) for o in self._outages]
        return twin

    def set(self, link: str, up: bool, reason: str, now_ms: float,
            since_ms: float | None = None) -> bool:
        """Record a link's state; True if it changed. A lost link's outage is dated from
        `since_ms`, the last message heard from it (a hang is detected only some time after
        it began), else from now."""
        current = self._open(link)
        if up and current is not None:
            current.end_ms = now_ms
            return True
        if not up and current is None:
            start = now_ms if since_ms is None else min(since_ms, now_ms)
            self._outages = [*self._outages[-(KEPT - 1):], Outage(link, reason, start)]
            return True
        return False

    def down(self) -> list[Outage]:
        return [o for o in self._outages if o.end_ms is None]

    def broken_since(self, t_ms: float) -> Outage | None:
        """An outage that was on at some moment from t_ms on, if any."""
        return next((o for o in reversed(self._outages)
                     if o.end_ms is None or o.end_ms > t_ms), None)

    def public(self) -> list[dict[str, Any]]:
        return [{"link": o.link, "reason": o.reason, "since_ms": o.start_ms} for o in self.down()]

    def _open(self, link: str) -> Outage | None:
        return next((o for o in self._outages if o.link == link and o.end_ms is None), None)
