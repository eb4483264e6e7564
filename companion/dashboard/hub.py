"""The live-update hub: every open event stream, woken on each change of the table.

Each message is a full snapshot, so a stream only ever needs the latest one: a slow page
skips versions instead of queueing them. A snapshot is built and encoded once per view
and change, however many pages show that view.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

View = str | tuple[str, int]  # "public", "control" or ("seat", n)
Builder = Callable[[View], dict[str, Any]]

RETRY_MS = 1000  # how soon a browser reconnects a dropped stream


class EventHub:
    def __init__(self, build: Builder, keepalive_s: float = 15.0, poll_s: float = 1.0) -> None:
        self._build = build
        self.keepalive_s = keepalive_s
        self.poll_s = min(poll_s, keepalive_s)  # how often a quiet stream checks its client
        self._lock = threading.Lock()
        self._emptied = threading.Condition(self._lock)  # the last stream has closed
        self._streams: set[Stream] = set()
        self._cache: dict[View, Snapshot] = {}
        self._generation = 0  # bumped on each change: a snapshot built before it is stale
        self._view_locks: dict[View, threading.Lock] = {}
        self.closed = False
        self.detach: Callable[[], None] = lambda: None  # stops the source's notifications

    def shutdown(self) -> None:
        """End every stream (the server is stopping), so no thread waits on a dead page."""
        self.detach()
        self.closed = True
        self.changed()

    def changed(self, _revision: int | None = None) -> None:
        """The table changed (any thread): drop cached snapshots and wake every stream."""
        with self._lock:
            self._generation += 1
            self._cache.clear()
            streams = list(self._streams)
        for stream in streams:
            stream.wake()

    def open(self, view: View, allowed: Callable[[], bool] = lambda: True) -> Stream:
        """A stream of `view` while `allowed()` holds (a phone's token dies with its game)."""
        stream = Stream(self, view, allowed)
        with self._lock:
            self._streams.add(stream)
        return stream

    def close(self, stream: Stream) -> None:
        with self._lock:
            self._streams.discard(stream)
            if not self._streams:
                self._emptied.notify_all()

    def wait_empty(self, timeout_s: float) -> bool:
        """Wait until every stream has closed (after `shutdown`); False on timeout."""
        with self._lock:
            return self._emptied.wait_for(lambda: not self._streams, timeout_s)

    @property
    def stream_count(self) -> int:
        with self._lock:
            return len(self._streams)

    def snapshot(self, view: View) -> Snapshot:
        """The view now, encoded; built once per change, whoever asks first."""
        with self._lock:
            lock = self._view_locks.setdefault(view, threading.Lock())
        with lock:
            with self._lock:
                hit = self._cache.get(view)
                generation = self._generation
            if hit is not None:
                return hit
            state = self._build(view)
            entry = Snapshot(int(state["version"]), int(state.get("revision") or state["version"]),
                             json.dumps(state, separators=(",", ":")).encode())
            with self._lock:
                if generation == self._generation:
                    self._cache[view] = entry
            return entry


class Stream:
    """One page's connection: a snapshot now, then one per change, keep-alives between."""

    def __init__(self, hub: EventHub, view: View, allowed: Callable[[], bool]) -> None:
        self.hub, self.view, self.allowed = hub, view, allowed
        self._wake = threading.Event()
        self._wake.set()  # the first snapshot goes out at once

    def wake(self) -> None:
        self._wake.set()

    def messages(self, gone: Callable[[], bool] = lambda: False) -> Iterator[bytes]:
        """SSE frames until the client is gone; the caller closes the stream after."""
        yield f"retry: {RETRY_MS}\n\n".encode()
        sent: int | None = None
        quiet_since = time.monotonic()
        while not (gone() or self.hub.closed):
            if self._wake.wait(self.hub.poll_s):
                self._wake.clear()
                if not self.allowed():
                    return
                snap = self.hub.snapshot(self.view)
                if snap.revision != sent:
                    sent, quiet_since = snap.revision, time.monotonic()
                    yield snap.frame()
            elif time.monotonic() - quiet_since >= self.hub.keepalive_s:
                quiet_since = time.monotonic()
                yield b": keep-alive\n\n"

    def close(self) -> None:
        self.hub.close(self)


class Snapshot(NamedTuple):
    version: int  # the game's version: the event id a page reconnects with
    revision: int  # bumped by sensor readings too: what tells two snapshots apart
    body: bytes

    def frame(self) -> bytes:
        return b"id: %d\nevent: state\ndata: " % self.version + self.body + b"\n\n"
