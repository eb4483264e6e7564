"""What the referee hears, from where it arrives to its row in the journal: a sensor fact
read off MQTT and checked, every input typed and stamped with its time on the table's
clock, decided one at a time under one lock, and recorded as JSON with what was decided.

The referee's half of the sensor wire is here: a topic and payload back to a checked Fact,
and the subscriber that hands it to the recorder. The sensors write with their own half
(companion.sensors.codec); the two share no code path, only the contract: the topics
(companion.bus.topics) and the schema (companion.schema), and the round trip is tested
across them (tests/sensors/test_codec.py). `companion doctor --ir-matrix` reads the hub's
looks with this half too: what it shows is what the referee accepts. A payload refused on
the way in is counted by topic, logged at most once every REJECT_LOG_MS of the table's
clock, and never applied. Layout and examples: docs/MQTT.md.

The inputs are the record of truth: a session of the table is its `Boot` (where it
started: the game resumed, the version it counts from, its settings) followed by its
inputs in order. The `Recorder` makes that record: it stamps each input, hands it to the
step that decides it (`core.reduce`, with no clock, thread or I/O of its own) and journals
it, so the journal of inputs replays a session decision for decision (docs/REFEREE.md,
"Every call replayable"). An input's journal row is made here whole: the hub's looks short
(`LooksRows`: most rows are looks), every other input in full, with what was decided from
it (`decided`). The table (table.py) is what the rest of the companion holds: it feeds the
recorder, and shows what was decided once the lock is released.
"""
from __future__ import annotations

import json
import logging
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from companion.bus.topics import FACT_LEAVES, FACT_TOPIC, Topics
from companion.clock import SYSTEM_CLOCK, Clock
from companion.referee.commands import Auth
from companion.referee.effects import Effect, Refused, Write
from companion.referee.journal import Entry, InputRow, JournalError
from companion.referee.timing import Timing
from companion.rules import Action
from companion.schema import MAX_SEAT, VALUE_KEYS, CodecError, check_t, check_value
from companion.sensors.facts import Fact, FactKind

if TYPE_CHECKING:  # (the outbox and the state import the inputs)
    from companion.referee.outbox import Outbox
    from companion.referee.state import State

# -- the referee's half of the sensor wire ---------------------------------------------------

log = logging.getLogger(__name__)

MAX_PAYLOAD = 4096  # a fact is a few dozen bytes; a hub's `seen` under 200
REJECT_LOG_MS = 10_000.0  # bad sensor messages are logged at most this often

Handler = Callable[[str, bytes], None]


def fact_from_message(topic_name: str, payload: bytes) -> Fact:
    """A sensor fact from its topic and JSON payload; CodecError says what is wrong."""
    m = FACT_TOPIC.match(topic_name)
    if not m:
        raise CodecError(f"not a sensor topic: {topic_name}")
    kind = m.group(3) or m.group(6) or m.group(8)
    seat_text = m.group(2) or m.group(5)
    seat = 0
    if seat_text is not None:
        if not (seat_text.isdigit() and 1 <= int(seat_text) <= MAX_SEAT):
            raise CodecError(f"not a sensor topic: {topic_name}")
        seat = int(seat_text)
    if len(payload) > MAX_PAYLOAD:
        raise CodecError(f"{topic_name}: payload of {len(payload)} bytes (at most {MAX_PAYLOAD})")
    try:
        data = json.loads(payload, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError):
        raise CodecError(f"{topic_name}: payload is not JSON") from None
    except RecursionError:
        raise CodecError(f"{topic_name}: payload nested too deep") from None
    if not isinstance(data, dict):
        raise CodecError(f"{topic_name}: payload is not a JSON object")
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise CodecError(f"{topic_name}: t (the time it happened, ms) is missing or not a "
                         "number")
    check_t(t, topic_name)
    if "seat" in data and (type(data["seat"]) is not int or data["seat"] != seat):
        raise CodecError(f"{topic_name}: seat {data['seat']!r} does not match the topic")
    key = VALUE_KEYS[kind]
    value = data.get(key, ...)
    if isinstance(value, list):
        value = tuple(value)
    check_value(kind, value, f"{topic_name}: {key}")
    device = data.get("device", "?")
    return Fact(kind, seat, value, float(t),  # type: ignore[arg-type]  # kind: FACT_TOPIC's
                device if isinstance(device, str) else "?")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number")


class FactSubscriber:
    """Facts from the bus to `sink` (the recorder's `hear`), each read and checked here;
    `subscribe` is the bus client's (a topic filter and its handler)."""

    def __init__(self, subscribe: Callable[[str, Handler], object], topics: Topics,
                 sink: Callable[[Fact], None], clock: Clock = SYSTEM_CLOCK) -> None:
        self.sink, self.clock = sink, clock
        self.rejected: Counter[str] = Counter()  # bad sensor messages, by topic
        self._logged_at = float("-inf")
        for leaf in FACT_LEAVES:
            subscribe(topics.leaf(leaf), self._message)

    def _message(self, topic_name: str, payload: bytes) -> None:
        try:
            fact = fact_from_message(topic_name, payload)
        except ValueError as e:
            self.rejected[topic_name[:120]] += 1
            now = self.clock.now_ms()
            if now - self._logged_at >= REJECT_LOG_MS:  # a flood is one line a while
                self._logged_at = now
                log.warning("sensor message dropped: %s (%d dropped so far on %d topics)",
                            str(e)[:200], self.rejected.total(), len(self.rejected))
            return
        self.sink(fact)


# -- the inputs --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Resumed:
    """The game a session starts with, as the journal holds it then."""

    id: int
    setup: dict[str, Any]
    entries: tuple[Entry, ...]
    last_seq: int  # the highest sequence number the game has used (undone ones too)
    claims: dict[int, str]  # seat -> the digest of its phone's claim
    phones: dict[str, str] = field(default_factory=dict)  # player -> their phone's digest
    replays: tuple[dict[str, Any], ...] = ()  # the round's countdowns as read ("Show me")


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
            "phones": item.game.phones, "replays": list(item.game.replays),
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
            {str(k): str(v) for k, v in game.get("phones", {}).items()},
            tuple(game.get("replays", ())))
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


# -- the record, as it is made ------------------------------------------------------------------

WRITES = Write.__args__
Decide = Callable[["State", Input], tuple["State", list[Effect]]]


class Recorder:
    """Where an input becomes the record of truth: one at a time, under one lock, stamped
    with the table's clock, decided by `decide` (the core's pure step) and journaled with
    what was decided. An input that made the referee write (an action, a claim, a
    countdown) is on disk with its writes before anything is shown: the only I/O under the
    lock; every other row waits for the outbox's thread. `after` (the table's) is handed
    each input's effects, still under the lock, to pass what is to be shown to the outbox."""

    def __init__(self, state: State, decide: Decide, clock: Clock, outbox: Outbox,
                 after: Callable[[list[Effect]], None]) -> None:
        self.state, self.decide, self.clock, self.outbox = state, decide, clock, outbox
        self.after = after
        self.lock = threading.RLock()
        self._looks = LooksRows()  # the hub's looks journaled as changes only
        self.seq = 0  # the inputs' numbers in this start: its Boot is the first

    def begin(self, boot: Boot) -> None:
        """The start's first row, on disk before any input."""
        self.seq = 1
        self.outbox.journal.commit([self._row(boot, "{}")], [])

    def _row(self, item: Boot | Input, decision: str) -> InputRow:
        kind, data = self._looks.to_json(item)
        game = self.state.game.id if self.state.game else None
        return (self.outbox.boot, self.seq, game, item.at_ms, kind, data, decision)

    def hear(self, fact: Fact) -> None:
        """A sensor fact, as it reached the referee."""
        self.feed(lambda now: Heard(now, fact))

    def feed(self, make: Callable[[float], Input]) -> tuple[list[Effect], State]:
        """Decide one input, stamped now; journal it; hand its effects to `after`."""
        with self.lock:
            inp = make(self.clock.now_ms())
            new, effects = self.decide(self.state, inp)
            if not effects and isinstance(inp, Tick):
                return effects, new  # nothing was due: not an input acted on
            self.seq += 1
            self.state, old = new, self.state
            row = self._row(inp, decided(new, effects))
            writes = [e for e in effects if isinstance(e, WRITES)]
            if writes:
                try:
                    self.outbox.write(row, writes)
                except JournalError as e:  # nothing is shown that is not on disk
                    self.seq -= 1
                    self.state = old
                    return self._failed(inp, e), self.state
            else:
                self.outbox.heard(row)
            self.after(effects)
            return effects, self.state

    def _failed(self, inp: Input, e: JournalError) -> list[Effect]:
        """The journal refused the input's writes: play waits (the pause is an input too,
        kept until the journal can take it)."""
        effects = self.feed(lambda now: JournalFailed(now, str(e)))[0]
        words = (f"{e}: seat {inp.seat} is not claimed, try again" if isinstance(inp, Claim)
                 else f"{e}; play is paused until it can be written")
        return [*effects, Refused("unwritten", words)]
