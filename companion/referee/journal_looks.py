"""The hub's looks in the journal of inputs, kept short: they are most of its rows.

A hub sends a round of looks (a `seen` fact: one mask per seat) dozens of times a second,
and nearly every round repeats the last one. A `Looks` row holds only what changed since
the previous looks of the same start: `[dt]` (the same masks from the same device, `dt`
= the fact's source time less the input's time), `[dt, masks]` (new masks), or
`[dt, masks, device]` (another device). Any other input, and looks whose time would not
come back exactly, keep their full form (`inputs.to_json`). A start's rows are read in
order from its Boot, so the reader knows what each row leaves out.
"""

from __future__ import annotations

import json

from companion.referee.inputs import Boot, Heard, Input, from_json, to_json
from companion.sensors.facts import Fact

LOOKS = "Looks"  # the input kind of a short row (an older companion refuses to read it)


class LooksRows:
    """One start's looks, written or read in order: what the previous looks were."""

    def __init__(self) -> None:
        self.device: str | None = None
        self.masks: tuple[int, ...] | None = None

    def to_json(self, item: Boot | Input) -> tuple[str, str]:
        """(kind, JSON) of an input for the journal: looks short, anything else in full."""
        if not isinstance(item, Heard) or item.fact.kind != "seen":
            return to_json(item)
        f = item.fact
        dt = f.t_ms - item.at_ms
        if item.at_ms + dt != f.t_ms or not isinstance(f.value, tuple):
            return to_json(item)
        row: list[object] = [dt]
        if f.device != self.device:
            row += [list(f.value), f.device]
        elif f.value != self.masks:
            row.append(list(f.value))
        self.device, self.masks = f.device, f.value
        return LOOKS, json.dumps(row, separators=(",", ":"))

    def from_json(self, kind: str, at_ms: float, text: str) -> Boot | Input:
        """An input back from the journal (KeyError, ValueError or TypeError if it is
        not one, or if short looks come before any full ones)."""
        if kind != LOOKS:
            return from_json(kind, at_ms, text)
        row = json.loads(text)
        if not isinstance(row, list) or not 1 <= len(row) <= 3:
            raise ValueError(f"looks: [dt, masks?, device?], not {text[:60]!r}")
        if len(row) > 1:
            self.masks = tuple(int(m) for m in row[1])
        if len(row) > 2:
            self.device = str(row[2])
        if self.masks is None or self.device is None:
            raise ValueError("looks that repeat a round before any was journaled")
        return Heard(at_ms, Fact("seen", 0, self.masks, at_ms + float(row[0]), self.device))
