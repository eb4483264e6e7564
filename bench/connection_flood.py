"""The Godfather's commands under a connection flood: their p50, p99 and worst latency.

    .venv/bin/python bench/connection_flood.py [--idle 1000] [--streams 500] [--calls 500]

A table with a 4-player game behind the dashboard's own server, in a process of its own
(as `companion run` serves it; its journal in a temporary folder). This process then opens
`--idle` connections that never send a byte and `--streams` stream requests it never reads,
each from one of 500 loopback addresses (127.0.x.y), and keeps them open while the
Godfather's tablet, logged in before the flood, makes `--calls` calls on its kept-alive
connection: `GET /api/control`, and every tenth a pause or resume command. Printed: the
calls' answers and latencies, how many flood connections the server still held, and the
server's log lines. Results are in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "referee")]

from flood import Flood, Godfather, enough_files  # noqa: E402

PIN = "2468"


def serve() -> None:
    """The server's process: prints its port, serves until its stdin closes."""
    from companion.clock import SYSTEM_CLOCK
    from companion.dashboard.app import create_app
    from companion.dashboard.server import DashboardServer
    from companion.dashboard.settings import DashboardSettings
    from companion.referee.commands import Auth
    from companion.referee.journal import Journal
    from companion.referee.settings import RefereeSettings
    from companion.referee.table import Table

    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    journal = Journal(Path(tempfile.mkdtemp(prefix="bench-flood-")) / "journal.sqlite3")
    table = Table("bench", RefereeSettings(pin=PIN), journal, SYSTEM_CLOCK)
    table.command({"type": "new_game", "version": table.version, "powers": "random",
                   "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    settings = DashboardSettings(host="127.0.0.1", port=0)
    server = DashboardServer(create_app(table, settings), settings).start()
    print(server.port, flush=True)
    sys.stdin.read()
    server.stop()
    journal.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--idle", type=int, default=1000)
    ap.add_argument("--streams", type=int, default=500)
    ap.add_argument("--calls", type=int, default=500)
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve()
        return 0
    enough_files(args.idle + args.streams + 256)
    with tempfile.TemporaryFile("w+") as log:
        return flood_and_time(args, log)


def flood_and_time(args: argparse.Namespace, log: IO[str]) -> int:
    server = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=log, text=True)
    assert server.stdout is not None and server.stdin is not None
    port = int(server.stdout.readline())
    godfather = Godfather(port, PIN)
    flood = Flood(port, addresses=500)
    began = time.monotonic()
    flood.idle(args.idle)
    flood.streams(args.streams)
    flooded = time.monotonic() - began
    statuses: dict[int, int] = {}
    latencies = []
    for i in range(args.calls):
        if i % 10 == 9:
            version = godfather.call("GET", "/api/control")[1]["version"]
            kind = "pause" if i % 20 == 9 else "resume"
            status, seconds = godfather.timed("POST", "/api/command",
                                              {"type": kind, "version": version})
        else:
            status, seconds = godfather.timed("GET", "/api/control")
        statuses[status] = statuses.get(status, 0) + 1
        latencies.append(seconds * 1000)
    held = sum(1 for s in flood.socks if _still_open(s))
    flood.close()
    godfather.close()
    server.stdin.close()
    server.wait(30)
    log.seek(0)
    lines = log.read().splitlines()
    q = statistics.quantiles(latencies, n=100)
    print(f"flood: {args.idle} idle connections and {args.streams} stream requests from 500 "
          f"addresses opened in {flooded:.1f} s; {held} of them still held by the server")
    print(f"the Godfather's {args.calls} calls: {statuses}; p50 {q[49]:.1f} ms, p99 "
          f"{q[98]:.1f} ms, worst {max(latencies):.1f} ms")
    slowest = sorted(range(len(latencies)), key=latencies.__getitem__)[-5:]
    print("the slowest: " + ", ".join(f"call {i} {latencies[i]:.0f} ms" for i in slowest))
    print(f"the server's log: {len(lines)} lines")
    for line in lines:
        print("  " + line)
    return 0


def _still_open(sock) -> bool:  # type: ignore[no-untyped-def]
    """Whether the server still holds it: all it sent read, no end of stream."""
    sock.setblocking(False)
    try:
        while sock.recv(65536):
            pass
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main())
