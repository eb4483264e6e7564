"""Commands while many pages are open: the Godfather's and the phones' requests, timed.

    .venv/bin/python bench/dashboard_load.py [--streams 200] [-n 400] [--rate 20]

The simulated table of bench/dashboard_sse.py with `--streams` live pages open (read in a
process of their own, bench/sse_readers.py --no-parse, so they keep up with every frame and
the server writes them all; 8 of them phones) and the stream limit
(`dashboard.max_streams`) set to that number. A standee is tipped or stood `--rate` times
a second, so every page keeps receiving snapshots; meanwhile, one request after another,
the Godfather's tablet pauses or resumes the game (`POST /api/command` with the PIN) and a
phone reads its seat (`GET /api/seat/N` with its claim), each on its own kept-alive
connection as a page's script has. Then one page more is opened, `-n` times on a new
connection each: it must get 503 with `Retry-After`. Results are in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests" / "dashboard")]

from dashboard_sse import NAMES, Readers  # noqa: E402
from sensors_mqtt import free_port, percentiles, start_mosquitto  # noqa: E402
from stack import PIN, table_config  # noqa: E402

from companion.referee.commands import Auth  # noqa: E402
from companion.runner import start_table  # noqa: E402

COMMANDS_P99_MS = 50.0  # the target: the table answers the Godfather and the phones at once


def sensor_changes(table, rate: float, stop: threading.Event) -> None:
    """Seat 2's standee tipped and stood at `rate` a second: snapshots for every page."""
    i = 0
    while not stop.wait(1 / rate):
        (table.simulator.tip if i % 2 == 0 else table.simulator.stand)(2)
        i += 1


def timed(conn: http.client.HTTPConnection, method: str, path: str, headers: dict[str, str],
          body: dict | None = None) -> float:
    start = time.monotonic()
    conn.request(method, path, json.dumps(body) if body is not None else None,
                 {**headers, "Content-Type": "application/json"})
    response = conn.getresponse()
    response.read()
    if response.status != 200:
        raise SystemExit(f"{method} {path}: {response.status}")
    return (time.monotonic() - start) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=200, help="live pages, and the limit")
    ap.add_argument("-n", type=int, default=400, help="requests of each kind")
    ap.add_argument("--rate", type=float, default=20.0, help="sensor changes a second")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-load-"))
    port = free_port()
    broker = start_mosquitto(port, str(tmp))
    config = table_config(tmp, f"mqtt://127.0.0.1:{port}", debounce_ms=0)
    config.sections["dashboard"] = replace(config["dashboard"], max_streams=args.streams)
    live = start_table(config, str(tmp / "journal.sqlite3"))
    stop = threading.Event()
    readers = None
    try:
        table = live.table
        table.command({"type": "new_game", "version": table.version, "players": list(NAMES),
                       "powers": "random"}, Auth(control=True))
        web = live.server.port
        claims = {s: table.claim(s, table.access.seat_token(s)) for s in range(1, 9)}
        readers = Readers(web, ["/api/events"] * (args.streams - 8) + [
            f"/api/events?seat={s}#{claims[s]}" for s in range(1, 9)],
            parse=False)  # every frame read at once, so the server writes every one
        first_revision = table.revision
        threading.Thread(target=sensor_changes, args=(table, args.rate, stop),
                         daemon=True).start()
        tablet = http.client.HTTPConnection("127.0.0.1", web, timeout=10)
        phones = [http.client.HTTPConnection("127.0.0.1", web, timeout=10) for _ in range(8)]
        godfather, phone = [], []
        for i in range(args.n):
            kind = "pause" if i % 2 == 0 else "resume"
            godfather.append(timed(tablet, "POST", "/api/command", {"X-Table-Pin": PIN},
                                   {"type": kind, "version": table.version}))
            seat = 1 + i % 8
            phone.append(timed(phones[seat - 1], "GET", f"/api/seat/{seat}",
                               {"X-Seat-Claim": claims[seat]}))
        refusals = []  # one page more, again and again: each refused at once
        for _ in range(args.n):
            extra = http.client.HTTPConnection("127.0.0.1", web, timeout=10)
            start = time.monotonic()
            extra.request("GET", "/api/events")
            refused = extra.getresponse()
            refused.read()
            refusals.append((time.monotonic() - start) * 1000)
            extra.close()
        stop.set()
        open_streams = live.server.streams.count
        _, frames, read = readers.stop().split()
        print(f"{open_streams} open streams ({args.streams - 8} spectators, 8 phones), "
              f"{args.rate:g} sensor changes a second; {table.revision - first_revision} "
              f"changes, {frames} frames read ({int(read) / 1e6:.1f} MB)")
        print(f"Godfather's command (pause/resume): {percentiles(godfather)}")
        print(f"phone reads its seat             : {percentiles(phone)}")
        print(f"both                             : {percentiles(godfather + phone)}")
        print(f"one page more: {refused.status}, Retry-After {refused.getheader('Retry-After')}"
              f", {percentiles(refusals)}")
        worst = sorted(godfather + phone)[int(len(godfather + phone) * 0.99)]
        return 0 if worst < COMMANDS_P99_MS and refused.status == 503 else 1
    finally:
        stop.set()
        if readers is not None and readers.proc.poll() is None:
            readers.proc.kill()
        live.stop()
        broker.terminate()
        broker.wait()


if __name__ == "__main__":
    sys.exit(main())
