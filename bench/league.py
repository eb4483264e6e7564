"""How many tables one `companion league` and one Mosquitto serve (docs/PERFORMANCE.md).

`companion league` runs as it does at a venue: its own Mosquitto (one user per table), its
database (SQLite by default, or --database URL), its venue page. This process plays the
tables: each is one MQTT connection logged in as its table, playing whole games by the
random bot (the engine, a few ms a game), accelerated: every public state the referee
would publish after each action, spread over --game-s seconds, then the result with the
whole game as a scenario file, at QoS 1. The bench joins each table at a random point of
its first game, so results arrive spread out from the start, as at a real venue. The
tables are spread over worker processes of 200.

Measured, for each number of tables: a result's delay from its publication at the table to
the league's acknowledgement (sent once it is stored: an upper bound on "stored within");
the venue page's delay from a table's state to the frame that shows it on an open stream
(a probe table changes its state every 0.5 s); the league's and Mosquitto's CPU.

    .venv/bin/python bench/league.py --tables 10 25 50 100 200 --game-s 40 --seconds 120
    .venv/bin/python bench/league.py --replay 200    # one result's check and replay alone
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.bus.topics import Topics
from companion.league.simtable import sim_game

TABLES_PER_WORKER = 200
NAMES = ("Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def child_pid(parent: int, name: str) -> int | None:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if f"({name})" in stat and int(stat.rsplit(")", 1)[1].split()[1]) == parent:
                return int(entry.name)
    return None


class SimTable:
    """One table: a connection as its user, a game's states then its result, again."""

    def __init__(self, table: str, port: int, password: str, game_s: float,
                 rnd: random.Random, results: list[float]) -> None:
        self.table, self.game_s, self.rnd, self.results = table, game_s, rnd, results
        self.sent: dict[str, float] = {}
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{table}")
        self.client.username_pw_set(table, password)
        self.client.on_connect = lambda c, *_a: c.subscribe(Topics(table).league_ack, qos=1)
        self.client.on_message = self._ack
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        self.tag = secrets.token_hex(6)
        self.games = 0

    def _ack(self, _c: object, _u: object, msg: mqtt.MQTTMessage) -> None:
        uid = json.loads(msg.payload)["uid"]
        if uid in self.sent:
            self.results.append(time.monotonic() - self.sent.pop(uid))

    def play(self, stop: threading.Event) -> None:
        joined = self.rnd.random()  # the bench finds each table at a random point of a game
        while not stop.is_set():
            self.games += 1
            game = sim_game(self.rnd.randrange(1 << 30), self.rnd.randint(4, 8),
                            tuple(self.rnd.sample(NAMES, 8)))
            game.game_id = self.games
            states = [json.dumps(s) for s in game.states(self.table)]
            pause = self.game_s / len(states)
            for state in states[int(joined * len(states)):]:
                if stop.wait(pause):
                    return
                self.client.publish(f"cashnguns/{self.table}/game/state", state, qos=1,
                                    retain=True)
            joined = 0.0
            message = game.result(self.table, self.tag, time.time() * 1000)
            self.sent[message["uid"]] = time.monotonic()
            self.client.publish(Topics(self.table).league_result, json.dumps(message), qos=1)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def play_tables(tables: list[str], port: int, creds: dict[str, str], game_s: float,
                seconds: float, seed: int) -> tuple[list[float], int]:
    """A worker process's tables, for `seconds`: each result's delay, how many unacked."""
    rnd = random.Random(seed)
    results: list[float] = []
    sims = [SimTable(t, port, creds[t], game_s, random.Random(rnd.random()), results)
            for t in tables]
    stop = threading.Event()
    for sim in sims:
        threading.Thread(target=sim.play, args=(stop,), daemon=True).start()
    stop.wait(seconds)
    stop.set()
    time.sleep(2)  # the last acknowledgements
    for sim in sims:
        sim.close()
    return results, sum(len(sim.sent) for sim in sims)


def probe_page(web: int, port: int, password: str, seconds: float) -> list[float]:
    stop = threading.Event()
    out: list[float] = []
    threading.Thread(target=venue_latency, args=(web, port, password, stop, out),
                     daemon=True).start()
    stop.wait(seconds)
    stop.set()
    return out


def venue_latency(web: int, port: int, password: str, stop: threading.Event,
                  out: list[float]) -> None:
    """A page's stream, and a probe table whose state changes every 0.5 s."""
    probe = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-probe")
    probe.username_pw_set("probe", password)
    probe.connect("127.0.0.1", port)
    probe.loop_start()
    base = next(sim_game(1, 4).states("probe"))
    sent: dict[int, float] = {}

    def read() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", web, timeout=30)
        conn.request("GET", "/api/events")
        stream = conn.getresponse()
        while not stop.is_set():
            line = stream.readline()
            if not line.startswith(b"data: "):
                continue
            now = time.monotonic()
            for t in json.loads(line[6:])["tables"]:
                if t["table"] == "probe" and t["game"] in sent:
                    out.append(now - sent.pop(t["game"]))

    threading.Thread(target=read, daemon=True).start()
    n = 0
    while not stop.wait(0.5):
        n += 1
        sent[n] = time.monotonic()
        probe.publish("cashnguns/probe/game/state", json.dumps({**base, "game": n}), qos=1)
    probe.loop_stop()


def run(n: int, args: argparse.Namespace) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="league-bench-"))
    port, web = free_port(), free_port()
    tables = [f"b{i:03d}" for i in range(n)]
    database = args.database or f"sqlite:///{folder / 'league.sqlite3'}"
    (folder / "league.yaml").write_text(json.dumps({
        "mqtt": {"embedded_port": port, "state_dir": str(folder / "broker")},
        "league": {"tables": [*tables, "probe"], "listen": "127.0.0.1", "database": database},
        "dashboard": {"host": "127.0.0.1", "port": web}}))
    league = subprocess.Popen([sys.executable, "-m", "companion.cli", "league", "--config",
                               str(folder / "league.yaml"), "--log-level", "WARNING"],
                              stderr=open(folder / "league.log", "w"))  # noqa: SIM115
    deadline = time.monotonic() + 30
    while not (folder / "broker" / "credentials.json").exists() or not _listening(web):
        if time.monotonic() > deadline or league.poll() is not None:
            raise SystemExit(f"companion league did not start: {folder / 'league.log'}")
        time.sleep(0.1)
    mosquitto = child_pid(league.pid, "mosquitto")
    # paho waits with select(), which takes file descriptors below 1024 only: at most
    # TABLES_PER_WORKER tables (3 descriptors each) in one process
    chunks = [tables[i:i + TABLES_PER_WORKER] for i in range(0, n, TABLES_PER_WORKER)]
    try:
        return measure(league, folder, n, chunks, port, web, mosquitto, args)
    finally:
        league.send_signal(signal.SIGTERM)
        league.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


def measure(league: subprocess.Popen, folder: Path, n: int, chunks: list[list[str]],
            port: int, web: int, mosquitto: int | None,
            args: argparse.Namespace) -> dict[str, object]:
    creds = json.loads((folder / "broker" / "credentials.json").read_text())
    with multiprocessing.get_context("fork").Pool(len(chunks) + 1) as pool:
        cpu0 = (cpu_s(league.pid), cpu_s(mosquitto) if mosquitto else 0.0, time.monotonic())
        played = [pool.apply_async(play_tables, (chunk, port, creds, args.game_s,
                                                 args.seconds, n * 1000 + i))
                  for i, chunk in enumerate(chunks)]
        probe = pool.apply_async(probe_page, (web, port, creds["probe"], args.seconds))
        done = [p.get(args.seconds + 600) for p in played]  # a loaded machine is slow
        page = probe.get(args.seconds + 600)
        elapsed = time.monotonic() - cpu0[2]
        cpu = (cpu_s(league.pid) - cpu0[0],
               (cpu_s(mosquitto) if mosquitto else 0.0) - cpu0[1])
    results = [v for d in done for v in d[0]]
    unacked = sum(d[1] for d in done)
    return {"tables": n, "results": len(results), "unacked": unacked,
            "result": _pcts(results), "page": _pcts(page),
            "league_cpu": cpu[0] / elapsed, "mosquitto_cpu": cpu[1] / elapsed}


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def _pcts(values: list[float]) -> str:
    if not values:
        return "-"
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"{statistics.median(ms):.0f} / {p95:.0f} / {ms[-1]:.0f} ms"


def replay_cost(games: int) -> None:
    """What one result costs the league's worker: checking it and replaying its game."""
    from companion.league.result import parse_claim
    from companion.league.verify import verify

    rnd = random.Random(7)
    payloads = [json.dumps(sim_game(i, rnd.randint(4, 8)).result("b000", "0" * 12, 0)).encode()
                for i in range(games)]
    spent = []
    for payload in payloads:
        start = time.perf_counter()
        assert verify(parse_claim(payload, "b000")).ok
        spent.append(time.perf_counter() - start)
    size = statistics.median(len(p) for p in payloads)
    print(f"check + replay of {games} results (4 to 8 players, median {size / 1024:.0f} KiB): "
          f"{_pcts(spent)} (p50 / p95 / max)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[10, 25, 50, 100])
    ap.add_argument("--game-s", type=float, default=60.0, help="seconds a game takes")
    ap.add_argument("--seconds", type=float, default=60.0, help="how long each step runs")
    ap.add_argument("--database", help="a league.database URL (default: SQLite in a temp dir)")
    ap.add_argument("--replay", type=int, metavar="N",
                    help="only time checking and replaying N results, in this process")
    args = ap.parse_args()
    if args.replay:
        replay_cost(args.replay)
        return 0
    print("| tables | results stored | result: p50 / p95 / max | venue page: p50 / p95 / max "
          "| league CPU | Mosquitto CPU |\n|---:|---:|---|---|---:|---:|")
    for n in args.tables:
        r = run(n, args)
        print(f"| {r['tables']} | {r['results']} (+{r['unacked']} waiting) | {r['result']} | "
              f"{r['page']} | {r['league_cpu']:.0%} | {r['mosquitto_cpu']:.0%} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
