"""A connection flood as an intruder on the table's network sends it: connections that never
say a word, and stream requests never read, each from one of many loopback addresses (Linux
routes all of 127/8 to the loopback). And the Godfather's tablet, timed, meanwhile."""

from __future__ import annotations

import contextlib
import http.client
import json
import resource
import socket
import time
from typing import Any

STREAM = b"GET /api/events HTTP/1.1\r\nHost: table\r\nAccept: text/event-stream\r\n\r\n"


def enough_files(n: int) -> None:
    """This process may hold `n` sockets (up to its hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(n, hard), hard))


class Flood:
    def __init__(self, port: int, addresses: int = 250) -> None:
        self.port, self.addresses = port, addresses
        self.socks: list[socket.socket] = []
        self.sent = 0

    def _open(self, payload: bytes) -> None:
        sock = socket.socket()
        k = self.sent % self.addresses
        sock.bind((f"127.0.{1 + k // 250}.{2 + k % 250}", 0))
        self.sent += 1
        sock.settimeout(5)
        try:
            sock.connect(("127.0.0.1", self.port))
            if payload:
                sock.sendall(payload)
        except OSError:  # refused or reset at once: what a full server may do
            sock.close()
            return
        self.socks.append(sock)

    def idle(self, n: int) -> None:
        for _ in range(n):
            self._open(b"")

    def streams(self, n: int) -> None:
        for _ in range(n):
            self._open(STREAM)

    def close(self) -> None:
        for sock in self.socks:
            sock.close()
        self.socks.clear()


class Godfather:
    """The tablet: logged in with the PIN, its session cookie and CSRF token on each call."""

    def __init__(self, port: int, pin: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.headers: dict[str, str] = {"Content-Type": "application/json"}
        status, body = self.call("POST", "/api/login", {"pin": pin})
        assert status == 200, body
        self.headers["X-CSRF-Token"] = body["csrf"]

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        for attempt in (1, 2):  # a kept-alive connection the server closed is opened again
            try:
                self.conn.request(method, path, data, self.headers)
                response = self.conn.getresponse()
                break
            except (ConnectionError, http.client.RemoteDisconnected):
                self.conn.close()
                if attempt == 2:
                    raise
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.headers["Cookie"] = cookie.split(";")[0]
        return response.status, json.loads(response.read())

    def timed(self, method: str, path: str, body: Any = None) -> tuple[int, float]:
        began = time.perf_counter()
        status, _ = self.call(method, path, body)
        return status, time.perf_counter() - began

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.close()
