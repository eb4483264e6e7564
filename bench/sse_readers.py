"""Many live pages in one process of their own: the benchmarks' readers of `/api/events`.

    .venv/bin/python bench/sse_readers.py PORT [--no-parse] PATH...

Opens one connection per PATH (a phone's ends with `#CLAIM`, sent as `X-Seat-Claim`),
reads every frame as an EventSource does (chunked HTTP, then SSE) and parses its JSON.
Writes `ready N` once every page has its first snapshot, then a line
`PAGE POSTURE T REVISION` each time a page first shows seat 1's standee in a new posture,
T being time.monotonic() (the system's monotonic clock, the same in every process) when
the frame's last bytes were read; on end of input, `done FRAMES BYTES`. Pages on their
own devices parse side by side, these in one process: so the bytes are read (and stamped)
whenever any have arrived, and parsed only when none are waiting. With --no-parse frames
are counted, not parsed: the pages keep up with any rate of changes.
"""

from __future__ import annotations

import json
import selectors
import socket
import sys
import time


class Reader:
    def __init__(self, index: int, port: int, path: str, parse: bool) -> None:
        self.index, self.parse = index, parse
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        path, _, claim = path.partition("#")  # a phone's path ends with #ITS-CLAIM
        extra = f"X-Seat-Claim: {claim}\r\n" if claim else ""
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.sock.setblocking(False)
        self.raw = b""  # chunked bytes not yet decoded (the head first)
        self.head_done = False
        self.events = b""  # decoded SSE text not yet split into events
        self.posture: str | None = None
        self.frames = 0
        self.bytes = 0

    def feed(self, data: bytes, at: float) -> list[str]:
        """Decode what arrived; a line for each new posture of seat 1 it shows."""
        self.bytes += len(data)
        self.raw += data
        if not self.head_done:
            head, sep, rest = self.raw.partition(b"\r\n\r\n")
            if not sep:
                return []
            if not head.startswith(b"HTTP/1.1 200"):
                raise SystemExit(f"page {self.index}: {head.splitlines()[0].decode()}")
            self.raw, self.head_done = rest, True
        while True:  # whole chunks only
            size_line, sep, rest = self.raw.partition(b"\r\n")
            if not sep:
                break
            size = int(size_line, 16)
            if len(rest) < size + 2:
                break
            self.events += rest[:size]
            self.raw = rest[size + 2:]
        out = []
        while b"\n\n" in self.events:
            event, self.events = self.events.split(b"\n\n", 1)
            data = [line[6:] for line in event.split(b"\n") if line.startswith(b"data: ")]
            if not data:
                continue  # retry and keep-alive lines
            self.frames += 1
            if not self.parse:
                continue
            state = json.loads(data[0])
            players = state["players"]
            posture = players[0]["sensors"]["posture"] if players else None
            if posture != self.posture:
                self.posture = posture
                out.append(f"{self.index} {posture} {at:.6f} {state['revision']}")
        return out


def main() -> int:
    parse = "--no-parse" not in sys.argv
    port, *paths = (arg for arg in sys.argv[1:] if arg != "--no-parse")
    selector = selectors.DefaultSelector()
    readers = [Reader(i, int(port), path, parse) for i, path in enumerate(paths)]
    for reader in readers:
        selector.register(reader.sock, selectors.EVENT_READ, reader)
    selector.register(sys.stdin, selectors.EVENT_READ, None)
    ready = False
    arrived: list[tuple[Reader, bytes, float]] = []
    while True:
        events = selector.select(0 if arrived else None)
        for key, _ in events:
            if key.data is None:
                if not sys.stdin.readline():
                    print(f"done {sum(r.frames for r in readers)} "
                          f"{sum(r.bytes for r in readers)}", flush=True)
                    return 0
                continue
            data = key.data.sock.recv(1 << 20)
            if not data:
                raise SystemExit(f"page {key.data.index}: the stream ended")
            arrived.append((key.data, data, time.monotonic()))
        if events:
            continue  # read all that has arrived before parsing any of it
        lines = [line for reader, data, at in arrived for line in reader.feed(data, at)]
        arrived = []
        if not ready and all(r.frames for r in readers):
            ready = True
            lines.insert(0, f"ready {len(readers)}")
        if lines and ready:
            print("\n".join(lines), flush=True)


if __name__ == "__main__":
    sys.exit(main())
