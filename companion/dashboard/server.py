"""Serving the dashboard: one thread owns every connection, a few run the Flask app.

The connection thread (selectors) accepts, reads each request whole, within a deadline,
before any worker sees it, and writes each answer as the client takes it; connections are
admitted by `gate.Gate` (per address, in total, a share kept for the Godfather and the
seated phones). A worker runs the app through the standard library's WSGI handler
(http11.py); an event stream's connection is then handed to the stream loop
(dashboard/streams.py), so open pages hold no thread. Why a server of our own rather
than waitress: docs/DASHBOARD.md, "Serving connections".
"""

from __future__ import annotations

import contextlib
import logging
import resource
import selectors
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any

from flask import Flask

from companion.dashboard.gate import Conn, Gate, Limits
from companion.dashboard.http11 import MAX_HEAD, Answer, BadRequest, Request, parse_head
from companion.dashboard.settings import DashboardSettings
from companion.dashboard.streams import StreamServer

log = logging.getLogger(__name__)
SWEEP_S = 0.25  # how often deadlines are checked
SPARE_FILES = 64  # descriptors kept beyond the connections: journal, serial, broker, pages
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


class Client:
    """A connection the server's thread holds: what came in, what goes out, until when."""

    __slots__ = (
        "busy",
        "conn",
        "deadline",
        "events",
        "inbox",
        "keep",
        "outbox",
        "peer",
        "request",
        "sock",
    )

    def __init__(self, sock: socket.socket, conn: Conn, peer: tuple[str, int],
                 deadline: float) -> None:
        self.sock, self.conn, self.peer, self.deadline = sock, conn, peer, deadline
        self.inbox = b""
        self.outbox = memoryview(b"")
        self.request: Request | None = None  # a head read, its body still coming
        self.keep = False
        self.events = 0
        self.busy = False  # a worker has its request


class DashboardServer:
    def __init__(self, app: Flask, settings: DashboardSettings) -> None:
        self.app, self.settings = app, settings
        self.streams: StreamServer = app.extensions["streams"]
        self.gate = Gate(Limits(settings.max_connections, settings.reserved_connections,
                                settings.max_per_address))
        family, _, _, _, address = socket.getaddrinfo(
            settings.host, settings.port, 0, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)[0]
        self._listener = socket.create_server(address[:2], family=family, backlog=1024)
        self._listener.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._clients: dict[Conn, Client] = {}
        self._posted: deque[Callable[[], None]] = deque()  # for the connection thread
        self._jobs: tuple[deque[Any], deque[Any]] = (deque(), deque())  # proven first
        self._work = threading.Condition()
        self._unproven_threads = max(1, settings.threads // 2)
        self._unproven_busy = 0
        self._threads: list[threading.Thread] = []
        self._accepting_at = 0.0  # when accepting resumes after running out of descriptors
        self._stopping = self._stopped = False  # the workers', the caller's
        self._closed = False  # the connection thread's: every connection closed

    @property
    def port(self) -> int:
        return int(self._listener.getsockname()[1])

    @property
    def host(self) -> str:
        return str(self._listener.getsockname()[0])

    def start(self) -> DashboardServer:
        _enough_files(self.settings.max_connections + self.settings.max_streams + SPARE_FILES)
        self.streams.start()
        self._selector.register(self._listener, selectors.EVENT_READ, "accept")
        self._selector.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._threads = [threading.Thread(target=self._loop, name="dashboard", daemon=True)]
        self._threads += [threading.Thread(target=self._worker, name=f"dashboard-{i}",
                                           daemon=True) for i in range(self.settings.threads)]
        for thread in self._threads:
            thread.start()
        return self

    def drop_connections(self) -> None:
        """Close every open connection, as a network drop would (pages reconnect)."""
        self.streams.drop()
        self._post(self._close_all)

    def stop(self) -> None:
        """End the live streams, then every connection, the listening socket and the
        threads. Stopping twice is once."""
        if self._stopped:
            return
        self._stopped = True
        self.streams.stop()
        self._post(self._stop_loop)
        with self._work:
            self._stopping = True
            self._work.notify_all()
        for thread in self._threads:
            thread.join(5)
        for end in (self._listener, self._wake_r, self._wake_w, self._selector):
            end.close()

    # -- the workers -----------------------------------------------------------------

    def _worker(self) -> None:
        """Proven requests first; unproven ones on half the threads at most, so a flood of
        them leaves the Godfather's a thread and a fair share of the interpreter."""
        while True:
            with self._work:
                self._work.wait_for(lambda: self._stopping or bool(self._jobs[0]) or bool(
                    self._jobs[1] and self._unproven_busy < self._unproven_threads))
                if self._stopping:
                    return
                unproven = not self._jobs[0]
                client, request, body = self._jobs[unproven].popleft()
                self._unproven_busy += unproven
            answer = Answer(request, body)
            answer.run(self.app)
            self._post(partial(self._answered, client, answer))
            if unproven:
                with self._work:
                    self._unproven_busy -= 1
                    self._work.notify()

    # -- the connection thread -------------------------------------------------------

    def _post(self, action: Callable[[], None]) -> None:
        self._posted.append(action)
        with contextlib.suppress(OSError):  # a wake-up is pending already, or stopped
            self._wake_w.send(b"!")

    def _loop(self) -> None:
        swept = time.monotonic()
        while not self._closed:
            for key, mask in self._selector.select(SWEEP_S):
                if key.data == "accept":
                    self._accept()
                elif key.data == "wake":
                    self._run_posted()
                elif key.data.conn.open:
                    if mask & selectors.EVENT_READ:
                        self._read(key.data)
                    if mask & selectors.EVENT_WRITE and key.data.conn.open:
                        self._write(key.data)
            if time.monotonic() - swept >= SWEEP_S:
                swept = time.monotonic()
                self._sweep(swept)

    def _run_posted(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while self._wake_r.recv(4096):
                pass
        while self._posted:
            try:
                self._posted.popleft()()
            except Exception:
                log.exception("the dashboard's connection thread")

    def _close_all(self) -> None:
        for client in list(self._clients.values()):
            self._close(client)

    def _stop_loop(self) -> None:
        self._closed = True
        self._close_all()
        with contextlib.suppress(KeyError):  # not watched while out of descriptors
            self._selector.unregister(self._listener)

    def _accept(self) -> None:
        for _ in range(64):  # then the others' turn
            try:
                sock, peer = self._listener.accept()
            except BlockingIOError:
                return
            except OSError:  # out of descriptors: wait for some to close
                self.gate.tally.note("connections left waiting (no descriptors free)")
                self._selector.unregister(self._listener)
                self._accepting_at = time.monotonic() + SWEEP_S
                return
            conn, shed = self.gate.admit(peer[0])
            for old in shed:
                self._close(self._clients[old])
            if conn is None:
                sock.close()
                continue
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            client = self._clients[conn] = Client(
                sock, conn, peer, time.monotonic() + self.settings.request_timeout_s)
            self._watch(client, selectors.EVENT_READ)

    def _read(self, client: Client) -> None:
        try:
            data = client.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close(client)
            return
        if client.conn.idle:  # a request begins: it has a deadline, and keeps its place
            client.conn.idle = False
            client.deadline = time.monotonic() + self.settings.request_timeout_s
        client.inbox += data
        self._take_request(client)

    def _take_request(self, client: Client) -> None:
        if client.request is None:
            inbox = client.inbox.lstrip(b"\r\n")  # blank lines between requests are allowed
            end = inbox.find(b"\r\n\r\n", 0, MAX_HEAD + 4)
            if end < 0:
                client.inbox = inbox
                if len(inbox) > MAX_HEAD:
                    self._refuse(client, BadRequest("431 Request Header Fields Too Large",
                                                    f"a head of {MAX_HEAD} bytes at most"))
                return
            try:
                client.request = parse_head(inbox[:end], self._listener.getsockname()[:2],
                                            client.peer[:2])
            except BadRequest as bad:
                self._refuse(client, bad)
                return
            client.inbox = inbox[end + 4:]
            if client.request.expects_continue and client.request.body_length:
                with contextlib.suppress(OSError):
                    client.sock.send(CONTINUE)
        request, n = client.request, client.request.body_length
        if len(client.inbox) < n:
            return
        body, client.inbox, client.request = client.inbox[:n], client.inbox[n:], None
        client.busy = True
        self._watch(client, 0)
        with self._work:
            self._jobs[not client.conn.proven].append((client, request, body))
            self._work.notify()

    def _answered(self, client: Client, answer: Answer) -> None:
        if answer.vouched:
            self.gate.prove(client.conn)
        if not client.conn.open:  # dropped or stopped meanwhile
            if answer.receiver is not None:
                answer.receiver.cancel()
            return
        client.busy = False
        if answer.receiver is not None:  # the stream loop owns the socket from now on
            del self._clients[client.conn]
            conn = client.conn
            answer.receiver.adopt(client.sock, answer.answered(),
                                  lambda: self.gate.release(conn))
            return
        client.outbox, client.keep = memoryview(answer.answered()), answer.keep_alive
        self._write(client)

    def _refuse(self, client: Client, bad: BadRequest) -> None:
        client.outbox, client.keep, client.inbox = memoryview(bad.answer()), False, b""
        self._write(client)

    def _write(self, client: Client) -> None:
        try:
            sent = client.sock.send(client.outbox)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._close(client)
            return
        client.outbox = client.outbox[sent:]
        now = time.monotonic()
        if client.outbox:  # the rest when the client makes room, while it keeps taking
            client.deadline = now + self.settings.request_timeout_s if sent else client.deadline
            self._watch(client, selectors.EVENT_WRITE)
            return
        if not client.keep:
            self._close(client)
            return
        client.deadline = now + self.settings.idle_timeout_s
        client.conn.idle = not client.inbox
        self._watch(client, selectors.EVENT_READ)
        if client.inbox:  # a request sent before this answer was read
            client.deadline = now + self.settings.request_timeout_s
            self._take_request(client)

    def _sweep(self, now: float) -> None:
        if self._accepting_at and now >= self._accepting_at and not self._closed:
            self._accepting_at = 0.0
            self._selector.register(self._listener, selectors.EVENT_READ, "accept")
        for client in list(self._clients.values()):
            if not client.busy and now >= client.deadline:
                self._close(client)

    def _watch(self, client: Client, events: int) -> None:
        if client.events == events:
            return
        if not events:
            self._selector.unregister(client.sock)
        elif client.events:
            self._selector.modify(client.sock, events, client)
        else:
            self._selector.register(client.sock, events, client)
        client.events = events

    def _close(self, client: Client) -> None:
        if self._clients.pop(client.conn, None) is None:
            return
        self._watch(client, 0)
        self.gate.release(client.conn)  # counted out before the client can see the close
        client.sock.close()


def _enough_files(needed: int) -> None:
    """Raise this process's limit on open descriptors (to its hard limit at most), so the
    connection limits are what refuses, not a failing accept()."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        except (OSError, ValueError):  # the service's system call filter: LimitNOFILE sets it
            raised = soft
        if raised < needed:
            log.warning("only %d open files allowed (dashboard.max_connections %s needs %d)",
                        raised, "and max_streams", needed)
