"""A configured PIN never reaches a log; a generated one is written where its owner reads it
(docs/SECURITY.md: the service's log)."""

from __future__ import annotations

import logging

from remote_table import PIN

from companion.pins import pin_for_the_log


def test_companion_run_does_not_log_the_configured_pin(remote):
    table = remote(4)
    table.stop()
    log = (table.config.parent / "run-0.log").read_text()
    assert "dashboard on http://" in log and "PIN from the config" in log
    assert PIN not in log


def test_a_generated_pin_is_shown_whole(caplog):
    with caplog.at_level(logging.INFO):
        logging.getLogger("t").info("%s", pin_for_the_log("493012", configured=False))
    assert "PIN 493012 (generated)" in caplog.text
