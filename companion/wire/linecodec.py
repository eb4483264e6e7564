"""The hub's line protocol, PROTO 3 (firmware/PROTOCOL.md): the one codec of that wire.

The hub and the companion run this same module (MicroPython on the hub, flat in /lib;
CPython in the companion), so both frame, check and read lines with the very same code:

- framing: `encode` and `decode` of `BODY*CRC\\n` lines, and `LineSplitter`, which cuts a
  serial byte stream into lines;
- the hub's messages, read by the companion: `parse` turns one line into a checked
  `Message` or raises `LineError` with a short reason that the reader counts. Nothing
  from a board is trusted: every field is checked for shape and range here;
- the companion's commands: `who`, `ping`, `slots`.

Serial bytes arrive in arbitrary chunks (reading `in_waiting` at once is far faster than
pyserial's byte-by-byte `readline`). Bytes piling up without an end of line are dropped
up to the next one. A line torn by opening the port mid-line is not recognised by the
splitter: it fails its checksum like any other damaged line.

Written for both interpreters: no dataclasses, no regular expressions, annotations as
strings.
"""

PROTO = 3
MAX_LINE = 120  # bytes before the end of line
T_WRAP = 1 << 30  # board clocks, in ms, wrap here
SEQ_WRAP = 1 << 16
ROUND_WRAP = 1 << 16
MAX_SEAT = 8
SLOT_US = (1500, 5000)  # the slot lengths a hub accepts: a 1000 µs burst, 500 µs of silence
STAT_FIELDS = ("rounds", "late", "noise", "dropped", "imu")
MAX_RATE = 999  # °/s: a GUN line's rate, capped
ERR_CODES = ("crc", "syntax", "unknown", "range")

_HEX = "0123456789abcdef"
_ID = "abcdefghijklmnopqrstuvwxyz0123456789-"

_TABLE = []
for _i in range(256):
    _c = _i << 8
    for _ in range(8):
        _c = ((_c << 1) ^ 0x1021) if _c & 0x8000 else (_c << 1)
    _TABLE.append(_c & 0xFFFF)
_TABLE = tuple(_TABLE)  # type: ignore[assignment]  # a tuple once built


class LineError(ValueError):
    """A line that must be dropped; `reason` is a short counter key."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason + (": " + detail if detail else ""))
        self.reason = reason


# -- framing -------------------------------------------------------------------------------


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of `data`."""
    crc = 0xFFFF
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def encode(fields: "list | tuple") -> bytes:
    """Frame a message given as a sequence of fields (str or int) into bytes with `\\n`."""
    body = " ".join([str(f) for f in fields]).encode()
    if len(body) + 5 > MAX_LINE:
        raise LineError("too_long")
    return body + b"*" + f"{crc16(body):04X}".encode() + b"\n"


def decode(line: bytes) -> "list[str]":
    """Check one line (with or without its end of line) and return its fields.

    Raises LineError with reason `too_long`, `not_ascii`, `no_crc`, `bad_crc` or `syntax`.
    """
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise LineError("too_long")
    for b in line:
        if b < 32 or b > 126:
            raise LineError("not_ascii")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise LineError("no_crc")
    body = line[:star]
    try:
        want = int(line[star + 1 :], 16)
    except ValueError:
        raise LineError("no_crc") from None
    if crc16(body) != want:
        raise LineError("bad_crc")
    fields = body.decode().split(" ")
    if not fields or not fields[0] or "" in fields:
        raise LineError("syntax")
    return fields


class LineSplitter:
    """Cuts a byte stream into lines; a line longer than MAX_LINE is dropped and counted."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False
        self.too_long = 0

    def restart(self) -> None:
        """A port was (re)opened: forget the partial line."""
        self._buf = bytearray()
        self._overflow = False

    def feed(self, chunk: bytes) -> "list[bytes]":
        lines = []
        buf = self._buf + chunk
        start = 0
        end = buf.find(b"\n")
        while end >= 0:
            if self._overflow:
                self._overflow = False
                self.too_long += 1
            else:
                lines.append(bytes(buf[start:end]))
            start = end + 1
            end = buf.find(b"\n", start)
        rest = buf[start:]
        if len(rest) > MAX_LINE + 1:
            rest = bytearray()
            self._overflow = True
        self._buf = bytearray(rest)
        return lines


# -- the hub's messages --------------------------------------------------------------------


class Message:
    """One checked line from the hub; the fields its type does not have keep their default."""

    def __init__(self, type: str, seq: int, t: int, board_id: str = "", firmware: str = "",
                 seat: int = 0, value: "bool | str | None" = None,
                 elevation: "int | None" = None, rate: "int | None" = None,
                 round: int = 0, masks: "tuple[int, ...]" = (), moving: int = 0,
                 slot_us: int = 0, seats: "tuple[int, ...]" = (),
                 stat: "tuple[int, ...]" = (), text: str = "") -> None:
        self.type = type
        self.seq = seq
        self.t = t  # the board's clock, ms, wrapping at T_WRAP
        self.board_id = board_id  # HELLO
        self.firmware = firmware  # HELLO
        self.seat = seat  # GUN, POST
        self.value = value  # GUN: raised (bool); POST: "up" or "down", as sent
        self.elevation = elevation  # GUN: degrees, None before the IMU answered
        self.rate = rate  # GUN: °/s over the last 250 ms, None before the IMU answered
        self.round = round  # HB: the round in progress; SEEN: the round reported
        self.masks = masks  # SEEN: each gun's look, in slot order
        self.moving = moving  # SEEN: the guns turning too fast for a look to count (bit s-1)
        self.slot_us = slot_us  # SLOTS
        self.seats = seats  # SLOTS: the seats in play, in slot order
        self.stat = stat  # STAT: STAT_FIELDS
        self.text = text  # PONG nonce, OK command, ERR code


# message type -> number of fields after SEQ and T
_SHAPES = {"HELLO": 5, "HB": 1, "SEEN": 3, "GUN": 4, "POST": 2, "SLOTS": 2, "STAT": 5,
           "PONG": 1, "OK": 1, "ERR": 1}
TYPES = tuple(_SHAPES)


def _int(text: str, lo: int, hi: int) -> int:
    if not text.isdigit() or len(text) > 10:
        raise LineError("fields", text)
    value = int(text)
    if not lo <= value <= hi:
        raise LineError("range", text)
    return value


def _made_of(text: str, chars: str, most: int) -> bool:
    return 1 <= len(text) <= most and all(c in chars for c in text)


def _seats(text: str) -> "tuple[int, ...]":
    seats = tuple([_int(s, 1, MAX_SEAT) for s in text.split(",")])
    if len(set(seats)) != len(seats):
        raise LineError("fields", text)
    return seats


def _masks(text: str) -> "tuple[int, ...]":
    parts = text.split(",")
    if len(parts) > MAX_SEAT or not all(_made_of(p, _HEX, 2) for p in parts):
        raise LineError("fields", text)
    return tuple([int(p, 16) for p in parts])


def _elevation(text: str) -> "int | None":
    """Degrees, -90..90, or None for `-` (the IMU has not answered)."""
    if text == "-":
        return None
    return -_int(text[1:], 0, 90) if text.startswith("-") else _int(text, 0, 90)


def _version(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 3 and all(_made_of(p, "0123456789", 3) for p in parts)


def parse(line: bytes) -> Message:
    """One line from the hub -> Message; raises LineError(reason) for anything wrong."""
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
        if proto != str(PROTO):
            raise LineError("version", proto)
        if board_kind != "hub" or not _made_of(board_id, _ID, 16) or seat != "0":
            raise LineError("fields", kind)
        if not _version(fw):
            raise LineError("fields", fw)
        return Message(kind, seq, t, board_id=board_id, firmware=fw)
    if kind == "HB":
        return Message(kind, seq, t, round=_int(rest[0], 0, ROUND_WRAP - 1))
    if kind == "SEEN":
        if not _made_of(rest[2], _HEX, 2):
            raise LineError("fields", rest[2])
        return Message(kind, seq, t, round=_int(rest[0], 0, ROUND_WRAP - 1),
                       masks=_masks(rest[1]), moving=int(rest[2], 16))
    if kind == "GUN" or kind == "POST":
        if rest[1] not in ("up", "down"):
            raise LineError("fields", kind)
        n = _int(rest[0], 1, MAX_SEAT)
        if kind == "POST":
            return Message(kind, seq, t, seat=n, value=rest[1])
        el, rate = _elevation(rest[2]), None if rest[3] == "-" else _int(rest[3], 0, MAX_RATE)
        if (el is None) != (rate is None):
            raise LineError("fields", kind)
        return Message(kind, seq, t, seat=n, value=rest[1] == "up", elevation=el, rate=rate)
    if kind == "SLOTS":
        return Message(kind, seq, t, slot_us=_int(rest[0], SLOT_US[0], SLOT_US[1]),
                       seats=_seats(rest[1]))
    if kind == "STAT":
        return Message(kind, seq, t, stat=tuple([_int(r, 0, 2**32 - 1) for r in rest]))
    if kind == "PONG" and not _made_of(rest[0], _HEX, 8):
        raise LineError("fields", kind)
    if kind == "ERR" and rest[0] not in ERR_CODES:
        raise LineError("fields", kind)
    return Message(kind, seq, t, text=rest[0])


# -- the companion's commands --------------------------------------------------------------


def who() -> bytes:
    return encode(["WHO"])


def ping(nonce: int) -> bytes:
    return encode(["PING", f"{nonce & 0xFFFFFFFF:x}"])


def slots(slot_us: int, seats: "tuple[int, ...]") -> bytes:
    return encode(["SLOTS", slot_us, ",".join([str(s) for s in seats])])
