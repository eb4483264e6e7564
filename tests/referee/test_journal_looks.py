"""The hub's looks journaled as changes only (inputs.py): a round that repeats the
last is a row of one number, and the replay gives back every fact exactly, so every
decision and view replays the same."""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))

from journal_growth import HubPort
from local_table import NAMES8, LocalPort

from companion.bots.table_bot import TableBot
from companion.referee.commands import Auth
from companion.referee.inputs import LOOKS, Heard, LooksRows
from companion.referee.journal import Journal
from companion.referee.journal_replay import replay_game, run
from companion.sensors.facts import Fact


def looks(at_ms: float, masks: tuple[int, ...], t_ms: float, device: str = "hub") -> Heard:
    return Heard(at_ms, Fact("seen", 0, masks, t_ms, device))


def test_a_repeated_round_is_one_number_and_reads_back_exactly() -> None:
    inputs = [looks(1000.0, (2, 4, 0, 1), 997.25), looks(1025.0, (2, 4, 0, 1), 1022.125),
              looks(1050.0, (2, 0, 0, 1), 1049.875), looks(1075.0, (2, 0, 0, 1), 1070.0, "hub2"),
              looks(1100.0, (2, 0, 0, 1), 1099.0, "hub2")]
    writer, reader = LooksRows(), LooksRows()
    rows = [writer.to_json(i) for i in inputs]
    assert [json.loads(data) for _, data in rows] == [
        [-2.75, [2, 4, 0, 1], "hub"], [-2.875], [-0.125, [2, 0, 0, 1]],
        [-5.0, [2, 0, 0, 1], "hub2"], [-1.0]]
    assert {kind for kind, _ in rows} == {LOOKS}
    read = [reader.from_json(kind, i.at_ms, data)
            for (kind, data), i in zip(rows, inputs, strict=True)]
    assert read == inputs


def test_short_looks_with_nothing_before_them_are_refused() -> None:
    try:
        LooksRows().from_json(LOOKS, 1000.0, "[-1.0]")
    except ValueError as e:
        assert "before any was journaled" in str(e)
    else:
        raise AssertionError("short looks read without the round they repeat")


def test_a_game_with_a_hubs_looks_replays_and_its_looks_are_short(tmp_path) -> None:
    path = tmp_path / "journal.sqlite3"
    port = HubPort(path, keep=0)
    bot = TableBot(port, random.Random(5))
    bot.new_game(NAMES8[:5], powers="random", seed=5)
    assert bot.play()["phase"] == "over"
    port.table.close()
    with sqlite3.connect(path) as db:
        sizes = dict(db.execute("SELECT kind, MAX(LENGTH(data)) FROM input GROUP BY kind"))
        short = db.execute("SELECT COUNT(*) FROM input WHERE kind = ? AND data NOT LIKE '%,%'",
                           (LOOKS,)).fetchone()[0]
    assert "Heard" in sizes and short > 100  # aims and postures in full; most looks a number
    journal = Journal(path)
    _, done = replay_game(journal, 1)
    journal.close()
    assert done.difference is None, str(done.difference)
    assert done.inputs > short


def test_a_damaged_looks_row_is_reported_not_replayed(tmp_path) -> None:
    path = tmp_path / "journal.sqlite3"
    port = LocalPort(path)
    port.table.command({"type": "new_game", "version": port.table.version,
                        "players": NAMES8[:4], "powers": "none"}, Auth(control=True))
    port.table.on_fact(Fact("seen", 0, (0, 0, 0, 0), port.clock.now_ms(), "hub"))
    port.table.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE input SET data = '[\"x\"]' WHERE kind = ?", (LOOKS,))
    out: list[str] = []
    assert run(str(path), 1, out) == 2
    assert "cannot be read" in out[0]



def test_the_countdowns_kept_are_the_rounds_as_shown_all_game_long(tmp_path) -> None:
    """What a restart shows as "Show me" is the journal's `countdowns` row: after every
    step of a whole game it is the round's countdowns the table shows, emptied when a
    round begins."""
    port = HubPort(tmp_path / "journal.sqlite3", keep=0)
    settle, kept = port.settle, []

    def compared(state: dict | None = None, ms: float = 50.0) -> None:
        settle(state, ms)
        port.table.outbox.flush()
        game = port.table.game
        if game is not None:
            shown = json.loads(json.dumps(port.table.public_state()["replays"], sort_keys=True))
            assert list(port.table.journal.countdowns(game.id)) == shown
            if not kept or kept[-1] != len(shown):
                kept.append(len(shown))

    port.settle = compared  # type: ignore[method-assign]
    bot = TableBot(port, random.Random(7))
    bot.new_game(NAMES8[:6], powers="random", seed=7)
    assert bot.play()["phase"] == "over"
    port.table.close()
    assert max(kept) >= 2 and any(b < a for a, b in pairwise(kept)), kept
