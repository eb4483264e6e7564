"""The journal's growth per game: bot games on one table in one start, with a hub's looks.

    .venv/bin/python bench/journal_growth.py [--games 5] [--seed 1] [--keep 0]

A table on a fake clock with its journal in a file (tests/referee/local_table.py), bot
games one after the other in one start (TableBot), and the hub's rounds of looks every
25 ms of the table's time, as a hub sends them (`seen`, the masks of the guns' aims; 4 to 8
seats). Prints, after each game, the bytes SQLite holds for the inputs (the `input` table
and its index, from `dbstat`) and the file's size; then the mean per game, and what a
restart then costs to find where the game stood, its round's countdowns ("Show me")
included (`referee.table.resumed`, CPU time). `--keep` sets `referee.keep_games`. Results
are in docs/PERFORMANCE.md, "The journal's growth".
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "referee")]

from local_table import NAMES8, LocalPort  # noqa: E402

from companion.bots.table_bot import TableBot  # noqa: E402
from companion.referee.journal import Journal  # noqa: E402
from companion.referee.table import resumed  # noqa: E402
from companion.sensors.facts import Fact  # noqa: E402

ROUND_MS = 25.0  # a hub's rounds of looks


class HubPort(LocalPort):
    """The bots' table, with a hub sending its looks as the table's time runs."""

    def __init__(self, path: Path, keep: int) -> None:
        super().__init__(path, keep_games=keep)
        self.aims: dict[int, int | None] = {}
        self.next_round = self.clock.now_ms()

    def aim(self, seat: int, target: int | None) -> None:
        self.aims[seat] = target
        super().aim(seat, target)

    def settle(self, _state: dict[str, Any] | None = None, ms: float = 50.0) -> None:
        end = self.clock.now_ms() + ms
        while self.next_round <= end:
            self.clock.advance(max(0.0, self.next_round - self.clock.now_ms()))
            seats = sorted(self.table.game.player_at) if self.table.game else [1, 2, 3, 4]
            masks = tuple(1 << (self.aims[s] - 1) if self.aims.get(s) else 0 for s in seats)
            self.table.on_fact(Fact("seen", 0, masks, self.clock.now_ms(), "hub"))
            self.next_round += ROUND_MS
        self.clock.advance(max(0.0, end - self.clock.now_ms()))
        self.table.tick()


def input_bytes(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT COALESCE(SUM(pgsize), 0) FROM dbstat "
                              "WHERE name IN ('input', 'input_game')").fetchone()[0])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=int, default=0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.sqlite3"
        port = HubPort(path, args.keep)
        rnd = random.Random(args.seed)
        before = input_bytes(path)
        for game in range(1, args.games + 1):
            players = rnd.randint(4, 8)
            bot = TableBot(port, random.Random(rnd.random()))
            bot.new_game(NAMES8[:players], powers="random", seed=rnd.randrange(2**31))
            bot.play()
            port.table.outbox.flush()
            now = input_bytes(path)
            print(f"game {game} ({players} players): inputs {now / 1024:,.0f} KiB "
                  f"(+{(now - before) / 1024:,.0f}), file {path.stat().st_size / 1024:,.0f} KiB",
                  flush=True)
        game = port.table.game.id
        port.table.close()
        port.table.journal.close()
        total = input_bytes(path)
        print(f"mean per game: {total / args.games / 1024:,.1f} KiB of inputs")
        with sqlite3.connect(path) as db:
            rows = int(db.execute("SELECT COUNT(*) FROM input").fetchone()[0])
        journal = Journal(path)
        start = time.process_time()
        left = resumed(journal)
        spent = time.process_time() - start
        journal.close()
        assert left is not None and left.id == game
        print(f"a restart finds game {game} where it stood, its round's {len(left.replays)} "
              f"countdowns as read, in {spent * 1000:.1f} ms of CPU ({rows:,} inputs journaled)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
