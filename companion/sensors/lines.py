"""Cutting a byte stream into lines, and dropping what cannot be a whole line.

Serial bytes arrive in arbitrary chunks (reading `in_waiting` at once is far faster than
pyserial's byte-by-byte `readline`). Bytes piling up without an end of line are dropped
up to the next one. A line torn by opening the port mid-line is not recognised here: it
fails its checksum like any other damaged line.
"""

from __future__ import annotations

from companion.wire.linecodec import MAX_LINE


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
