"""Sensor event to every open page: latency of the dashboard's live updates, and memory.

    .venv/bin/python bench/dashboard_sse.py [--pages 50] [--phones 8] [-n 300]
                                            [--browsers 0]

A whole simulated table (tests/dashboard/stack.py: sensor bridge, Mosquitto, referee,
waitress and the stream loop) with an 8-player game; 42 spectator streams and 8 phone
streams, read in a process of their own (bench/sse_readers.py), which reads and parses
every SSE frame as a page's EventSource does. With --browsers N, N of the spectators are
real table views in headless Chromium instead, timed when their DOM shows the change.
Each event tips or stands seat 1's standee on the simulated hub's reed input; its latency
is the time until the snapshot showing the new posture has reached the last of the pages
(when its last bytes were read; both processes read the same monotonic clock). Debounce is
0 here (a real debounce adds exactly its hold time by design). Results are in
docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import queue
import statistics
import subprocess
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
FRAME_BUDGET_MS = 1000 / 60  # one frame of a 60 Hz screen


class Readers:
    """The pages' streams, read in their own process (bench/sse_readers.py)."""

    def __init__(self, port: int, paths: list[str], parse: bool = True) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "sse_readers.py"), str(port),
             *([] if parse else ["--no-parse"]), *paths],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        if not self.next(60).startswith("ready"):
            raise SystemExit("the readers did not start")
        self.count = len(paths)

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put("")

    def next(self, timeout_s: float) -> str:
        try:
            line = self.lines.get(timeout=timeout_s)
        except queue.Empty:
            raise SystemExit("the readers went quiet") from None
        if not line:
            raise SystemExit(f"the readers stopped ({self.proc.wait()})")
        return line

    def arrivals(self, posture: str, timeout_s: float) -> list[float]:
        """When each page first showed seat 1 in `posture` (time.monotonic())."""
        seen: dict[int, float] = {}
        while len(seen) < self.count:
            page, shown, at, _revision = self.next(timeout_s).split()
            if shown == posture:
                seen.setdefault(int(page), float(at))
        return list(seen.values())

    def stop(self) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        while not (line := self.next(10)).startswith("done"):
            pass
        self.proc.wait(10)
        return line


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
EPOCH_TO_MONOTONIC = time.time() - time.monotonic()


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
        return self.page.evaluate(match)[0] / 1000 - EPOCH_TO_MONOTONIC


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=50, help="pages in all, phones included")
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
    readers = None
    try:
        table = live.table
        table.command({"type": "new_game", "version": table.version, "players": list(NAMES),
                       "powers": "random"}, Auth(control=True))
        rss_before = rss_kib()
        browsers: list[BrowserPage] = []
        if playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            browsers = [BrowserPage(browser, live.url) for _ in range(args.browsers)]
        spectators = args.pages - args.phones - args.browsers
        readers = Readers(live.server.port, ["/api/events"] * spectators + [
            f"/api/events?seat={s}#{table.claim(s, table.access.seat_token(s))}"
            for s in range(1, args.phones + 1)])  # each phone claims its seat
        changed_at: list[float] = []
        table.subscribe(lambda _r: changed_at.append(time.monotonic()))
        every_page, per_page, dashboard_share = [], [], []
        for i in range(args.n):
            want = "down" if i % 2 == 0 else "up"
            for page in browsers:
                page.expect(want)
            del changed_at[:]
            start = time.monotonic()
            (table.simulator.tip if want == "down" else table.simulator.stand)(1)
            seen = readers.arrivals(want, 5) + [page.wait(5) for page in browsers]
            last = max(seen)
            every_page.append((last - start) * 1000)
            per_page += [(t - start) * 1000 for t in seen]
            dashboard_share.append((last - changed_at[0]) * 1000)
        rss_after = rss_kib()
        streams = live.server.streams.count
        _, frames, read = readers.stop().split()
        print(f"{spectators} spectator + {args.browsers} Chromium + {args.phones} phone "
              f"streams, {args.n} standee edges")
        print(f"pin edge -> last page : {percentiles(every_page)}")
        print(f"pin edge -> each page : {percentiles(per_page)}")
        print(f"table change -> last page: {percentiles(dashboard_share)}")
        print(f"frames read: {frames} ({int(read) / 1e6:.1f} MB); open streams: {streams}")
        print(f"server process RSS: {rss_before / 1024:.1f} MiB before the pages, "
              f"{rss_after / 1024:.1f} MiB with them")
        return 0 if statistics.quantiles(every_page, n=100)[98] < FRAME_BUDGET_MS else 1
    finally:
        if readers is not None and readers.proc.poll() is None:
            readers.proc.kill()
        if playwright:
            playwright.stop()
        live.stop()
        broker.terminate()
        broker.wait()


if __name__ == "__main__":
    sys.exit(main())
