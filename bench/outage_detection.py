"""Broker outage detection: from Mosquitto killed to every page showing the link down.

    .venv/bin/python bench/outage_detection.py [--runs 10] [--freeze] [--keepalive 10]

A whole simulated table as `companion run` starts it with no `mqtt.url`: the companion's
own Mosquitto child (passwords, ACLs), the sensor bridge, the referee, the dashboard on
127.0.0.1. A spectator's live stream (`/api/events`, read on its own connection and thread
as a page's EventSource does) and a poller of `/api/state` (every 2 ms) watch the public
view's `links`. Each run kills the broker with SIGKILL and times until the stream, and
`/api/state`, first say the broker link is down; then until they say it is back (the
companion restarts its broker at once, the clients reconnect within paho's 1 to 5 s
reconnect delay). With --freeze the broker is stopped (SIGSTOP: hung, its connections
open) instead of killed, and continued once the pages say it is down: only MQTT's
keep-alive (`mqtt.keepalive`, 10 s: paho gives up after 1.5 times that) can tell then.
Results are in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from sensors_mqtt import free_port  # noqa: E402

from companion import config  # noqa: E402
from companion.runner import start_table  # noqa: E402


def broker_down(state: dict) -> bool:
    return any(link["link"] == "broker" for link in state.get("links", []))


class Watcher:
    """A view of the public state on a thread: when it last changed its mind on the broker."""

    def __init__(self, read: Callable[[], bool]) -> None:
        self.read = read
        self.down = False
        self.changed_at = 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                self.note(self.read())
            except (OSError, http.client.HTTPException):  # the server is stopping
                return

    def note(self, down: bool) -> None:
        if down != self.down:
            self.down, self.changed_at = down, time.perf_counter()

    def wait(self, down: bool, timeout_s: float) -> float:
        deadline = time.monotonic() + timeout_s
        while self.down != down:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the view never said the broker is {'down' if down else 'up'}")
            time.sleep(0.001)
        return self.changed_at


class StreamWatcher(Watcher):
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        super().__init__(self.next_frame)

    def next_frame(self) -> bool:
        while line := self.response.fp.readline():
            if line.startswith(b"data: "):
                return broker_down(json.loads(line[6:]))
        self.stop.set()
        return self.down


def poll(url: str) -> Callable[[], bool]:
    def read() -> bool:
        time.sleep(0.002)
        with urllib.request.urlopen(url, timeout=5) as r:
            return broker_down(json.load(r))
    return read


def summary(samples_ms: list[float]) -> str:
    return (f"p50 {statistics.median(samples_ms):.1f} ms, max {max(samples_ms):.1f} ms "
            f"(n={len(samples_ms)})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--freeze", action="store_true", help="SIGSTOP the broker, not SIGKILL")
    ap.add_argument("--keepalive", type=int, default=10, help="mqtt.keepalive, seconds")
    args = ap.parse_args()
    logging.getLogger("companion").setLevel(logging.ERROR)  # the outages are on purpose

    tmp = Path(tempfile.mkdtemp(prefix="bench-outage-"))
    running = start_table(config.parse(f"""
table: outage
mqtt: {{embedded_port: {free_port()}, state_dir: {tmp / "broker"}, keepalive: {args.keepalive}}}
sensors:
  sim: {{guns: [1, 2, 3, 4], hand: {{ideal: true}}, slot_us: 1500, link_dir: {tmp / "links"}}}
referee: {{pin: "2468"}}
dashboard: {{host: 127.0.0.1, port: 0}}
""", "bench-outage.yaml"), str(tmp / "journal.sqlite3"))
    broker = running.broker
    stream = StreamWatcher(running.server.port)
    state = Watcher(poll(running.url + "/api/state"))
    to_stream, to_state, back = [], [], []
    try:
        for _ in range(args.runs):
            stream.wait(False, 30)
            state.wait(False, 30)
            pid = broker.process.pid
            killed = time.perf_counter()
            os.kill(pid, signal.SIGSTOP if args.freeze else signal.SIGKILL)
            to_stream.append((stream.wait(True, 60) - killed) * 1000)
            to_state.append((state.wait(True, 60) - killed) * 1000)
            if args.freeze:
                os.kill(pid, signal.SIGCONT)
            back.append((stream.wait(False, 30) - killed) * 1000)
        how = "stopped (SIGSTOP)" if args.freeze else "killed (SIGKILL)"
        print(f"Mosquitto {how} {args.runs} times; the companion restarted it "
              f"{broker.restarts} times")
        print(f"-> the live stream says the broker is down: {summary(to_stream)}")
        print(f"-> /api/state says the broker is down    : {summary(to_state)}")
        print(f"-> the live stream says it is back       : {summary(back)}")
        return 0 if max(to_stream) < 1000 and max(to_state) < 1000 else 1
    finally:
        stream.stop.set()
        state.stop.set()
        running.stop()


if __name__ == "__main__":
    sys.exit(main())
