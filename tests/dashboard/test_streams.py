"""The live streams on a real server and real sockets: many pages, the limit, a stalled
page, phones' views spliced from the public one, the end of a stream."""

from __future__ import annotations

import http.client
import json
import socket

import pytest
from served import NAMES, PIN, new_table

from companion.clock import SYSTEM_CLOCK
from companion.config import ConfigError, parse
from companion.dashboard.streams import ChangeViews
from companion.referee import views
from companion.referee.commands import Auth
from companion.referee.table import Table
from companion.referee.views import TableFrame, splice
from companion.referee.views import compact_json as encode
from companion.sensors.facts import Fact


class Page:
    """One page's stream on its own connection, read as an EventSource reads it."""

    def __init__(self, port: int, path: str = "/api/events", receive_buffer: int = 0,
                 claim: str | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        if receive_buffer:  # a small window, set before connecting, so a stall is quick
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            sock.settimeout(10)
            sock.connect(("127.0.0.1", port))
            self.conn.sock = sock
        headers = {"Accept": "text/event-stream"}
        if claim is not None:  # a phone, holding its seat
            headers["X-Seat-Claim"] = claim
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        self.received = 0  # body bytes read
        self.lines: list[bytes] = []

    def line(self) -> bytes:
        line = self.response.readline()
        self.received += len(line)
        self.lines.append(line)
        return line

    def state(self) -> dict:
        """The next snapshot."""
        data = None
        while line := self.line():
            if line.startswith(b"data: "):
                data = line[6:]
            elif line == b"\n" and data is not None:
                return json.loads(data)
        raise EOFError("the stream ended")

    def until(self, revision: int) -> tuple[dict, int]:
        """Read until the snapshot of `revision`; it and how many snapshots that took."""
        n = 1
        while (state := self.state())["revision"] != revision:
            n += 1
        return state, n

    def close(self) -> None:
        self.response.close()  # the response holds the socket too
        self.conn.close()


def get(port: int, path: str, **headers: str) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers=headers)
    return conn.getresponse()


def stand(table: Table, seat: int, posture: str) -> None:
    table.on_fact(Fact("posture", seat, posture, SYSTEM_CLOCK.now_ms(), "test"))


def test_a_phones_view_spliced_from_the_public_bytes_is_the_view_built_whole(tmp_path):
    table = new_table(tmp_path / "j.sqlite3")
    for digital in (True, False):
        if not digital:
            table.command({"type": "new_game", "version": table.version, "players": NAMES[:5],
                           "cards": "physical", "abandon": True}, Auth(control=True))
        t = table.view()
        public = encode(views.public(t))
        for seat in range(1, 9):  # seats 6 to 8 hold nobody in the second game
            assert splice(public, views.seat_private(t, seat)) == encode(views.seat(t, seat))
    table.journal.close()


def test_each_view_is_built_once_per_change_and_phones_do_not_rebuild_the_public_part(
        tmp_path, monkeypatch):
    table = new_table(tmp_path / "j.sqlite3")
    assert table.outbox.settled()  # its own digest of the first view is not counted
    built: list[str] = []

    def counting(name: str):
        real = getattr(views, name)

        def build(t, *args):
            built.append(name)
            return real(t, *args)
        return build

    for name in ("public", "seat_private"):
        monkeypatch.setattr(views, name, counting(name))
    change = ChangeViews(lambda: TableFrame(table.view()))
    for _ in range(2):
        for view in [*[("seat", s) for s in range(1, 9)], "public"] * 3:
            change.get(view)
        assert built == ["public"] + ["seat_private"] * 8
        built.clear()
        change.next_change()
    table.journal.close()


def test_a_full_house_of_pages_and_the_godfather_and_the_phones_are_still_answered(serve):
    table, server = serve(max_streams=200, max_per_address=256)
    claims = {s: table.claim(s, table.access.seat_token(s)) for s in range(1, 9)}
    # 25 of the 200 places (one in eight) are kept for the Godfather's and the phones' views
    pages = [Page(server.port) for _ in range(175)] + [
        Page(server.port, f"/api/events?seat={s}", claim=claims[s]) for s in range(1, 9)]
    for page in pages:
        assert page.state()["version"] == table.version
    assert server.streams.count == 183
    assert get(server.port, "/api/events").status == 503  # the public share is full
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("POST", "/api/command", json.dumps({"type": "pause", "version": table.version}),
                 {"X-Table-Pin": PIN, "Content-Type": "application/json"})
    assert conn.getresponse().status == 200
    for seat in range(1, 9):
        r = get(server.port, f"/api/seat/{seat}", **{"X-Seat-Claim": claims[seat]})
        assert r.status == 200 and json.loads(r.read())["me"]["seat"] == seat
    assert get(server.port, "/").status == 200
    paused, shown = table.revision, []
    for page in pages:  # the outbox may still be sending the changes made before the pause
        while (state := page.state())["revision"] < paused:
            pass
        shown.append(state)
    assert all(state["paused"] is True for state in shown)  # every page shows the pause
    assert [state["me"]["seat"] for state in shown[-8:]] == list(range(1, 9))  # phones, theirs
    refused = get(server.port, "/api/events")
    assert refused.status == 503 and refused.getheader("Connection") == "close"


def test_streams_past_the_limit_are_refused_politely_until_one_closes(serve):
    table, server = serve(max_streams=3)
    pages = [Page(server.port) for _ in range(3)]
    for page in pages:
        page.state()
    refused = get(server.port, "/api/events")
    assert refused.status == 503
    assert refused.getheader("Retry-After") == "5"
    assert "3 live pages at most" in json.loads(refused.read())["error"]
    assert get(server.port, "/api/state").status == 200  # the rest of the API answers
    pages[0].close()
    assert server.streams.wait_count(2, 5.0)
    again = Page(server.port)
    assert again.response.status == 200
    assert again.state()["revision"] == table.revision


def test_a_page_that_stops_reading_holds_a_bounded_buffer_and_skips_to_the_latest(serve):
    table, server = serve()
    stalled = Page(server.port, receive_buffer=4096)
    stalled.state()
    watcher = Page(server.port)
    watcher.state()
    changes = 1000
    for i in range(changes):  # each one offered to every page: the watcher has read it
        stand(table, 1 + i % 8, "down" if i // 8 % 2 == 0 else "up")
        latest, _ = watcher.until(table.revision)
    (stalled_holds, watcher_holds), frame = server.streams.held, max(map(len, watcher.lines[-8:]))
    assert 0 < stalled_holds <= 2 * (frame + 64)  # the frame being sent and the newest
    assert watcher_holds <= frame + 64  # (at most the frame it has just been sent)
    before = stalled.received
    state, snapshots = stalled.until(table.revision)
    assert [p["sensors"] for p in state["players"]] == [p["sensors"] for p in latest["players"]]
    sent = stalled.received - before
    assert sent < 512 * 1024 < changes * frame  # the kernel's buffers and two frames at most
    assert snapshots < changes / 10


def test_keep_alives_while_nothing_changes_and_a_clean_end_when_the_server_stops(serve):
    _table, server = serve(keepalive_s=0.05)
    page = Page(server.port)
    page.state()
    assert page.line() == b": keep-alive\n"
    server.stop()
    while page.line():  # the stream ends as a response should: no error on the page
        pass
    assert page.response.isclosed()


def test_a_head_request_is_answered_with_the_head_alone_and_holds_no_stream(serve):
    table, server = serve(max_streams=1)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("HEAD", "/api/events")
    head = conn.getresponse()
    assert (head.status, head.getheader("Content-Type"), head.read()) == (
        200, "text/event-stream; charset=utf-8", b"")
    assert server.streams.count == 0
    assert Page(server.port).state()["version"] == table.version  # the one slot is free


def test_the_stream_limit_is_a_dashboard_setting_checked_like_the_others():
    assert parse("dashboard: {}")["dashboard"].max_streams == 200
    assert parse("dashboard: {max_streams: 20}")["dashboard"].max_streams == 20
    with pytest.raises(ConfigError, match="max_streams"):
        parse("dashboard: {max_streams: 0}")


def test_a_phones_stream_ends_when_a_new_game_ends_its_link(serve):
    table, server = serve()
    phone = Page(server.port, "/api/events?seat=2",
                 claim=table.claim(2, table.access.seat_token(2)))
    spectator = Page(server.port)
    assert phone.state()["me"]["player"] == "Bob"
    spectator.state()
    players = ["Zed", "Yan", "Xia", "Wim"]
    table.command({"type": "new_game", "version": table.version, "players": players,
                   "abandon": True}, Auth(control=True))
    new = table.revision  # (the outbox may still be sending the claim's change before it)
    while (state := spectator.state())["revision"] < new:
        pass
    assert [p["name"] for p in state["players"]] == players
    while phone.line():  # the stream ends as a response should, showing nothing of Yan
        assert b"Yan" not in phone.lines[-1]
    assert phone.response.isclosed()
    assert server.streams.wait_count(1, 5.0)
