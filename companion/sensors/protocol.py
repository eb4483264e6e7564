"""The hub's line protocol, PROTO 2 (firmware/PROTOCOL.md), as the companion reads it.

`LineSplitter` cuts the serial byte stream into lines; `parse` turns one framed line into
a checked message or raises LineError with a short reason that the reader counts (the
framing itself is companion.wire.linecodec, which the hub runs too); `BoardClock` maps
the hub's millisecond clock onto the companion's. Nothing from a board is trusted: every
field is checked for shape and range here.

Serial bytes arrive in arbitrary chunks (reading `in_waiting` at once is far faster than
pyserial's byte-by-byte `readline`). Bytes piling up without an end of line are dropped
up to the next one. A line torn by opening the port mid-line is not recognised by the
splitter: it fails its checksum like any other damaged line.

For the clock, `arrival - T` is the offset plus the transport delay; its minimum over a
sliding window is the offset with the least delay, so `T + offset` is when the event
happened, within the USB latency. T wraps at 2^30 and is unwrapped against the previous
value.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from companion.wire.linecodec import MAX_LINE, LineError, decode, encode

PROTO = "2"
T_WRAP = 1 << 30
SEQ_WRAP = 1 << 16
ROUND_WRAP = 1 << 16
BOARD_ID = re.compile(r"[a-z0-9-]{1,16}")
VERSION = re.compile(r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}")
NONCE = re.compile(r"[0-9a-f]{1,8}")
MASK = re.compile(r"[0-9a-f]{1,2}")
MAX_SEAT = 8
SLOT_US = (1500, 5000)  # the slot lengths a hub accepts
STAT_FIELDS = ("rounds", "late", "noise", "dropped")


@dataclass(frozen=True)
class Message:
    type: str
    seq: int
    t: int  # the board's clock, ms, wrapping at 2^30
    board_id: str = ""  # HELLO
    firmware: str = ""  # HELLO
    seat: int | None = None  # TILT, POST
    value: bool | str | None = None  # TILT: raised (bool); POST: "up" or "down", as sent
    round: int | None = None  # HB: the round in progress; SEEN: the round reported
    masks: tuple[int, ...] = ()  # SEEN: each gun's look, in slot order
    slot_us: int | None = None  # SLOTS
    seats: tuple[int, ...] = ()  # SLOTS: the seats in play, in slot order
    stat: tuple[int, int, int, int] | None = None  # STAT: STAT_FIELDS
    text: str = ""  # PONG nonce, OK command, ERR code


def _int(text: str, lo: int, hi: int) -> int:
    if not text.isdigit() or len(text) > 10:
        raise LineError("fields", text)
    value = int(text)
    if not lo <= value <= hi:
        raise LineError("range", text)
    return value


def _seat(text: str) -> int:
    return _int(text, 1, MAX_SEAT)


def _seats(text: str) -> tuple[int, ...]:
    seats = tuple(_seat(s) for s in text.split(","))
    if len(set(seats)) != len(seats):
        raise LineError("fields", text)
    return seats


def _masks(text: str) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) > MAX_SEAT or not all(MASK.fullmatch(p) for p in parts):
        raise LineError("fields", text)
    return tuple(int(p, 16) for p in parts)


def parse(line: bytes) -> Message:
    """One line from a board -> Message; raises LineError(reason) for anything wrong."""
    fields = decode(line)
    kind, args = fields[0], fields[1:]
    shape = _SHAPES.get(kind)
    if shape is None:
        raise LineError("unknown", kind)
    if len(args) != 2 + shape:
        raise LineError("fields", kind)
    seq, t, rest = _int(args[0], 0, SEQ_WRAP - 1), _int(args[1], 0, T_WRAP - 1), args[2:]
    if kind == "HELLO":
        proto, board_kind, board_id, fw, seat = rest
        if proto != PROTO:
            raise LineError("version", proto)
        if board_kind != "hub" or not BOARD_ID.fullmatch(board_id) or seat != "0":
            raise LineError("fields", kind)
        if not VERSION.fullmatch(fw):
            raise LineError("fields", fw)
        return Message(kind, seq, t, board_id=board_id, firmware=fw)
    if kind == "HB":
        return Message(kind, seq, t, round=_int(rest[0], 0, ROUND_WRAP - 1))
    if kind == "SEEN":
        return Message(kind, seq, t, round=_int(rest[0], 0, ROUND_WRAP - 1),
                       masks=_masks(rest[1]))
    if kind == "TILT":
        if rest[1] not in ("0", "1"):
            raise LineError("fields", kind)
        return Message(kind, seq, t, seat=_seat(rest[0]), value=rest[1] == "1")
    if kind == "POST":
        if rest[1] not in ("up", "down"):
            raise LineError("fields", kind)
        return Message(kind, seq, t, seat=_seat(rest[0]), value=rest[1])
    if kind == "SLOTS":
        return Message(kind, seq, t, slot_us=_int(rest[0], *SLOT_US), seats=_seats(rest[1]))
    if kind == "STAT":
        rounds, late, noise, dropped = (_int(r, 0, 2**32 - 1) for r in rest)
        return Message(kind, seq, t, stat=(rounds, late, noise, dropped))
    if kind == "PONG" and not NONCE.fullmatch(rest[0]):
        raise LineError("fields", kind)
    if kind == "ERR" and rest[0] not in ("crc", "syntax", "unknown", "range"):
        raise LineError("fields", kind)
    return Message(kind, seq, t, text=rest[0])


# message type -> number of fields after SEQ and T
_SHAPES = {"HELLO": 5, "HB": 1, "SEEN": 2, "TILT": 2, "POST": 2, "SLOTS": 2, "STAT": 4,
           "PONG": 1, "OK": 1, "ERR": 1}
TYPES = tuple(_SHAPES)


def who() -> bytes:
    return encode(["WHO"])


def ping(nonce: int) -> bytes:
    return encode(["PING", f"{nonce & 0xFFFFFFFF:x}"])


def slots(slot_us: int, seats: tuple[int, ...]) -> bytes:
    return encode(["SLOTS", slot_us, ",".join(str(s) for s in seats)])


class LineSplitter:
    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False
        self.too_long = 0

    def restart(self) -> None:
        """A port was (re)opened: forget the partial line."""
        self._buf.clear()
        self._overflow = False

    def feed(self, chunk: bytes) -> list[bytes]:
        lines = []
        self._buf += chunk
        while True:
            end = self._buf.find(b"\n")
            if end < 0:
                break
            line = bytes(self._buf[:end])
            del self._buf[: end + 1]
            if self._overflow:
                self._overflow = False
                self.too_long += 1
                continue
            lines.append(line)
        if len(self._buf) > MAX_LINE + 1:
            self._buf.clear()
            self._overflow = True
        return lines


class BoardClock:
    def __init__(self, window_ms: float = 5000.0) -> None:
        self.window_ms = window_ms
        self.reset()

    def reset(self) -> None:
        """A board rebooted (new HELLO with a smaller T): start the mapping afresh."""
        self._last_raw: int | None = None
        self._unwrapped = 0
        self._samples: deque[tuple[float, float]] = deque()  # (arrival, offset) ascending offset

    def to_local(self, t_raw: int, arrival_ms: float) -> float:
        """The board time `t_raw` on the companion's clock, learning from this arrival."""
        if self._last_raw is not None:
            step = (t_raw - self._last_raw) % T_WRAP
            if step > T_WRAP // 2:  # went backwards a little: late line, not a wrap
                step -= T_WRAP
            self._unwrapped += step
        else:
            self._unwrapped = t_raw
        self._last_raw = t_raw
        offset = arrival_ms - self._unwrapped
        samples = self._samples
        while samples and samples[-1][1] >= offset:  # a monotonic deque of minima
            samples.pop()
        samples.append((arrival_ms, offset))
        while samples[0][0] < arrival_ms - self.window_ms:
            samples.popleft()
        return self._unwrapped + samples[0][1]
