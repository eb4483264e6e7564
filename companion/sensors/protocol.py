"""The board line protocol's messages (firmware/PROTOCOL.md) on top of its framing.

`parse` turns one framed line into a checked message or raises LineError with a short
reason that the reader counts; the framing itself is companion.wire.linecodec.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.wire.linecodec import LineError, decode, encode

PROTO = "1"
T_WRAP = 1 << 30
SEQ_WRAP = 1 << 16
BOARD_ID = re.compile(r"[a-z0-9-]{1,16}")
VERSION = re.compile(r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}")
NONCE = re.compile(r"[0-9a-f]{1,8}")
MAX_SEAT = 8


@dataclass(frozen=True)
class Message:
    type: str
    seq: int
    t: int  # the board's clock, ms, wrapping at 2^30
    kind: str = ""  # HELLO: gun or hub
    board_id: str = ""
    firmware: str = ""
    seat: int | None = None  # HELLO: the board's seat; AIM: target (None: none); POST: seat
    value: bool | None = None  # TILT: raised; POST: up
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
        if board_kind not in ("gun", "hub") or not BOARD_ID.fullmatch(board_id):
            raise LineError("fields", kind)
        if not VERSION.fullmatch(fw):
            raise LineError("fields", fw)
        board_seat = _int(seat, 0, MAX_SEAT) if board_kind == "hub" else _seat(seat)
        return Message(kind, seq, t, board_kind, board_id, fw, board_seat or None)
    if kind == "AIM":
        return Message(kind, seq, t, seat=None if rest[0] == "-" else _seat(rest[0]))
    if kind == "TILT":
        if rest[0] not in ("0", "1"):
            raise LineError("fields", kind)
        return Message(kind, seq, t, value=rest[0] == "1")
    if kind == "POST":
        if rest[1] not in ("up", "down"):
            raise LineError("fields", kind)
        return Message(kind, seq, t, seat=_seat(rest[0]), value=rest[1] == "up")
    if kind == "PONG" and not NONCE.fullmatch(rest[0]):
        raise LineError("fields", kind)
    if kind == "ERR" and rest[0] not in ("crc", "syntax", "unknown", "range"):
        raise LineError("fields", kind)
    return Message(kind, seq, t, text=rest[0] if rest else "")


# message type -> number of fields after SEQ and T
_SHAPES = {"HELLO": 5, "HB": 0, "AIM": 1, "TILT": 1, "POST": 2, "PONG": 1, "OK": 1, "ERR": 1}


def who() -> bytes:
    return encode(["WHO"])


def ping(nonce: int) -> bytes:
    return encode(["PING", f"{nonce & 0xFFFFFFFF:x}"])


def slots(slot_us: int, seats: tuple[int, ...]) -> bytes:
    return encode(["SLOTS", slot_us, ",".join(str(s) for s in seats)])
