"""A table with an 8-player game behind the dashboard's real server, on 127.0.0.1: the
`serve(**settings)` fixture (registered in conftest.py) starts as many as a test asks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.clock import SYSTEM_CLOCK
from companion.dashboard.app import create_app
from companion.dashboard.server import DashboardServer
from companion.dashboard.settings import DashboardSettings
from companion.referee.commands import Auth
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table

PIN = "1357"
NAMES = ["Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"]


def new_table(path) -> Table:
    table = Table("streams", RefereeSettings(pin=PIN), Journal(path), SYSTEM_CLOCK)
    table.command({"type": "new_game", "version": table.version, "players": NAMES,
                   "powers": "random"}, Auth(control=True))
    return table


@pytest.fixture
def serve(tmp_path) -> Iterator:
    """`serve(**settings)`: a table with an 8-player game behind a running dashboard."""
    running = []

    def start(**settings) -> tuple[Table, DashboardServer]:
        table = new_table(tmp_path / f"journal{len(running)}.sqlite3")
        config = DashboardSettings(host="127.0.0.1", port=0, **settings)
        server = DashboardServer(create_app(table, config), config).start()
        running.append((table, server))
        return table, server

    yield start
    for table, server in running:
        server.stop()
        table.journal.close()
