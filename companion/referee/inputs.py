"""What the referee hears and what it decides to do: typed records, each input stamped with
its time on the table's clock, each as JSON for the journal of inputs.

The inputs are the record of truth: a session of the table is its `Boot` (where it
started: the game resumed, the version it counts from, its settings) followed by its
inputs in order; `core.reduce` turns each into decisions (effects) with no clock, thread
or I/O of its own, so the journal of inputs replays a session decision for decision
(docs/REFEREE.md, "Every call replayable"). An input's journal row is made here whole:
the hub's looks short (`LooksRows`: most rows are looks), every other input in full.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from companion.referee.commands import Auth
from companion.referee.timing import Timing
from companion.rules import Action
from companion.sensors.facts import Fact, FactKind


@dataclass(frozen=True)
class Entry:
    """One action of a game still in force in the journal."""

    seq: int
    action: Action
    source: str
    at_ms: float


@dataclass(frozen=True)
class Resumed:
    """The game a session starts with, as the journal holds it then."""

    id: int
    setup: dict[str, Any]
    entries: tuple[Entry, ...]
    last_seq: int  # the highest sequence number the game has used (undone ones too)
    claims: dict[int, str]  # seat -> the digest of its phone's claim
    phones: dict[str, str] = field(default_factory=dict)  # player -> their phone's digest


@dataclass(frozen=True)
class Boot:
    """A session's start: everything the core's first state is made of."""

    at_ms: float
    table: str
    timing: Timing
    version: int  # versions begin here (journal.boot() x VERSIONS_PER_BOOT)
    last_game: int  # the highest game number the journal has given
    game: Resumed | None
    sensored: dict[str, tuple[int, ...]] = field(default_factory=dict)  # configured: part -> seats


@dataclass(frozen=True)
class Heard:
    """A sensor fact (its source time inside), as it reached the referee."""

    at_ms: float
    fact: Fact


@dataclass(frozen=True)
class Command:
    """A command from the tablet or a phone (the JSON as sent), and who sent it."""

    at_ms: float
    cmd: Any
    auth: Auth


@dataclass(frozen=True)
class Claim:
    """A phone claimed a seat: the digest of its claim (the claim itself stays secret)."""

    at_ms: float
    seat: int
    digest: str


@dataclass(frozen=True)
class Link:
    """The broker or a sensor device went down or came back."""

    at_ms: float
    name: str
    up: bool
    reason: str


@dataclass(frozen=True)
class Echo:
    """The referee's probe came back through the broker: whatever the broker had by
    `sent_ms` (when the probe was sent, on the table's clock) has been passed on."""

    at_ms: float
    sent_ms: float


@dataclass(frozen=True)
class Schedule:
    """A hub's slots in force: its seats in slot order and the slot length."""

    at_ms: float
    seats: tuple[int, ...]
    slot_us: int


@dataclass(frozen=True)
class Tick:
    """The clock reached a deadline the core asked for (a beat, a snapshot, an order)."""

    at_ms: float


@dataclass(frozen=True)
class StandIns:
    """Which bot plays each seat no phone holds (the demo)."""

    at_ms: float
    bots: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class JournalFailed:
    """The journal could not take the last input's writes: play waits (never recorded:
    nothing can be written then)."""

    at_ms: float
    reason: str


Input = Heard | Command | Claim | Link | Echo | Schedule | Tick | StandIns | JournalFailed


# -- effects: what the shell carries out ---------------------------------------------------

@dataclass(frozen=True)
class NewGame:
    game: int
    setup: dict[str, Any]
    at_ms: float


@dataclass(frozen=True)
class Record:
    game: int
    seq: int
    action: Action
    source: str
    at_ms: float


@dataclass(frozen=True)
class Finish:
    game: int


@dataclass(frozen=True)
class Undo:
    game: int
    seq: int


@dataclass(frozen=True)
class Rewrite:
    game: int
    first: int
    actions: tuple[tuple[Action, str, float], ...]


@dataclass(frozen=True)
class Hold:
    """A phone holds a seat (its claim's digest), or (digest None) no longer does."""

    game: int
    seat: int
    digest: str | None
    at_ms: float


Write = NewGame | Record | Finish | Undo | Rewrite | Hold


@dataclass(frozen=True)
class Changed:
    """The table changed: `game` when the game or the referee's stage did (a new version),
    else only a reading (a new revision)."""

    game: bool


@dataclass(frozen=True)
class Refused:
    """The input was refused: the refusal's kind, its words and what it adds."""

    kind: str
    message: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Log:
    message: str


Effect = Write | Changed | Refused | Log


# -- the journal's JSON ----------------------------------------------------------------------

def _tuples(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def fact_from(data: list[Any]) -> Fact:
    """A fact from its journal form, [kind, seat, value, t_ms, device]."""
    kind: FactKind = data[0]
    return Fact(kind, int(data[1]), _tuples(data[2]), float(data[3]), str(data[4]))


def entry_from(data: list[Any]) -> Entry:
    from companion.rules import action_from_dict

    seq, action, source, at = data
    return Entry(int(seq), action_from_dict(action), str(source), float(at))


def to_json(item: Boot | Input) -> tuple[str, str]:
    """(kind, JSON) of an input for the journal."""
    if isinstance(item, Boot):
        game = None if item.game is None else {
            "id": item.game.id, "setup": item.game.setup, "last_seq": item.game.last_seq,
            "claims": {str(k): v for k, v in item.game.claims.items()},
            "phones": item.game.phones,
            "entries": [[e.seq, e.action.to_dict(), e.source, e.at_ms]
                        for e in item.game.entries]}
        data: dict[str, Any] = {"table": item.table, "timing": asdict(item.timing),
                                "version": item.version, "last_game": item.last_game,
                                "game": game, "sensored": item.sensored}
    elif isinstance(item, Heard):  # (a list: the hub's looks come dozens a second)
        f = item.fact
        return "Heard", json.dumps([f.kind, f.seat, f.value, f.t_ms, f.device],
                                   separators=(",", ":"))
    elif isinstance(item, Command):
        data = {"cmd": item.cmd, "control": item.auth.control, "seat": item.auth.seat}
    elif isinstance(item, StandIns):
        data = {"bots": {str(k): v for k, v in item.bots.items()}}
    else:
        data = {k: v for k, v in asdict(item).items() if k != "at_ms"}
    return type(item).__name__, json.dumps(data, separators=(",", ":"), sort_keys=True)


def from_json(kind: str, at_ms: float, text: str) -> Boot | Input:
    """An input back from the journal (KeyError, ValueError or TypeError if it is not one)."""
    data = json.loads(text)
    if kind == "Boot":
        game = data["game"]
        resumed = None if game is None else Resumed(
            int(game["id"]), dict(game["setup"]), tuple(entry_from(e) for e in game["entries"]),
            int(game["last_seq"]), {int(k): str(v) for k, v in game["claims"].items()},
            {str(k): str(v) for k, v in game.get("phones", {}).items()})
        return Boot(at_ms, str(data["table"]), Timing(**data["timing"]), int(data["version"]),
                    int(data["last_game"]), resumed,
                    {k: tuple(map(int, v)) for k, v in data.get("sensored", {}).items()})
    if kind == "Heard":
        return Heard(at_ms, fact_from(data))
    if kind == "Command":
        return Command(at_ms, data["cmd"], Auth(bool(data["control"]), data["seat"]))
    if kind == "Claim":
        return Claim(at_ms, int(data["seat"]), str(data["digest"]))
    if kind == "Link":
        return Link(at_ms, str(data["name"]), bool(data["up"]), str(data["reason"]))
    if kind == "Echo":
        return Echo(at_ms, float(data["sent_ms"]))
    if kind == "Schedule":
        return Schedule(at_ms, tuple(data["seats"]), int(data["slot_us"]))
    if kind == "Tick":
        return Tick(at_ms)
    if kind == "StandIns":
        return StandIns(at_ms, {int(k): str(v) for k, v in data["bots"].items()})
    raise ValueError(f"unknown input kind {kind!r}")


def _plain(value: Any) -> Any:
    if isinstance(value, Action):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def decided(state: Any, effects: list[Effect]) -> str:
    """What the referee decided from one input, as the journal keeps it and a replay
    compares it: the version and revision it left, and each effect with its fields; ""
    when nothing came of it (most sensor readings: the journal keeps them short)."""
    if not effects:
        return ""
    out = [[type(e).__name__, *(_plain(getattr(e, f)) for f in e.__dataclass_fields__)]
           for e in effects]
    return json.dumps({"version": state.version, "revision": state.revision, "effects": out},
                      separators=(",", ":"), sort_keys=True)


# -- the hub's looks, kept short -------------------------------------------------------------
# A hub sends a round of looks (a `seen` fact: one mask per seat) dozens of times a second,
# and nearly every round repeats the last one: they are most of the journal's rows. A `Looks`
# row holds only what changed since the previous looks of the same start: `[dt]` (the same
# masks from the same device, `dt` = the fact's source time less the input's time),
# `[dt, masks]` (new masks), or `[dt, masks, device]` (another device). Any other input, and
# looks whose time would not come back exactly, keep their full form (`to_json`). A start's
# rows are read in order from its Boot, so the reader knows what each row leaves out.

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
