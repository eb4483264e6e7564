"""Framing of the board line protocol (firmware/PROTOCOL.md): `BODY*CRC\\n`.

Shared by the boards and the companion, so both sides frame and check lines
with the very same code.
"""

MAX_LINE = 120  # bytes before the end of line

_TABLE = []
for _i in range(256):
    _c = _i << 8
    for _ in range(8):
        _c = ((_c << 1) ^ 0x1021) if _c & 0x8000 else (_c << 1)
    _TABLE.append(_c & 0xFFFF)
_TABLE = tuple(_TABLE)  # type: ignore[assignment]  # a tuple once built


class LineError(ValueError):
    """A line that must be dropped; `reason` is a short counter key."""

    def __init__(self, reason, detail=""):
        super().__init__(reason + (": " + detail if detail else ""))
        self.reason = reason


def crc16(data):
    """CRC-16/CCITT-FALSE of `data` (bytes)."""
    crc = 0xFFFF
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def encode(fields):
    """Frame a message given as a sequence of fields (str or int) into bytes with `\\n`."""
    body = " ".join([str(f) for f in fields]).encode()
    if len(body) + 5 > MAX_LINE:
        raise LineError("too_long")
    return body + b"*" + f"{crc16(body):04X}".encode() + b"\n"


def decode(line):
    """Check one line (bytes, with or without its end of line) and return its fields as str.

    Raises LineError with reason `too_long`, `not_ascii`, `no_crc` or `bad_crc`.
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
