"""Fixtures of the referee's tests that run `companion run` as a table uses it."""

from __future__ import annotations

import pytest
from remote_table import FAST, RemoteTable, write_config


@pytest.fixture
def remote(tmp_path, mosquitto, unused_port, request):
    tables: list[RemoteTable] = []

    def make(seats: int, timing=FAST, extra: str = "") -> RemoteTable:
        table = f"run{len(tables)}{request.node.name[-8:].replace('[', '').replace(']', '')}"
        table = "".join(c for c in table.lower() if c.isalnum())[:30]
        config = write_config(tmp_path / "table.yaml", table, mosquitto.port, unused_port, seats,
                              timing, extra)
        tables.append(RemoteTable(config, table, mosquitto.port, unused_port))
        tables[-1].start()
        return tables[-1]

    yield make
    for t in tables:
        t.close()
