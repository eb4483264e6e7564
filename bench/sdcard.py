"""What the companion writes to its card: per game (the journal: WAL and checkpoints) and per
hour (the whole service: the journal, the table's broker saving its retained messages, the
files it writes at start).

    .venv/bin/python bench/sdcard.py journal [--games 20]
    .venv/bin/python bench/sdcard.py service [--idle-s 300]

Bytes come from /proc/<pid>/io: `wchar`, what the process hands to write() (for the journal,
SQLite's pages and WAL frames before the file system; for the service, sockets and pipes
too), and `write_bytes`, what reached the block device (with the file system's own metadata
and journal, as fsync forces them out). The journal is written
where this script runs (a temporary folder on /tmp's filesystem). Figures go to
docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "referee"))  # the tests' in-process table port


def io_of(pid: int | str = "self") -> tuple[int, int]:
    """(wchar, write_bytes) of one process."""
    fields = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
    return int(fields["wchar"]), int(fields["write_bytes"])


def tree_io(pid: int) -> tuple[int, int]:
    """(wchar, write_bytes) of a process and its children (the companion and its broker)."""
    total = io_of(pid)
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            sub = tree_io(int(child))
            total = (total[0] + sub[0], total[1] + sub[1])
    return total


def journal(games: int) -> None:
    from local_table import NAMES8, LocalPort

    from companion.bots.table_bot import TableBot

    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        path = Path(folder) / "journal.sqlite3"
        port = LocalPort(path)
        port.table.journal.keep_games = 100
        rnd = random.Random(1)
        actions = 0
        before = io_of()
        for n in range(games):
            bot = TableBot(port, rnd)
            bot.new_game(NAMES8[:6], powers="random", seed=n)
            bot.play()
            actions += len(port.table.journal.entries(port.table.game.id))
        wchar, written = (b - a for a, b in zip(before, io_of(), strict=True))
        db = port.table.journal._db
        pages = db.execute("PRAGMA page_count").fetchone()[0] - db.execute(
            "PRAGMA freelist_count").fetchone()[0]
        content = pages * db.execute("PRAGMA page_size").fetchone()[0]
        size = path.stat().st_size + Path(f"{path}-wal").stat().st_size
    print(f"{games} games of 6 players, {actions} actions ({actions / games:.0f} a game)")
    print(f"handed to write(): {wchar / games / 1024:.0f} KiB a game, "
          f"{wchar / actions:.0f} B an action")
    print(f"reached the disk:  {written / games / 1024:.0f} KiB a game, "
          f"{written / actions:.0f} B an action")
    print(f"the database: {content / games / 1024:.0f} KiB a game; the file and its WAL "
          f"after {games} games: {size / 1024:.0f} KiB")


def service(idle_s: float) -> None:
    """`companion run` on the simulated table with its own broker, no game: what it writes
    while it waits, the state every table is in most of its hours."""
    with tempfile.TemporaryDirectory(dir="/tmp") as folder, socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        broker_port = s.getsockname()[1]
        s.close()
        config = Path(folder) / "table.yaml"
        config.write_text(f"table: bench\nmqtt:\n  state_dir: {folder}/broker\n"
                          f"  embedded_port: {broker_port}\n"
                          "sensors:\n  sim:\n    guns: [1, 2, 3, 4, 5, 6]\n"
                          f"referee:\n  journal: {folder}/journal.sqlite3\n"
                          "dashboard:\n  host: 127.0.0.1\n  port: 0\n")
        proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config",
                                 str(config)], stderr=subprocess.PIPE, text=True, cwd=folder)
        assert proc.stderr is not None
        for line in proc.stderr:  # started once the dashboard is up
            if "dashboard on http" in line:
                break
        start, t0 = tree_io(proc.pid), time.monotonic()
        time.sleep(idle_s)  # the measurement window itself
        end, t1 = tree_io(proc.pid), time.monotonic()
        proc.terminate()
        proc.wait(20)
    hours = (t1 - t0) / 3600
    wchar, written = (b - a for a, b in zip(start, end, strict=True))
    print(f"idle {t1 - t0:.0f} s, companion and its broker: reached the disk "
          f"{written / hours / 2**20:.2f} MiB an hour (write() calls, MQTT on loopback "
          f"sockets included: {wchar / hours / 2**20:.2f} MiB an hour)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("journal").add_argument("--games", type=int, default=20)
    sub.add_parser("service").add_argument("--idle-s", type=float, default=300.0)
    args = parser.parse_args()
    os.chdir(ROOT)
    journal(args.games) if args.what == "journal" else service(args.idle_s)


if __name__ == "__main__":
    main()
