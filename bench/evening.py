"""How long the table view's night panel takes to answer: `GET /api/evening` over a journal
of finished games, the first time (every game replayed) and again (each game's summary kept).

    .venv/bin/python bench/evening.py [--games 100] [--players 6] [--runs 5]

The games are whole random games (companion.bots.random_bot, powers dealt) written to a
real journal file as the referee writes them; `--games 100` is the journal's default
retention (`referee.keep_games`), so the most a night can hold. The figures are the best
and the median of `--runs` fresh readers (the first answer) and of `--runs` answers from
one reader (the later ones).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.bots.random_bot import play, random_setup
from companion.dashboard.evening import Evening
from companion.referee.effects import Record
from companion.referee.journal import Journal


def journal_of(path: Path, games: int, players: int) -> Journal:
    journal = Journal(path)
    for seed in range(games):
        rnd = random.Random(seed)
        setup = random_setup(rnd, players, seed, powers=True)
        played = play(setup, rnd)
        game = journal.new_game({"players": list(setup.players), "powers": setup.powers,
                                 "seats": {n: i + 1 for i, n in enumerate(setup.players)},
                                 "seed": seed, "cards": "digital", "loot": "digital"}, 0.0)
        journal.commit([], [Record(game, n, a, "tablet", float(n))
                            for n, a in enumerate(played.actions, start=1)])
        journal.finish(game)
    return journal


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        journal = journal_of(Path(tmp) / "journal.sqlite3", args.games, args.players)
        first = [timed(Evening(journal).state) for _ in range(args.runs)]
        reader = Evening(journal)
        reader.state()
        again = [timed(reader.state) for _ in range(args.runs)]
        journal.close()
    for name, ms in (("first answer", first), ("later answers", again)):
        print(f"{name}: best {min(ms):.0f} ms, median {statistics.median(ms):.0f} ms "
              f"({args.games} games of {args.players} players)")


if __name__ == "__main__":
    main()
