"""Stop means stop: storms of SIGINT and SIGTERM, at random moments from the start on, end
`companion run` and `companion demo` within 10 s with the journal closed cleanly (SQLite
removes its write-ahead log when the last connection closes)."""

from __future__ import annotations

import random
import signal

import pytest
from storms import STOP_WITHIN_S, assert_closed_cleanly, storm
from test_cli_commands import demo_config


@pytest.mark.timeout(600)
@pytest.mark.parametrize("command", ["run", "demo"])
def test_storms_of_stop_signals_end_the_command_with_the_journal_closed(
        tmp_path, unused_port, command):
    rnd = random.Random(f"storm-{command}")
    config = demo_config(tmp_path, unused_port)
    for trial in range(6):
        journal = tmp_path / f"journal{trial}.sqlite3"
        extra = ["--pace", "0", "--players", "4"] if command == "demo" else []
        took, code = storm([command, "--config", str(config), "--port", "0", "--journal",
                            str(journal), *extra], rnd, tmp_path / f"{trial}.log")
        told = (tmp_path / f"{trial}.log").read_text()[-3000:]
        assert took < STOP_WITHIN_S, f"trial {trial}: still running\n{told}"
        assert code in (0, -signal.SIGTERM, -signal.SIGINT, 1), told  # 1: Ctrl-C at import
        assert_closed_cleanly(journal)
