"""What the referee knows of each seat's sensors: every fact by source time, and overrides."""

from __future__ import annotations

from typing import Any

from companion.referee.timing import Track
from companion.sensors.facts import Fact

KINDS = ("aim", "raised", "posture")


class Readings:
    """Tracks per (seat, kind). An override from the tablet replaces a sensor until cleared:
    it reads as held since forever, so snapshots take it as they take a steady reading."""

    def __init__(self) -> None:
        self._tracks: dict[tuple[int, str], Track] = {}
        self._overrides: dict[tuple[int, str], Any] = {}

    def add(self, fact: Fact) -> None:
        key = (fact.seat, fact.kind)
        track = self._tracks.get(key)
        if track is None:
            track = self._tracks[key] = Track(None if fact.kind == "aim" else _DEFAULT[fact.kind])
        track.add(fact.t_ms, fact.value)

    def override(self, seat: int, kind: str, value: Any) -> None:
        self._overrides[(seat, kind)] = value

    def clear(self, seat: int, kind: str) -> None:
        self._overrides.pop((seat, kind), None)

    def manual(self, seat: int) -> list[str]:
        return [k for k in KINDS if (seat, k) in self._overrides]

    def is_manual(self, seat: int, kind: str) -> bool:
        return (seat, kind) in self._overrides

    def track(self, seat: int, kind: str) -> Track | None:
        """The track snapshots read: the override if any, else the sensor's (None if silent)."""
        if (seat, kind) in self._overrides:
            return Track(self._overrides[(seat, kind)])
        return self._tracks.get((seat, kind))

    def aim_tracks(self, seat: int) -> tuple[Track, Track | None]:
        aim = self.track(seat, "aim")
        return Track(None) if aim is None else aim, self.track(seat, "raised")

    def now(self, seat: int, kind: str, t: float) -> Any:
        track = self.track(seat, kind)
        return _DEFAULT.get(kind) if track is None else track.at(t)


_DEFAULT: dict[str, Any] = {"aim": None, "raised": False, "posture": "up"}
