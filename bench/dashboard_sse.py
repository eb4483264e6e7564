"""Sensor event to every open page: latency of the dashboard's live updates, and memory.

    .venv/bin/python bench/dashboard_sse.py [--tables 20] [--phones 8] [-n 300]
                                            [--browsers 2]

A whole simulated table (tests/dashboard/stack.py: sensor bridge, Mosquitto, referee,
waitress) with an 8-player game; 20 spectator streams and 8 phone streams, each an
HTTP client on its own connection and thread that reads and parses every SSE frame, as
a page's EventSource does. With --browsers N, N of the spectators are real table views
in headless Chromium instead, timed when their DOM shows the change. Each event tips or
stands seat 1's standee on the simulated hub's reed input; its latency is the time until
the snapshot showing the new posture has reached the last of the pages. Debounce is 0 here (a real
debounce adds exactly its hold time by design). Results are in docs/PERFORMANCE.md.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests" / "dashboard")]

from playwright.sync_api import sync_playwright  # noqa: E402
from sensors_mqtt import free_port, percentiles, start_mosquitto  # noqa: E402
from stack import start_live_table  # noqa: E402

from companion.referee.commands import Auth  # noqa: E402

NAMES = ("Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal")


class Page:
    """One live page: reads its stream and notes when seat 1's posture first shows `want`."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.status
        self.want: str | None = None
        self.seen_at = 0.0
        self.frames = 0
        self.arrived = threading.Event()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self) -> None:
        data = b""
        for line in self.response:
            if line.startswith(b"data: "):
                data = line[6:]
            elif line == b"\n" and data:
                state = json.loads(data)
                now = time.perf_counter()
                self.frames += 1
                posture = state["players"][0]["sensors"]["posture"] if state["players"] else None
                if self.want is not None and posture == self.want and not self.arrived.is_set():
                    self.seen_at = now
                    self.arrived.set()
                data = b""

    def expect(self, posture: str) -> None:
        self.arrived.clear()
        self.want = posture

    def wait(self, timeout_s: float) -> float:
        if not self.arrived.wait(timeout_s):
            raise SystemExit(f"a page never saw posture {self.want}")
        return self.seen_at


# In the browser: note when seat 1's drawn standee changes (epoch ms, as time.time()).
OBSERVER = """
window.arrivals = [];
new MutationObserver(() => {
  const seat = document.querySelector('.seat[data-seat="1"]');
  const last = window.arrivals[window.arrivals.length - 1];
  if (seat && (!last || last[1] !== seat.dataset.posture))
    window.arrivals.push([performance.timeOrigin + performance.now(), seat.dataset.posture]);
}).observe(document, {subtree: true, childList: true, attributes: true});
"""
EPOCH_TO_PERF = time.time() - time.perf_counter()


class BrowserPage:
    """A table view in Chromium; its arrival is when its DOM shows the new posture."""

    def __init__(self, browser, url: str) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        self.page.add_init_script(OBSERVER)
        self.page.goto(url + "/")
        self.page.wait_for_selector('.seat[data-seat="1"]')
        self.want, self.seen = "", 0

    def expect(self, posture: str) -> None:
        self.want, self.seen = posture, self.page.evaluate("window.arrivals.length")

    def wait(self, timeout_s: float) -> float:
        match = (f"window.arrivals.slice({self.seen}).find(a => a[1] === '{self.want}')")
        self.page.wait_for_function(match, timeout=timeout_s * 1000)
        return self.page.evaluate(match)[0] / 1000 - EPOCH_TO_PERF


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20, help="spectator pages")
    ap.add_argument("--phones", type=int, default=8, help="phone pages (one per seat, up to 8)")
    ap.add_argument("-n", type=int, default=300, help="sensor events")
    ap.add_argument("--browsers", type=int, default=0,
                    help="spectators that are real Chromium table views (needs chromium)")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-dashboard-"))
    port = free_port()
    broker = start_mosquitto(port, str(tmp))
    live = start_live_table(tmp, f"mqtt://127.0.0.1:{port}", debounce_ms=0)
    playwright = sync_playwright().start() if args.browsers else None
    try:
        table = live.table
        table.command({"type": "new_game", "version": table.version, "players": list(NAMES),
                       "powers": "random"}, Auth(control=True))
        rss_before = rss_kib()
        pages: list[Page | BrowserPage] = []
        if playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            pages += [BrowserPage(browser, live.url) for _ in range(args.browsers)]
        pages += [Page(live.server.port, "/api/events")
                  for _ in range(args.tables - args.browsers)]
        pages += [Page(live.server.port, f"/api/events?seat={s}",  # each phone claims its seat
                       {"X-Seat-Claim": table.claim(s, table.access.seat_token(s))})
                  for s in range(1, args.phones + 1)]
        changed_at: list[float] = []
        table.subscribe(lambda _r: changed_at.append(time.perf_counter()))
        every_page, per_page, dashboard_share = [], [], []
        for i in range(args.n):
            want = "down" if i % 2 == 0 else "up"
            for page in pages:
                page.expect(want)
            del changed_at[:]
            start = time.perf_counter()
            (table.simulator.tip if want == "down" else table.simulator.stand)(1)
            seen = [page.wait(5) for page in pages]
            last = max(seen)
            every_page.append((last - start) * 1000)
            per_page += [(t - start) * 1000 for t in seen]
            dashboard_share.append((last - changed_at[0]) * 1000)
        rss_after = rss_kib()
        print(f"{args.tables} spectator ({args.browsers} in Chromium) + {args.phones} phone "
              f"streams, {args.n} standee edges")
        print(f"pin edge -> last page : {percentiles(every_page)}")
        print(f"pin edge -> each page : {percentiles(per_page)}")
        print(f"table change -> last page: {percentiles(dashboard_share)}")
        print(f"frames read: {sum(getattr(p, 'frames', 0) for p in pages)}; open streams: "
              f"{live.server.app.extensions['hub'].stream_count}")
        print(f"process RSS: {rss_before / 1024:.1f} MiB before the pages, "
              f"{rss_after / 1024:.1f} MiB after (clients included)")
        return 0 if statistics.quantiles(every_page, n=100)[98] < 50 else 1
    finally:
        if playwright:
            playwright.stop()
        live.stop()
        broker.terminate()
        broker.wait()


if __name__ == "__main__":
    sys.exit(main())
