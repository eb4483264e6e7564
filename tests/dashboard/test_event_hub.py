"""The live-update hub alone: snapshots built once per change, frames, keep-alives."""

from __future__ import annotations

import json
import threading

from companion.dashboard.hub import EventHub


class Source:
    """A stand-in for the table's views: counts how often each view is built."""

    def __init__(self) -> None:
        self.version = 1
        self.builds: dict[object, int] = {}
        self.lock = threading.Lock()

    def build(self, view):
        with self.lock:
            self.builds[view] = self.builds.get(view, 0) + 1
        return {"version": self.version, "revision": self.version, "view": str(view)}


def frames(stream, n: int) -> list[bytes]:
    it = stream.messages()
    return [next(it) for _ in range(n)]


def test_a_stream_starts_with_a_snapshot_whose_id_is_the_version():
    source = Source()
    hub = EventHub(source.build)
    retry, first = frames(hub.open("public"), 2)
    assert retry == b"retry: 1000\n\n"
    head, data = first.split(b"data: ")
    assert head == b"id: 1\nevent: state\n"
    assert json.loads(data) == {"version": 1, "revision": 1, "view": "public"}


def test_one_build_per_view_and_change_however_many_pages():
    source = Source()
    hub = EventHub(source.build)
    streams = [hub.open("public") for _ in range(20)] + [hub.open(("seat", 2)) for _ in range(3)]
    iters = [s.messages() for s in streams]
    for it in iters:
        next(it), next(it)
    source.version = 2
    hub.changed(2)
    assert all(b"id: 2\n" in next(it) for it in iters)
    assert source.builds == {"public": 2, ("seat", 2): 2}
    assert hub.stream_count == 23


def test_a_slow_page_gets_the_latest_snapshot_not_a_queue():
    source = Source()
    hub = EventHub(source.build)
    it = hub.open("public").messages()
    next(it), next(it)
    for v in (2, 3, 4):
        source.version = v
        hub.changed(v)
    assert b"id: 4\n" in next(it)


def test_keep_alives_while_nothing_changes_and_the_end_on_shutdown():
    hub = EventHub(Source().build, keepalive_s=0.02, poll_s=0.005)
    stream = hub.open("public")
    it = stream.messages()
    next(it), next(it)
    assert next(it) == b": keep-alive\n\n"
    hub.shutdown()
    assert list(it) == []
    stream.close()
    assert hub.stream_count == 0


def test_a_stream_ends_when_its_right_to_the_view_does():
    source = Source()
    hub = EventHub(source.build)
    valid = {"token": True}
    it = hub.open(("seat", 3), lambda: valid["token"]).messages()
    next(it), next(it)
    valid["token"] = False  # e.g. a new game changed the seat's token
    hub.changed()
    assert list(it) == []


def test_shutdown_can_be_waited_for():
    hub = EventHub(Source().build)
    stream = hub.open("public")
    assert not hub.wait_empty(0.01)
    stream.close()
    assert hub.wait_empty(0.01)
