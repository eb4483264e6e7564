"""What the referee knows of each seat's sensors: every fact by source time, and overrides;
and who sees whom, from the hub's per-round looks (calibration, the IR matrix)."""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

from companion.referee.equipment import Kit
from companion.referee.timing import Track

KINDS = ("aim", "raised", "posture")  # what the tablet may override
MATRIX_MS = 1000.0  # the visibility matrix is the share of the looks in this long
MAX_LOOKS = 400  # a round is at least 3 ms (2 slots of 1500 µs): a second holds fewer
SEES = 0.9  # a gun sees a badge exactly: in this share of the looks, ...
STRAY = 0.05  # ... and no other badge in more than this share


class VisibilityMatrix:
    """The last second of the hub's looks: for each gun (row) and badge (column), the share
    of the rounds in which the gun saw the badge. Rounds the hub did not report saw
    nothing, so the share counts every round of the window, from the hub's schedule (its
    device info); before that is known, the seats are taken as 1..N and the share is of
    the rounds reported. Its own lock: the dashboard reads it while facts arrive."""

    def __init__(self) -> None:
        self._looks: deque[tuple[float, tuple[int, ...]]] = deque(maxlen=MAX_LOOKS)
        self._lock = threading.Lock()
        self.seats: tuple[int, ...] = ()
        self.round_ms: float | None = None

    def schedule(self, seats: tuple[int, ...], slot_us: int) -> None:
        """The hub's slots in force: its seats in slot order, and the slot length."""
        with self._lock:
            if seats != self.seats:
                self._looks.clear()  # masks in another slot order
            self.seats, self.round_ms = seats, (len(seats) + 1) * slot_us / 1000

    def add(self, t_ms: float, masks: tuple[int, ...]) -> None:
        with self._lock:
            if len(masks) != len(self.seats):
                if self.round_ms is not None:
                    return  # not the schedule the hub announced: wait for its new info
                self.seats = tuple(range(1, len(masks) + 1))
                self._looks.clear()
            self._looks.append((t_ms, masks))

    def shares(self, now_ms: float) -> dict[str, Any]:
        """`seats`, `looks` (rounds in the window), `shares[row][col]` (0..1) and `sees`:
        per gun, the one badge it sees exactly (None when none or more)."""
        with self._lock:
            seats, round_ms = self.seats, self.round_ms
            recent = [m for t, m in self._looks if now_ms - MATRIX_MS < t <= now_ms]
        looks = round(MATRIX_MS / round_ms) if round_ms else len(recent)
        counts = [[0] * len(seats) for _ in seats]
        for masks in recent:
            for gun_i, mask in enumerate(masks):
                for col, badge in enumerate(seats):
                    counts[gun_i][col] += mask >> (badge - 1) & 1
        shares = [[min(1.0, c / looks) if looks else 0.0 for c in row] for row in counts]
        sees: dict[int, int | None] = {}
        for gun, row in zip(seats, shares, strict=True):
            best = max(range(len(seats)), key=row.__getitem__, default=None)
            exact = best is not None and row[best] >= SEES and all(
                s <= STRAY for col, s in enumerate(row) if col != best)
            sees[gun] = seats[best] if exact and best is not None else None
        return {"seats": list(seats), "window_ms": MATRIX_MS, "looks": looks,
                "shares": [[round(s, 3) for s in row] for row in shares], "sees": sees}

    def sightings(self, gun: int, since: float, until: float
                  ) -> list[tuple[float, float, int]]:
        """(first look, last look, badge): each run of the gun's looks that saw a badge
        between `since` and `until`, broken by a round that did not see it. What a sweep
        leaves when the aim rule never held it: a replay says it swept past."""
        with self._lock:
            seats, round_ms = self.seats, self.round_ms
            looks = [(t, m) for t, m in self._looks if since <= t <= until]
        if gun not in seats:
            return []
        row, gap = seats.index(gun), 1.5 * round_ms if round_ms else float("inf")
        runs: dict[int, list[float]] = {}
        out: list[tuple[float, float, int]] = []
        for t, masks in looks:
            for badge in seats:
                run = runs.get(badge)
                seen = masks[row] >> (badge - 1) & 1
                if run is not None and (not seen or t - run[1] > gap):
                    out.append((run[0], run[1], badge))
                    del runs[badge]
                    run = None
                if seen:
                    runs[badge] = [run[0] if run else t, t]
        return sorted(out + [(a, b, badge) for badge, (a, b) in runs.items()])


class Readings:
    """Tracks per (seat, kind). An override from the tablet replaces a sensor until cleared:
    it reads as held since forever, so snapshots take it as they take a steady reading."""

    def __init__(self) -> None:
        self._tracks: dict[tuple[int, str], Track] = {}
        self._overrides: dict[tuple[int, str], Any] = {}
        self.matrix = VisibilityMatrix()
        self.locks: dict[int, int] = {}  # each gun's lock indicator now (0 off: silent)

    def sensor_track(self, seat: int, kind: str) -> Track:
        """The sensor's track of a seat's aim, raised or posture (the core keeps each fact
        on it), begun at rest the first time the seat's sensor speaks."""
        track = self._tracks.get((seat, kind))
        if track is None:
            track = self._tracks[(seat, kind)] = Track(_DEFAULT[kind])
        return track

    def fork(self) -> Readings:
        """The same readings, with overrides of their own (a command may change them and be
        undone; the tracks and the matrix change only with facts, which nothing undoes)."""
        twin = object.__new__(Readings)
        twin._tracks, twin.matrix, twin.locks = self._tracks, self.matrix, self.locks
        twin._overrides = dict(self._overrides)
        return twin

    def override(self, seat: int, kind: str, value: Any) -> None:
        self._overrides[(seat, kind)] = value

    def clear(self, seat: int, kind: str) -> None:
        self._overrides.pop((seat, kind), None)

    def kit(self) -> Kit:
        """The seats whose gun or standee the referee has heard, overrides aside: the hub's
        looks cover whole pods, and a reading names its seat's gun or standee."""
        pods, sensed = frozenset(self.matrix.seats), self._tracks
        return Kit(pods | {s for s, kind in sensed if kind == "aim"},
                   pods | {s for s, kind in sensed if kind in ("aim", "raised")},
                   pods | {s for s, kind in sensed if kind == "posture"})

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

    def seat_now(self, seat: int, t: float) -> dict[str, Any]:
        """A seat's readings at t, as the views show them."""
        return {"aim": self.now(seat, "aim", t), "raised": self.now(seat, "raised", t),
                "posture": self.now(seat, "posture", t), "lock": self.locks.get(seat, 0),
                "manual": self.manual(seat)}

    def now(self, seat: int, kind: str, t: float) -> Any:
        track = self.track(seat, kind)
        return _DEFAULT.get(kind) if track is None else track.at(t)


_DEFAULT: dict[str, Any] = {"aim": None, "raised": False, "posture": "up"}
