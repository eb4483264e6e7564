"""A game's result carries the game as the journal holds it, even when the reporter is
called while the referee is still writing the game's last action: the referee has decided
it (the table now says the game is over) but it is not on disk yet."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path

from waiting import wait_for

from companion.bots.table_bot import TableBot
from companion.bus.client import BusClient
from companion.league.reporter import Reporter
from companion.league.settings import LeagueSettings
from companion.referee.effects import Finish
from companion.referee.export import export_scenario
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table
from tests.referee.local_table import NAMES8, LocalPort


class HeldJournal(Journal):
    """The journal on SQLite whose write of a game's end waits to be let go: a slow disk
    at the moment the last action of a game is being written."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.holding, self.go = threading.Event(), threading.Event()

    def commit(self, inputs, writes, shown=()) -> None:  # type: ignore[no-untyped-def]
        if any(isinstance(w, Finish) for w in writes):
            self.holding.set()
            self.go.wait(30)
        super().commit(inputs, writes, shown)


def test_a_result_read_while_the_last_action_is_written_holds_that_action(
        tmp_path, mosquitto):
    journal = HeldJournal(tmp_path / "journal.sqlite3")
    port = LocalPort()
    port.table.close()
    port.table = Table("held", RefereeSettings(pin="2468"), journal, port.clock)
    bus = BusClient(mosquitto.settings, "held-referee").start()
    reporter = Reporter(port.table, bus, LeagueSettings(shared=True)).start()
    bot = TableBot(port, random.Random(4))
    bot.new_game(NAMES8[:4], powers="none", seed=4)
    player = threading.Thread(target=bot.play, daemon=True)
    player.start()
    try:
        assert journal.holding.wait(60), "the game never ended"
        assert port.table.game is not None and port.table.game.state.over  # decided...
        reporter._on_change(0)  # ...as the outbox calls it for the change before this one
    finally:
        journal.go.set()
        player.join(60)
    game = port.table.game.id
    entry = wait_for(lambda: reporter.outbox.pending(), 10, "the result in the outbox")
    sent = json.loads(entry[0][1])
    assert sent["scenario"] == export_scenario(journal, game)  # the last action in it
    reporter.stop()
    bus.stop()
    port.table.close()
