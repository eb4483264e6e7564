"""Connections cannot lock the table out: 1,000 connections that never speak and 500 stream
requests never read, from 500 loopback addresses, against `companion run`; meanwhile the
Godfather's tablet commands, a seated phone and the tablet on a new connection join, and
the companion's log stays short. (The commands' p99: bench/connection_flood.py.)"""

from __future__ import annotations

import http.client
import json
import random
import socket

from flood import Flood, Godfather, enough_files
from remote_table import PIN
from waiting import wait_for

from companion.bots.table_bot import TableBot

NAMES = ["Ana", "Bob", "Cyd", "Dee"]


def log_lines(table) -> int:
    return len((table.config.parent / f"run-{table.restarts}.log").read_text().splitlines())


def test_a_flood_of_idle_connections_and_streams_locks_nobody_out(remote):
    enough_files(4096)
    table = remote(4)
    TableBot(table, random.Random(1)).new_game(NAMES)
    table.phones.claim_all(table.state())
    godfather = Godfather(table.web_port, PIN)
    before = log_lines(table)
    flood = Flood(table.web_port)
    try:
        flood.idle(1000)
        answered = [godfather.timed("GET", "/api/control")[0] for _ in range(20)]
        flood.streams(500)
        for kind in ("pause", "resume"):
            version = godfather.call("GET", "/api/control")[1]["version"]
            answered.append(godfather.timed("POST", "/api/command",
                                            {"type": kind, "version": version})[0])
        answered += [godfather.timed("GET", "/api/control")[0] for _ in range(20)]
        assert answered == [200] * 42

        phone = http.client.HTTPConnection("127.0.0.1", table.web_port, timeout=10)
        phone.request("GET", "/api/events?seat=1", headers={
            "X-Seat-Claim": table.phones.claims[1], "Accept": "text/event-stream"})
        stream = phone.getresponse()
        assert stream.status == 200
        while not (line := stream.readline()).startswith(b"data: "):
            assert line, "the phone's stream ended"
        assert json.loads(line[6:])["me"]["seat"] == 1
        phone.close()

        tablet = Godfather(table.web_port, PIN)  # a new connection, logged in again
        assert tablet.call("GET", "/api/control")[0] == 200
        tablet.close()
    finally:
        flood.close()
        godfather.close()
    wait_for(lambda: _answers(table.web_port), 10, "the server to answer anyone again")
    assert log_lines(table) - before <= 10  # a flood is told in one line a minute


def _answers(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: table\r\nConnection: close\r\n\r\n")
        return sock.recv(12) == b"HTTP/1.1 200"
