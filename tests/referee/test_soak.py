"""The soak: many bot games through the whole stack, as a long evening at a real table.

`companion run` in its own process (the simulated hub on a pseudo-terminal, the sensor
bridge, the referee and its journal, the dashboard), a real Mosquitto, bots tapping the
tablet and the phones over HTTP and moving guns and standees through the simulator, and a
spectator's page reading the live stream all evening. The referee's timing is the fastest
the config accepts (a countdown beat of 200 ms): accelerated, not faked.

Not in the default run (it takes about an hour for 200 games): `./dev test -m soak`
(`SOAK_GAMES=N` for another count). It checks that every game ends and replays from the
journal to the same result and, from the journal's inputs, to every same decision and
public view (`companion replay --journal`), that the page saw every game's final count
with its whole log, that nothing was logged as an error, that the journal keeps at most
`referee.keep_games` finished games, and that memory stays flat: the process's resident
memory over the last half of the games grows less than 2 MiB. The figures are printed and
recorded in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import sqlite3
import statistics
import threading
from pathlib import Path
from typing import Any

import pytest
from remote_table import RemoteTable
from test_run import NAMES, replayed, replays_call_for_call, same_game

from companion.bots.table_bot import TableBot

GAMES = int(os.environ.get("SOAK_GAMES", "200"))
KEEP = 50  # referee.keep_games for the soak: pruning is exercised many times
SEATS = 6
GROWTH_MIB = 2.0  # resident memory may grow this much over the last half of the games

pytestmark = [pytest.mark.soak, pytest.mark.timeout(4 * 3600)]


class Spectator:
    """A page of the table view, reading `/api/events` on a thread all evening long."""

    def __init__(self, port: int) -> None:
        self.finals: dict[int, dict[str, Any]] = {}  # game id -> its snapshot once over
        self.frames = 0
        self.changed = threading.Condition()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", "/api/events")
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while line := self.response.fp.readline():
            if not line.startswith(b"data: "):
                continue
            view = json.loads(line[6:])
            with self.changed:
                self.frames += 1
                if view.get("phase") == "over":
                    self.finals[view["game"]] = view
                self.changed.notify_all()

    def final(self, game: int) -> dict[str, Any]:
        with self.changed:
            self.changed.wait_for(lambda: game in self.finals, 30)
        assert game in self.finals, f"the page never saw game {game} end"
        return self.finals[game]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_an_evening_of_bot_games_through_the_whole_stack(remote):
    table: RemoteTable = remote(SEATS, extra=f"  keep_games: {KEEP}\n")  # under referee:
    table.wait_s = 30.0  # a busy machine may be slow; a reading that never comes still fails
    spectator = Spectator(table.web_port)
    rnd = random.Random(2026)
    memory: list[float] = []
    steps_total = 0
    for n in range(GAMES):
        players = 4 + n % (SEATS - 3)  # 4, 5, 6 players in turn
        bot = TableBot(table, rnd)
        started = bot.new_game(NAMES[:players], powers="random", seed=rnd.randrange(1 << 31))
        assert started.get("ok", True), started
        steps = 0
        while (state := table.control())["phase"] != "over":
            try:
                bot.step(state)
            except AssertionError as e:  # what the table showed when a wait ran out
                now = table.state()
                raise AssertionError(f"game {n + 1}: {e}\nsensors: " + json.dumps(
                    [p["sensors"] for p in now["players"]]) + f"\nlinks: {now.get('links')}"
                    f"\nstage: {now['stage']}") from e
            steps += 1
            assert steps < 3000, f"game {n + 1} did not end"
        steps_total += steps
        seen = spectator.final(state["game"])
        assert seen["winners"] == state["winners"]
        assert seen["events"] == table.state()["events"]  # the whole log
        if n % 20 == 0:  # the journal's game replays to the same end
            same_game(state, replayed(table))
            replays_call_for_call(table, state["game"])  # and call for call, so far
        memory.append(rss_mib(table.proc.pid))
        if (n + 1) % 10 == 0:
            print(f"soak: game {n + 1}, {memory[-1]:.1f} MiB", flush=True)
    replayed_all = replays_call_for_call(table)  # the whole evening, every game's calls
    half = memory[len(memory) // 2:]
    growth = max(half) - half[0]
    journal = table.config.parent / "journal.sqlite3"
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        games = db.execute("SELECT count(*) FROM game").fetchone()[0]
    log = "".join(p.read_text() for p in table.config.parent.glob("run-*.log"))
    print(f"\nsoak: {GAMES} games, {steps_total} bot steps, {spectator.frames} frames read; "
          f"resident memory {memory[0]:.1f} MiB after game 1, {half[0]:.1f} at game "
          f"{GAMES - len(half) + 1}, {memory[-1]:.1f} at the end (median "
          f"{statistics.median(memory):.1f}); journal {journal.stat().st_size / 1024:.0f} KiB, "
          f"{games} games kept\nsoak: {replayed_all.strip()}")
    assert table.proc.poll() is None, "companion run died"
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    assert games <= KEEP + 1
    assert growth < GROWTH_MIB, memory
