"""Stop means stop for `companion league` too: storms of SIGINT and SIGTERM at random moments
end it within 10 s with its database closed cleanly."""

from __future__ import annotations

import random
import signal

import pytest
from storms import STOP_WITHIN_S, assert_closed_cleanly, storm
from venue import free_port


@pytest.mark.timeout(300)
def test_storms_of_stop_signals_end_the_league_with_its_database_closed(tmp_path, venue):
    rnd = random.Random("storm-league")
    for trial in range(4):
        database = tmp_path / f"league{trial}.sqlite3"
        config = tmp_path / f"league{trial}.yaml"
        config.write_text(
            f"mqtt: {{url: 'mqtt://127.0.0.1:{venue.port}', "
            f"credentials: {venue.folder / 'credentials.json'}}}\n"
            f"league: {{tables: [cafe-1, cafe-2, cafe-3], database: 'sqlite:///{database}', "
            "pin: '1357'}\n"
            f"dashboard: {{host: 127.0.0.1, port: {free_port()}}}\n")
        log = tmp_path / f"league{trial}.log"
        took, code = storm(["league", "--config", str(config)], rnd, log)
        told = log.read_text()[-3000:]
        assert took < STOP_WITHIN_S, f"trial {trial}: still running\n{told}"
        assert code in (0, -signal.SIGTERM, -signal.SIGINT, 1), told
        assert "1357" not in told  # the organiser's PIN is configured: never in a log
        assert_closed_cleanly(database)
