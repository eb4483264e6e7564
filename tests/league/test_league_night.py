"""League night with every part real: three tables, each `companion demo` (the whole table
played by bots) on its own Mosquitto bridged to the venue's; `companion league` on SQLite
or on a PostgreSQL server. Games are played to the end; one table is cut off from the venue
during its last rounds and delivers its result after reconnecting; a forged result is
flagged and not rated; the standings match ratings computed here with openskill alone."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from tcpproxy import TcpProxy
from test_store import expected_ratings
from venue import free_port

from companion.bus.topics import Topics
from companion.league.simtable import sim_game

FAST = {"beat_ms": 200, "hold_ms": 150, "too_slow_ms": 400, "settle_ms": 150,
        "posture_ms": 300}
TABLES = ("cafe-1", "cafe-2", "cafe-3")
NAMES = ["Ana", "Bob", "Cyd", "Dee"]  # the demo's names: players meet at several tables


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


class Process:
    def __init__(self, args: list[str], log: Path) -> None:
        self.log_path = log
        self._log = open(log, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", *args],
                                     stdout=self._log, stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def alive(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"{self.log_path.name} exited {self.proc.returncode}:\n"
                                 f"{self.log_path.read_text()[-3000:]}")
        return True

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()


def table_config(folder: Path, table: str, venue_port: int, creds: Path) -> tuple[Path, int]:
    folder.mkdir(parents=True)
    web = free_port()
    path = folder / "table.yaml"
    path.write_text(
        f"table: {table}\n"
        f"mqtt: {{embedded_port: {free_port()}, state_dir: {folder / 'broker'}}}\n"
        "sensors:\n  filters: {hold_ms: 100}\n"
        f"  sim:\n    guns: [1, 2, 3, 4]\n    hand: {{ideal: true}}\n"
        f"    slot_us: 1500\n    link_dir: {folder / 'ports'}\n"
        f"referee:\n  pin: \"2468\"\n  journal: {folder / 'journal.sqlite3'}\n"
        f"  timing: {json.dumps(FAST)}\n"
        f"dashboard: {{host: 127.0.0.1, port: {web}}}\n"
        f"league: {{venue: 'mqtt://127.0.0.1:{venue_port}', credentials: {creds}}}\n")
    return path, web


def mint(config: Path, table: str, folder: Path) -> Path:
    """The table's own credentials file, as the venue mints it (docs/LEAGUE.md)."""
    subprocess.run([sys.executable, "-m", "companion.cli", "league", "credentials",
                    str(folder), "--table", table, "--config", str(config)], check=True,
                   capture_output=True)
    return folder / "tables" / f"{table}.json"


@pytest.fixture
def league_night(tmp_path, venue, database_url):
    creds = venue.folder / "credentials.json"
    web = free_port()
    config = tmp_path / "league.yaml"
    config.write_text(
        f"mqtt: {{url: 'mqtt://127.0.0.1:{venue.port}', credentials: {creds}}}\n"
        f"league: {{tables: {list(TABLES)}, database: '{database_url}', pin: '1357'}}\n"
        f"dashboard: {{host: 127.0.0.1, port: {web}}}\n")
    processes = [Process(["league", "--config", str(config)], tmp_path / "league.log")]
    proxy = TcpProxy(venue.port)  # cafe-3's road to the venue, to be cut
    tables = {}
    for i, table in enumerate(TABLES, start=1):
        port = proxy.port if table == "cafe-3" else venue.port
        path, table_web = table_config(tmp_path / table, table, port,
                                       mint(config, table, venue.folder))
        processes.append(Process(["demo", "--config", str(path), "--pace", "0",
                                  "--players", "4", "--seed", str(40 + i)],
                                 tmp_path / f"{table}.log"))
        tables[table] = f"http://127.0.0.1:{table_web}"
    try:
        yield f"http://127.0.0.1:{web}", tables, proxy, processes
    finally:
        for p in processes:
            p.stop()
        proxy.close()


def test_three_tables_play_a_league_night(league_night, venue, poll_until):
    league, tables, proxy, processes = league_night

    def stored(table: str) -> list[dict]:
        return [g for g in get(f"{league}/api/venue")["games"] if g["table"] == table]

    def state(table: str) -> dict | None:
        try:
            return get(f"{tables[table]}/api/state")
        except OSError:
            return None

    cafe3 = poll_until(lambda: all(p.alive() for p in processes)
                       and (s := state("cafe-3")) and s.get("round", 0) >= 7 and s, 240,
                       "cafe-3 to reach its last rounds")
    assert cafe3["phase"] != "over", "the game ended before the link could be cut"
    proxy.cut()
    poll_until(lambda: (s := state("cafe-3")) and s["phase"] == "over", 180,
               "cafe-3's game to end while cut off")
    shown = next(t for t in get(f"{league}/api/venue")["tables"] if t["table"] == "cafe-3")
    assert not shown["online"] and not shown["over"]  # the venue saw it go, before the end
    assert stored("cafe-3") == []
    poll_until(lambda: stored("cafe-1") and stored("cafe-2"), 180, "cafe-1's and cafe-2's "
               "results")
    proxy.restore()
    poll_until(lambda: stored("cafe-3"), 60, "cafe-3's result after reconnecting")
    for table in TABLES:  # each table's New game form now offers the league's names
        poll_until(lambda t=table: get(f"{tables[t]}/api/roster")["players"] == NAMES, 20,
                   f"the roster at {table}")
    for p in processes[1:]:
        p.stop()  # no further games while the standings are checked

    forged = sim_game(5, 4, tuple(NAMES)).result("cafe-1", "f0f0f0f0f0f0", 1.7e12)
    forged["players"][0]["score"] += 50_000
    client = venue.client("cafe-1")
    client.publish(Topics("cafe-1").league_result, json.dumps(forged), qos=1).wait_for_publish(5)
    flagged = poll_until(lambda: [g for g in get(f"{league}/api/venue")["games"]
                                  if g["uid"] == forged["uid"]], 20, "the forged result")[0]
    assert flagged["status"] == "flagged" and "score" in flagged["problems"][0]
    client.loop_stop()

    games = sorted(get(f"{league}/api/venue")["games"], key=lambda g: g["id"])
    accepted = [get(f"{league}/api/games/{g['id']}") for g in games
                if g["status"] == "accepted"]
    assert {g["table"] for g in accepted} == set(TABLES)
    assert [(g["uid"], g["problems"]) for g in games if g["status"] != "accepted"
            and g["uid"] != forged["uid"]] == []  # each table's results replay to their end
    claims = [{"winners": g["claimed"]["winners"], "players": g["claimed"]["players"]}
              for g in accepted]
    expected = expected_ratings(claims)
    standings = get(f"{league}/api/standings")["standings"]
    assert {p["name"] for p in standings} == set(expected) == set(NAMES)
    for p in standings:
        mu, sigma, played = expected[p["name"]]
        assert (p["mu"], p["sigma"], p["games"]) == (pytest.approx(mu), pytest.approx(sigma),
                                                     played)
    for g in accepted:  # what each table showed at its end is what the league replayed
        assert g["chart"]["winners"] == g["claimed"]["winners"]
