"""`GET /api/events`: every page's live stream (Server-Sent Events), written by one loop.

`?view=control` needs the Godfather's session; `?seat=N` is the view of the phone holding
seat N (its claim: the cookie, or `X-Seat-Claim`) while it holds it; else the spectators'.
Flask checks a stream request like any other (the view, the stream limit); then the server
hands the connection over (server.py), so open pages hold no thread commands need. A
stream's body runs to the connection's close (`Connection: close`), framed by nothing. One
thread writes every stream: each change builds each view once (a phone's is spliced from
the public view's bytes) and every stream gets only the newest full snapshot, its id the
game's version: a stalled page holds two frames at most; a reconnected one is whole.
"""

from __future__ import annotations

import contextlib
import logging
import selectors
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from flask import Blueprint, Response, abort, jsonify, request

from companion.dashboard.access import is_controller
from companion.dashboard.api import phone_claim
from companion.dashboard.gate import Tally
from companion.dashboard.http11 import HAND_OVER
from companion.dashboard.vouch import keeps_its_place
from companion.referee.table import Table

log = logging.getLogger(__name__)
View = str | tuple[str, int]  # "public", "control" or ("seat", n)

RETRY_MS = 1000  # how soon a browser reconnects a dropped stream
RETRY_AFTER_S = 5  # how long a page refused for the stream limit is asked to wait
SEND_BUFFER = 64 * 1024  # the kernel's send buffer per stream (Linux doubles it)
STOP_WAIT_S = 2.0  # how long stopping waits for pages to take their last bytes


RETRY, KEEP_ALIVE = b"retry: %d\n\n" % RETRY_MS, b": keep-alive\n\n"


class Snapshot(NamedTuple):
    version: int  # the game's version: the event id a page reconnects with
    revision: int  # bumped by sensor readings too: what tells two snapshots apart
    body: bytes
    message: bytes  # its SSE message, written once for every page


class Frame(Protocol):
    """What the streams show after one change: its version and revision, and each view's
    JSON (`public_body` gives the public view's bytes, for a view spliced from them)."""

    version: int
    revision: int

    def body(self, view: View, public_body: Callable[[], bytes]) -> bytes: ...


class ChangeViews:
    """The views after one change, each built at most once, and only when a stream shows
    it. Used by the loop thread alone."""

    def __init__(self, now: Callable[[], Frame]) -> None:
        self.now = now
        self.built: dict[View, Snapshot] = {}
        self._now: Frame | None = None

    def next_change(self) -> None:
        self.built.clear()
        self._now = None

    def get(self, view: View) -> Snapshot:
        hit = self.built.get(view)
        if hit is not None:
            return hit
        t = self._now = self._now or self.now()
        body = t.body(view, lambda: self.get("public").body)
        message = b"id: %d\nevent: state\ndata: " % t.version + body + b"\n\n"
        snap = self.built[view] = Snapshot(t.version, t.revision, body, message)
        return snap


class Stream:
    """One page's connection: the bytes being sent, and the newest frame not yet begun."""

    def __init__(self, sock: socket.socket, view: View, allowed: Callable[[], bool],
                 head: bytes, closed: Callable[[], None]) -> None:
        self.sock, self.view, self.allowed, self.closed = sock, view, allowed, closed
        self.sending: memoryview | None = memoryview(head + RETRY)
        self.newest: bytes | None = None  # replaced by each change: a slow page skips
        self.revision: int | None = None
        self.quiet_since = time.monotonic()
        self.events = 0  # what the selector watches it for
        self.ending = False

    def offer(self, message: bytes) -> None:
        self.newest = message

    def end(self) -> None:
        self.newest, self.ending = None, True

    @property
    def held(self) -> int:
        """Bytes this stream holds for its page (beyond the kernel's send buffer)."""
        return (len(self.sending) if self.sending is not None else 0) + len(self.newest or b"")


class Admission(NamedTuple):
    """A stream admitted under the limit, for the server to hand its connection to."""

    streams: StreamServer
    view: View
    allowed: Callable[[], bool]

    def adopt(self, sock: socket.socket, head: bytes, closed: Callable[[], None]) -> None:
        """Take the connection, its response's head written in `head`; `closed` is called
        once the stream has closed it."""
        self.streams.adopt(Stream(sock, self.view, self.allowed, head, closed))

    def cancel(self) -> None:
        self.streams.release()


class StreamServer:
    """Every open stream, written by one thread that sleeps until a change, a page ready
    for more bytes, or a keep-alive is due."""

    def __init__(self, now: Callable[[], Frame], subscribe: Callable[[Callable], Any],
                 limit: int, keepalive_s: float) -> None:
        self.limit, self.keepalive_s = limit, keepalive_s
        self._views = ChangeViews(now)
        self._lock = threading.Lock()
        self._count_changed = threading.Condition(self._lock)
        self._admitted = 0  # open streams and those being handed over: what the limit counts
        self._incoming: list[Stream] = []
        self._news: set[str] = set()  # for the loop: "changed", "drop", "stop"
        # in the order they opened, written to in that order; changed by the loop alone
        self._streams: dict[Stream, None] = {}
        self.reserve = limit // 8  # kept for the Godfather's and the seated phones' views
        self._refusals = Tally(f"live pages (limit: dashboard.max_streams {limit}, "
                               f"{self.reserve} kept for the Godfather and seated phones)")
        self._selector: selectors.BaseSelector | None = None
        self._wake_r: socket.socket | None = None
        self._wake_w: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self.detach: Callable[[], Any] = subscribe(self.changed) or (lambda: None)

    # -- any thread -----------------------------------------------------------------

    def start(self) -> StreamServer:
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._thread = threading.Thread(target=self._run, name="event-streams", daemon=True)
        self._thread.start()
        return self

    def admit(self, kept: bool = False) -> bool:
        """Count a new stream in, unless the limit is reached (then count the refusal);
        the last `reserve` places are for `kept` views only."""
        with self._lock:
            if self._admitted < self.limit - (0 if kept else self.reserve):
                self._admitted += 1
                return True
        self._refusals.note("streams refused")
        return False

    def release(self) -> None:
        with self._lock:
            self._admitted -= 1
            self._count_changed.notify_all()

    def adopt(self, stream: Stream) -> None:
        """Take an admitted stream's connection (from the server's thread)."""
        stream.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        with self._lock:
            self._incoming.append(stream)
        self._wake()

    def changed(self, _revision: int | None = None) -> None:
        """The table changed (on the thread that changed it): the loop sends the news."""
        self._tell("changed")

    def drop(self) -> None:
        """Close every stream, as a network drop would (pages reconnect)."""
        self._tell("drop")

    def stop(self) -> None:
        """End every stream (pages are told the stream is over) and the loop."""
        self.detach()
        self._tell("stop")
        if self._thread is not None:
            self._thread.join(STOP_WAIT_S + 3)
        for end in (self._wake_r, self._wake_w, self._selector):
            if end is not None:
                end.close()

    def wait_count(self, n: int, timeout_s: float) -> bool:
        """Wait until exactly `n` streams are counted against the limit; False on timeout."""
        with self._lock:
            return self._count_changed.wait_for(lambda: self._admitted == n, timeout_s)

    @property
    def count(self) -> int:
        with self._lock:
            return self._admitted

    @property
    def held(self) -> list[int]:
        """Bytes held for each page in the order they opened, beyond the kernel's buffers:
        at most two frames each."""
        with self._lock:
            return [s.held for s in self._streams]

    def _tell(self, news: str) -> None:
        with self._lock:
            self._news.add(news)
        self._wake()

    def _wake(self) -> None:
        if self._wake_w is not None:
            with contextlib.suppress(OSError):  # a wake-up is pending already, or stopped
                self._wake_w.send(b"!")

    # -- the loop thread ------------------------------------------------------------

    def _run(self) -> None:
        assert self._selector is not None
        stop_by: float | None = None  # once stopping: when the last pages are cut off
        while stop_by is None or (self._streams and time.monotonic() < stop_by):
            timeout = self._next_keepalive()
            if stop_by is not None:
                timeout = max(0.0, min(timeout or STOP_WAIT_S, stop_by - time.monotonic()))
            try:
                for key, mask in self._selector.select(timeout):
                    stream = key.data
                    if stream is None:
                        if self._woken() and stop_by is None:
                            stop_by = time.monotonic() + STOP_WAIT_S
                    elif stream in self._streams:
                        if mask & selectors.EVENT_READ and not self._read(stream):
                            self._close(stream)
                        elif mask & selectors.EVENT_WRITE:
                            self._flush(stream)
                self._keep_alive()
            except Exception:  # a view that failed to build: the next change tries again
                log.exception("the event streams' loop")
        for stream in list(self._streams):
            self._close(stream)

    def _woken(self) -> bool:
        """Take in new streams and news; True once stopping has begun."""
        assert self._wake_r is not None
        with contextlib.suppress(BlockingIOError):
            while self._wake_r.recv(4096):
                pass
        with self._lock:
            incoming, self._incoming = dict.fromkeys(self._incoming), []
            news, self._news = self._news, self._news & {"stop"}
            self._streams.update(incoming)
        changed, stopping = "changed" in news, "stop" in news
        if "drop" in news:
            for stream in list(self._streams):
                self._close(stream)
            return stopping
        began = time.monotonic()
        if changed:
            self._views.next_change()
        for stream in list(self._streams):
            if stopping:
                stream.end()
            elif changed or stream in incoming:
                self._update(stream)
            self._flush(stream)
        if changed and "changed" in self._news:  # changes come faster than one pass: rest
            time.sleep(time.monotonic() - began)  # as long, so requests get their turn
        return stopping

    def _update(self, stream: Stream) -> None:
        if stream.ending:
            return
        if not stream.allowed():  # e.g. a new game ended the phone's link
            stream.end()
            return
        snap = self._views.get(stream.view)
        if snap.revision != stream.revision:
            stream.revision = snap.revision
            stream.offer(snap.message)

    def _flush(self, stream: Stream) -> None:
        sent = False
        while stream.sending is not None or stream.newest is not None:
            if stream.sending is None:
                stream.sending, stream.newest = memoryview(stream.newest or b""), None
            try:
                n = stream.sock.send(stream.sending)
            except BlockingIOError:
                break
            except OSError:  # the page has gone
                self._close(stream)
                return
            sent = True
            if n < len(stream.sending):
                stream.sending = stream.sending[n:]
                break
            stream.sending = None
        if sent:
            stream.quiet_since = time.monotonic()
        if stream.ending and stream.sending is None:
            self._close(stream)
            return
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if stream.sending else 0)
        if stream.events != events and self._selector is not None:  # wait for room to write
            watch = self._selector.modify if stream.events else self._selector.register
            watch(stream.sock, events, stream)
            stream.events = events

    def _read(self, stream: Stream) -> bool:
        """What a page sends on its stream is ignored; False once it has closed."""
        try:
            return bool(stream.sock.recv(4096))
        except BlockingIOError:
            return True
        except OSError:
            return False

    def _close(self, stream: Stream) -> None:
        with self._lock:
            if stream not in self._streams:
                return
            del self._streams[stream]
        if stream.events and self._selector is not None:
            self._selector.unregister(stream.sock)
        stream.sock.close()
        stream.closed()
        self.release()

    def _next_keepalive(self) -> float | None:
        if not self._streams:
            return None
        quiet = min(s.quiet_since for s in self._streams)
        return max(0.0, quiet + self.keepalive_s - time.monotonic())

    def _keep_alive(self) -> None:
        now = time.monotonic()
        for stream in list(self._streams):
            if now - stream.quiet_since >= self.keepalive_s and not (stream.held or stream.ending):
                stream.offer(KEEP_ALIVE)
                self._flush(stream)
                stream.quiet_since = now


def streams_blueprint(table: Table, streams: StreamServer) -> Blueprint:
    bp = Blueprint("streams", __name__)

    def requested_view() -> tuple[View, Callable[[], bool]]:
        """The view this request may stream, and what must stay true while it does."""
        if request.args.get("view") == "control":
            if not is_controller():
                abort(401, "the Godfather's stream needs the table PIN")
            return "control", lambda: True
        seat = request.args.get("seat", type=int)
        if seat is not None:
            claim = phone_claim(seat)
            if not table.access.holds(seat, claim):
                abort(401, f"seat {seat}'s stream is the phone's that holds it")
            return ("seat", seat), lambda: table.access.holds(seat, claim)
        return "public", lambda: True

    @bp.get("/api/events")
    def events() -> Response:
        return stream_response(streams, *requested_view())

    bp.after_app_request(keeps_its_place(table))
    return bp


def stream_response(streams: StreamServer, view: View, allowed: Callable[[], bool]) -> Response:
    """Admit a stream under the limit and hand its connection to the loop, or refuse."""
    hand_over = request.environ.get(HAND_OVER)
    if hand_over is None:
        abort(501, "event streams need the companion's own server (companion run)")
    if not streams.admit(kept=view != "public"):
        refused = jsonify({"error": f"this server serves {streams.limit} live pages at "
                                    f"most: try again in {RETRY_AFTER_S} s"})
        refused.status_code = 503
        refused.headers["Retry-After"] = str(RETRY_AFTER_S)
        return refused
    hand_over(Admission(streams, view, allowed))
    return Response(iter(()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
