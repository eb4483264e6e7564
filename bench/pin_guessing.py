"""PIN guessing from many addresses against a real server: the guesses an attacker gets.

    .venv/bin/python bench/pin_guessing.py [--seconds 130] [--addresses 250] [--threads 8]

A table (its journal in a temporary folder, a generated 6-digit PIN) behind the dashboard's
own server (waitress) on 127.0.0.1. Attack threads send `GET /api/control` with a wrong
`X-Table-Pin` as fast as the server answers, for a bounded time, each request on a new
connection from the next of N loopback source addresses (127.0.x.y: Linux routes all of
127/8 to the loopback), so the per-address limit never bites. Counted: wrong guesses the
server checked (401) and tries refused unchecked (429). Meanwhile the Godfather's tablet,
logged in before the attack, reads `/api/control` every 100 ms with its session: it must
never be refused. At the end the right PIN, from a fresh address, must be refused too while
the table is locked. Results are in docs/SECURITY.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from companion.clock import SYSTEM_CLOCK  # noqa: E402
from companion.dashboard.api import WRONG_PIN_TABLE_LIMIT, WRONG_PIN_WINDOW_S  # noqa: E402
from companion.dashboard.app import create_app  # noqa: E402
from companion.dashboard.server import DashboardServer  # noqa: E402
from companion.dashboard.settings import DashboardSettings  # noqa: E402
from companion.referee.access import PIN_DIGITS  # noqa: E402
from companion.referee.journal import Journal  # noqa: E402
from companion.referee.settings import RefereeSettings  # noqa: E402
from companion.referee.table import Table  # noqa: E402


def ask(port: int, source: str, headers: dict[str, str], path: str = "/api/control",
        body: bytes | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    conn.request("POST" if body else "GET", path, body=body, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def source_addresses(n: int) -> list[str]:
    return [f"127.0.{1 + i // 250}.{1 + i % 250}" for i in range(n)]


def wrong_pin(real: str, k: int) -> str:
    return f"{(int(real) + 1 + k) % 10**PIN_DIGITS:0{PIN_DIGITS}d}"


def days_to_find(per_hour: float, digits: int) -> tuple[float, float]:
    """Mean and worst days to find a PIN of `digits` digits at `per_hour` guesses."""
    space = 10**digits
    return (space + 1) / 2 / per_hour / 24, space / per_hour / 24


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=130.0, help="how long the attack runs")
    ap.add_argument("--addresses", type=int, default=250, help="loopback source addresses")
    ap.add_argument("--threads", type=int, default=8, help="attacking threads")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-pin-"))
    journal = Journal(tmp / "journal.sqlite3")
    table = Table("bench", RefereeSettings(), journal, SYSTEM_CLOCK)  # a generated PIN
    server = DashboardServer(create_app(table, DashboardSettings(host="127.0.0.1", port=0)),
                             DashboardSettings(host="127.0.0.1", port=0)).start()
    port, pin = server.port, table.access.pin
    addresses = source_addresses(args.addresses)
    login = ask(port, "127.0.0.1", {"Content-Type": "application/json"}, "/api/login",
                json.dumps({"pin": pin}).encode())
    session = {"Cookie": login.getheader("Set-Cookie").split(";")[0]}

    answers: Counter[int] = Counter()
    checked_at: list[float] = []  # when each wrong guess was checked (401)
    tablet_ms: list[float] = []
    tablet_answers: Counter[int] = Counter()
    stop = threading.Event()
    lock = threading.Lock()
    start = time.monotonic()

    def attack(worker: int) -> None:
        k = worker
        while not stop.is_set():
            status = ask(port, addresses[k % len(addresses)],
                         {"X-Table-Pin": wrong_pin(pin, k)}).status
            with lock:
                answers[status] += 1
                if status == 401:
                    checked_at.append(time.monotonic() - start)
            k += args.threads

    def tablet() -> None:
        while not stop.wait(0.1):
            t0 = time.perf_counter()
            status = ask(port, "127.0.0.1", session).status
            tablet_ms.append((time.perf_counter() - t0) * 1000)
            tablet_answers[status] += 1

    threads = [threading.Thread(target=attack, args=(w,)) for w in range(args.threads)]
    threads.append(threading.Thread(target=tablet))
    for thread in threads:
        thread.start()
    time.sleep(args.seconds)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start
    right_pin_locked = ask(port, "127.0.200.1", {"X-Table-Pin": pin}).status
    server.stop()
    journal.close()

    checked = len(checked_at)
    steady = (checked - WRONG_PIN_TABLE_LIMIT) / (checked_at[-1] - checked_at[0]) * 3600 \
        if checked > WRONG_PIN_TABLE_LIMIT else float("nan")
    designed = WRONG_PIN_TABLE_LIMIT * 3600 / WRONG_PIN_WINDOW_S
    print(f"attack: {elapsed:.1f} s, {args.threads} threads, {len(addresses)} source "
          f"addresses, {sum(answers.values())} requests ({sum(answers.values()) / elapsed:.0f}/s)")
    print(f"answers: {dict(sorted(answers.items()))} (401: a guess checked, 429: refused "
          "unchecked)")
    print("checked guesses at (s): " + ", ".join(f"{t:.2f}" for t in checked_at))
    print(f"guesses per hour: {steady:.0f} measured (bursts of {WRONG_PIN_TABLE_LIMIT}), "
          f"{designed:.0f} from the code's constants")
    for digits in (PIN_DIGITS, 4):
        mean, worst = days_to_find(designed, digits)
        print(f"a {digits}-digit PIN: found on average in {mean:.1f} days "
              f"({mean * 24:.1f} h), at worst {worst:.1f} days")
    print(f"the right PIN from a new address while locked: {right_pin_locked}")
    print(f"the logged-in tablet: {dict(tablet_answers)}, p50 "
          f"{statistics.median(tablet_ms):.1f} ms, max {max(tablet_ms):.1f} ms "
          f"(n={len(tablet_ms)})")
    ok = (right_pin_locked == 429 and set(tablet_answers) == {200}
          and checked <= WRONG_PIN_TABLE_LIMIT * (1 + int(elapsed // WRONG_PIN_WINDOW_S)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
