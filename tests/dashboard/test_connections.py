"""The dashboard's server on real sockets: what it admits, how long it waits, what it
refuses and how it says so (docs/DASHBOARD.md, "Serving connections")."""

from __future__ import annotations

import json
import socket

import pytest
from served import PIN

from companion.config import ConfigError, parse


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    return sock


def ask(sock: socket.socket, request: bytes) -> bytes:
    """Send a request, read its whole answer (a Content-Length, or to the close)."""
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536) or b"!"
        assert not data.endswith(b"!"), f"closed before an answer: {data!r}"
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), None)
    while length is not None and len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def closed(sock: socket.socket) -> bool:
    """The server closed it: the end of the stream once what it sent is read."""
    try:
        while sock.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True


GET = b"GET /api/state HTTP/1.1\r\nHost: table\r\n\r\n"


def test_kept_alive_and_pipelined_requests_are_answered_in_order(serve):
    _table, server = serve()
    sock = connect(server.port)
    assert ask(sock, GET).startswith(b"HTTP/1.1 200 OK\r\n")
    sock.sendall(GET + b"GET /nowhere HTTP/1.1\r\nHost: table\r\n\r\n")
    first = ask(sock, b"")
    assert first.startswith(b"HTTP/1.1 200 OK\r\n")
    assert ask(sock, b"").startswith(b"HTTP/1.1 404")
    sock.close()


@pytest.mark.parametrize(("request_bytes", "status", "sentence"), [
    (b"HELLO\r\n\r\n", b"400", b"not an HTTP/1.0 or 1.1 request line"),
    (b"GET / HTTP/1.1\r\nHost: a\r\nbad header\r\n\r\n", b"400", b"a malformed header line"),
    (b"POST /api/login HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", b"411",
     b"send the body with a Content-Length"),
    (b"POST /api/login HTTP/1.1\r\nHost: a\r\nContent-Length: 999999999\r\n\r\n", b"413",
     b"bodies of 262144 bytes at most"),
    (b"GET /" + b"a" * 17000 + b" HTTP/1.1\r\n\r\n", b"431", b"a head of 16384 bytes at most"),
])
def test_a_malformed_request_gets_its_status_a_sentence_and_the_close(
        serve, request_bytes, status, sentence):
    _table, server = serve()
    sock = connect(server.port)
    answer = ask(sock, request_bytes)
    assert answer.startswith(b"HTTP/1.1 " + status) and sentence in answer
    assert b"Connection: close" in answer and closed(sock)


def test_a_connection_that_says_nothing_is_closed_after_the_request_deadline(serve):
    _table, server = serve(request_timeout_s=1.0, idle_timeout_s=1.0)
    silent = connect(server.port)
    half = connect(server.port)
    half.sendall(b"GET /api/state HTTP/1.1\r\nHost: ta")  # a head that never ends
    kept = connect(server.port)
    assert ask(kept, GET).startswith(b"HTTP/1.1 200")
    assert closed(silent) and closed(half) and closed(kept)  # within the socket's 10 s
    assert server.gate.count == 0


def test_past_an_addresss_limit_its_oldest_idle_connection_makes_room(serve):
    _table, server = serve(max_per_address=4)
    idle = [connect(server.port, "127.0.0.7") for _ in range(4)]
    busy = connect(server.port, "127.0.0.8")  # another address is not counted against it
    newest = connect(server.port, "127.0.0.7")
    assert ask(newest, GET).startswith(b"HTTP/1.1 200")
    assert closed(idle[0])
    assert ask(idle[1], GET).startswith(b"HTTP/1.1 200")
    assert ask(busy, GET).startswith(b"HTTP/1.1 200")


def test_the_godfathers_connection_keeps_its_place_when_strangers_crowd_in(serve):
    _table, server = serve(max_connections=16, reserved_connections=4, max_per_address=16)
    tablet = connect(server.port)
    login = json.dumps({"pin": PIN}).encode()
    answer = ask(tablet, b"POST /api/login HTTP/1.1\r\nHost: t\r\nContent-Type: "
                         b"application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(login), login))
    assert answer.startswith(b"HTTP/1.1 200")
    cookie = next(line.split(b":", 1)[1].split(b";")[0].strip()
                  for line in answer.split(b"\r\n") if line.startswith(b"Set-Cookie:"))
    strangers = [connect(server.port, f"127.0.1.{i}") for i in range(1, 41)]
    assert sum(not closed_soon(s) for s in strangers) == 12  # 16 less the 4 kept
    control = b"GET /api/control HTTP/1.1\r\nHost: t\r\nCookie: %s\r\n\r\n" % cookie
    assert ask(tablet, control).startswith(b"HTTP/1.1 200")


def closed_soon(sock: socket.socket) -> bool:
    """Whether the server has closed it (a short look: an open one says nothing)."""
    sock.settimeout(0.5)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_refused_stream_is_closed_at_once(serve):
    _table, server = serve(max_streams=1)
    first = connect(server.port)
    first.sendall(b"GET /api/events HTTP/1.1\r\nHost: t\r\n\r\n")
    assert first.recv(12) == b"HTTP/1.1 200"
    second = connect(server.port)
    assert ask(second, b"GET /api/events HTTP/1.1\r\nHost: t\r\n\r\n").startswith(
        b"HTTP/1.1 503")
    assert closed(second)


def test_the_connection_limits_are_dashboard_settings_checked_like_the_others():
    settings = parse("dashboard: {}")["dashboard"]
    assert (settings.max_connections, settings.reserved_connections,
            settings.max_per_address) == (512, 64, 32)
    with pytest.raises(ConfigError, match="reserved_connections"):
        parse("dashboard: {max_connections: 64, reserved_connections: 64}")
    with pytest.raises(ConfigError, match="request_timeout_s"):
        parse("dashboard: {request_timeout_s: 0}")
