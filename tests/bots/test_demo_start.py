"""The demo's bots get their game however the table moves while they tap New game: a
Godfather pausing and resuming as fast as the table answers makes the version they read
stale again and again (each time a 409), and every start still succeeds."""

from __future__ import annotations

import random
import threading

from companion.bots.live_port import LivePort
from companion.bots.table_bot import TableBot
from companion.clock import SYSTEM_CLOCK
from companion.demo_cmd import start_game
from companion.referee.commands import Auth, CommandError
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table

NAMES = ["Ana", "Bob", "Cyd", "Dee"]


def test_every_start_gets_its_game_while_the_table_keeps_moving(tmp_path):
    table = Table("demo", RefereeSettings(pin="1357"), Journal(tmp_path / "j.sqlite3"),
                  SYSTEM_CLOCK)
    stop, moving = threading.Event(), threading.Event()
    table.command({"type": "new_game", "version": table.version, "players": NAMES,
                   "powers": "random"}, Auth(control=True))
    moved = []

    def godfather() -> None:
        while not moving.is_set():
            kind = "resume" if table.control_state()["paused"] else "pause"
            try:
                table.command({"type": kind, "version": table.version}, Auth(control=True))
                moved.append(kind)
            except CommandError:
                pass

    tapping = threading.Thread(target=godfather)
    tapping.start()
    bot = TableBot(LivePort(table, None, stop, pace_s=0.002), random.Random(5))
    try:
        games = []
        for seed in range(10):
            start_game(bot, NAMES, seed, stop)
            games.append(table.control_state()["game"])
    finally:
        moving.set()
        tapping.join()
        table.journal.close()
    assert len(set(games)) == 10  # ten games started, one after the other
    assert len(moved) > 10  # the table did move while they were tapped
