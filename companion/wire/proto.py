"""The board side of the line protocol (firmware/PROTOCOL.md), with no hardware in it.

`Board` numbers and stamps every line, sends the heartbeat, answers `WHO` and `PING`
and refuses bad commands; the hub adds its readings and commands. Times are passed in
(board milliseconds), so tests and the companion's simulated hub drive it with any
clock. Framed lines collect in `out`; the hardware layer writes them, or drops them
when no host reads.
"""

try:
    from . import linecodec
except ImportError:  # flat in a board's /lib
    import linecodec  # type: ignore[import-not-found, no-redef]

PROTO = linecodec.PROTO
FW_VERSION = "0.3.0"
HEARTBEAT_MS = 100
TICKS_MASK = linecodec.T_WRAP - 1  # board clocks wrap at 2**30


def elapsed(now, then):
    """Milliseconds from `then` to `now` on the wrapping board clock."""
    return (now - then) & TICKS_MASK


def _is_hex(text):
    return all(c in "0123456789abcdefABCDEF" for c in text)


class Board:
    """What every board does; subclasses set `kind` and add readings and commands."""

    kind = "board"

    def __init__(self, board_id, seat):
        self.board_id = board_id
        self.seat = seat
        self.seq = 0
        self.out = []
        self.refused = 0
        self._last_hb = None

    def send(self, now_ms, mtype, *fields):
        """Frame one message with its SEQ and T and queue it."""
        head = (mtype, self.seq, now_ms & TICKS_MASK)
        self.out.append(linecodec.encode(head + fields))  # MicroPython has no (*a, *b)
        self.seq = (self.seq + 1) & 0xFFFF

    def hello(self, now_ms):
        """Announce the board, then its current readings, so a host knows everything at once."""
        self.send(now_ms, "HELLO", PROTO, self.kind, self.board_id, FW_VERSION, self.seat)
        self.readings(now_ms)

    def readings(self, now_ms):
        """Send the current readings (after each HELLO)."""

    def heartbeat(self):
        """The fields of the heartbeat after `SEQ T` (the hub: the round in progress)."""
        return ()

    def tick(self, now_ms):
        """Time passes: send the heartbeat when it is due."""
        if self._last_hb is None or elapsed(now_ms, self._last_hb) >= HEARTBEAT_MS:
            self._last_hb = now_ms
            self.send(now_ms, "HB", *self.heartbeat())

    def receive(self, line, now_ms):
        """Act on one line from the host (bytes without its end of line)."""
        try:
            fields = linecodec.decode(line)
        except linecodec.LineError as e:
            self._refuse(now_ms, "crc" if e.reason == "bad_crc" else "syntax")
            return
        name, args = fields[0], fields[1:]
        if name == "WHO" and not args:
            self.hello(now_ms)
        elif name == "PING" and len(args) == 1 and 1 <= len(args[0]) <= 8 and _is_hex(args[0]):
            self.send(now_ms, "PONG", args[0])
        elif name in ("WHO", "PING"):
            self._refuse(now_ms, "syntax")
        else:
            code = self.command(name, args, now_ms)
            if code:
                self._refuse(now_ms, code)

    def command(self, name, args, now_ms):
        """Carry out a board-specific command; return None when done, else an ERR code."""
        return "unknown"

    def _refuse(self, now_ms, code):
        self.refused += 1
        self.send(now_ms, "ERR", code)
