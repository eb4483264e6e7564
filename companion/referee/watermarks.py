"""How far each source of the referee's data has been heard: its watermark.

A countdown is decided from what the table heard up to the end of its window (three +
too_slow_ms, or + posture_ms). A fact still on its way cannot be told from a fact that
never happened, so the referee decides only once every source the decision rests on has
sent something stamped after that end, as a stream processor closes a window only when
its watermark passes it: the broker by echoing a probe sent after it (whatever reached
the broker before the probe was passed on before the echo), a hub by a round of looks
stamped after it. A source still behind holds the decision back, up to `WAIT_MS`; then
the countdown is called off and says which source it waited for.
"""

from __future__ import annotations

from dataclasses import dataclass

BROKER = "broker"  # the broker's echo; a hub's rounds are its link's name, "device:<id>"

# How long past its decision time a countdown waits for a source still behind. A live
# source is never that late: the probe goes every 200 ms and comes back in milliseconds,
# a hub sends a round of looks every few dozen. A source silent that long is being called
# down by its own watch (the broker after 700 ms without an echo, a hub after
# `board_silence_ms`, 700 by default), which voids the countdown with the precise reason;
# this bound only keeps a table from waiting for ever on a source no watch covers.
WAIT_MS = 1000.0

# A source not heard for this long before "one" is not one the countdown rests on: a hub
# taken off the table, a broker no longer used (their watches called them down long ago).
STALE_MS = 5000.0


@dataclass(frozen=True)
class Behind:
    """A source the decision waits for, and the last moment it is known up to."""

    source: str
    mark_ms: float


class Watermarks:
    """Each source's watermark: the latest time it is known to have sent everything up to."""

    def __init__(self) -> None:
        self._marks: dict[str, float] = {}

    def copy(self) -> Watermarks:
        twin = Watermarks()
        twin._marks = dict(self._marks)
        return twin

    def advance(self, source: str, t_ms: float) -> None:
        """A message from `source` stamped `t_ms` (a late one never moves it back)."""
        if t_ms > self._marks.get(source, float("-inf")):
            self._marks[source] = t_ms

    def last(self, source: str) -> float | None:
        """The last moment `source` was heard up to; None if it never was."""
        return self._marks.get(source)

    def behind(self, end_ms: float, since_ms: float) -> list[Behind]:
        """The sources a window ending at `end_ms` (begun at `since_ms`) still waits for:
        heard within STALE_MS before it began, but not past its end."""
        return sorted((Behind(s, m) for s, m in self._marks.items()
                       if since_ms - STALE_MS <= m < end_ms), key=lambda b: b.source)
