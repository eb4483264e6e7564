"""A hand is its player's alone: a whole digital-card game played through the real HTTP API
and its live streams, every body read by anyone kept and searched afterwards.

The table runs in this process on a fake clock behind the dashboard's real server
(waitress); the bots tap as the Godfather (the PIN) and as each phone (its claim), and
streams stay open all game long for a spectator, the Godfather's tablet (a logged-in
session) and every phone. A hand (`me.hand`, the card a player put down, a choice naming a
card of the hand) may appear only in the bodies of the phone holding that seat.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
from collections.abc import Iterator
from http.cookies import SimpleCookie
from typing import Any

from broker_table import BrokerTable
from phones import Request, http_request
from remote_table import CONTROL

from companion.bots.table_bot import TableBot
from companion.dashboard.api import claim_seat
from companion.dashboard.server import DashboardServer
from companion.rules.phases import ACTION_TYPES

NAMES = ["Ana", "Bob", "Cyd", "Dee", "Eve"]
Body = tuple[str, str, Any]  # who read it ("public", "control", "seat3"), from where, what
# docs/SCENARIOS.md: an action names a card of its player's hand in `card`, `give` or
# `discard`; only a `reveal`'s card is public (it turns the face-down card up)
HAND_FIELDS = ("card", "give", "discard")


class Stream:
    """One page's live stream, read on a thread: every snapshot kept, as `who` saw it."""

    def __init__(self, port: int, path: str, headers: dict[str, str], who: str,
                 bodies: list[Body]) -> None:
        self.who, self.bodies, self.over = who, bodies, threading.Event()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200, (who, self.response.status, self.response.read())
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for data in self._frames():
            state = json.loads(data)
            self.bodies.append((self.who, "stream", state))
            if state.get("phase") == "over":
                self.over.set()

    def _frames(self) -> Iterator[str]:
        while line := self.response.fp.readline():
            if line.startswith(b"data: "):
                yield line[6:].decode()

    def close(self) -> None:
        self.thread.join(10)
        self.conn.close()


def recorded(request: Request, bodies: list[Body]) -> Request:
    """Every answer of the API, kept with who asked for it."""
    def record(path: str, body: dict[str, Any] | None,
               headers: dict[str, str]) -> tuple[int, Any]:
        status, answer = request(path, body, headers)
        seat = claim_seat(headers.get("X-Seat-Claim"))
        who = f"seat{seat}" if seat else "control" if "X-Table-Pin" in headers else "public"
        bodies.append((who, path, answer))
        return status, answer
    return record


def walk(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object inside a body, the body included."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def hand_marks(body: Any, seat_of: dict[str, int]) -> set[int]:
    """The seats whose hand this body shows: a phone view (`me`, with its hand and the card
    put down) or a choice naming a card of that player's hand (an action, not an event: a
    card revealed is public)."""
    seats = set()
    for obj in walk(body):
        me = obj.get("me")
        if isinstance(me, dict):
            seats.add(me["seat"])
        if obj.get("type") in ACTION_TYPES and obj.get("type") != "reveal" \
                and obj.get("player") in seat_of \
                and any(obj.get(field) is not None for field in HAND_FIELDS):
            seats.add(seat_of[obj["player"]])
        if "hand" in obj:
            seats.add(obj["seat"])  # only a phone view has it, and names its seat
    return seats


def login_cookie(port: int) -> str:
    """The Godfather's tablet logs in with the PIN: its session cookie."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/api/login", body=json.dumps({"pin": CONTROL["X-Table-Pin"]}),
                 headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    assert response.status == 200, response.read()
    cookie = SimpleCookie(response.getheader("Set-Cookie"))
    conn.close()
    return f"session={cookie['session'].value}"


def test_a_hand_reaches_only_its_own_phone_in_a_whole_digital_card_game(
        tmp_path, mosquitto, unused_port):
    live = BrokerTable.start(tmp_path, mosquitto.port, unused_port, len(NAMES), "privacy")
    server = DashboardServer(live.app, live.config["dashboard"]).start()
    base = f"http://127.0.0.1:{server.port}"
    bodies: list[Body] = []
    streams: list[Stream] = []
    try:
        port = live.port(recorded(http_request(base), bodies))
        bot = TableBot(port, random.Random(17))
        bot.new_game(NAMES, powers="random", seed=17, cards="digital")
        state = port.control()
        port.phones.claim_all(state)
        streams = [Stream(server.port, "/api/events", {}, "public", bodies),
                   Stream(server.port, "/api/events?view=control",
                          {"Cookie": login_cookie(server.port)}, "control", bodies)]
        streams += [Stream(server.port, f"/api/events?seat={seat}", {"X-Seat-Claim": claim},
                           f"seat{seat}", bodies) for seat, claim in port.phones.claims.items()]
        for seat in port.phones.claims:  # the PIN opens no hand, and plays from none
            status, answer = port.request(f"/api/seat/{seat}", None, CONTROL)
            assert status == 401 and "PIN opens no hand" in answer["error"]
        player = port.phones.seat_of
        status, answer = port.request("/api/command", {
            "type": "action", "version": state["version"],
            "action": {"type": "choose", "player": "Bob", "card": "bang"}}, CONTROL)
        assert status == 403 and answer["error"] == "only Bob's phone plays from their hand"
        final = bot.play()
        for stream in streams:
            assert stream.over.wait(10), f"{stream.who} never saw the end"
    finally:
        server.stop()
        for stream in streams:
            stream.close()
        live.stop()
    assert final["phase"] == "over"
    sources = set(live.table.game.sources)
    assert {"phone", "tablet", "sensor"} <= sources  # phones played their hands
    shown: dict[str, set[int]] = {}
    for who, where, body in bodies:
        marks = hand_marks(body, player)
        shown.setdefault(who, set()).update(marks)
        assert marks <= ({int(who[4:])} if who.startswith("seat") else set()), (who, where)
    for seat in player.values():  # each phone did see its own hand, on the API and the stream
        assert shown[f"seat{seat}"] == {seat}
        assert any(w == f"seat{seat}" and where == "stream" and body["me"]["hand"]
                   for w, where, body in bodies)
    assert sum(1 for who, where, _ in bodies if where == "stream" and who == "control") > 20
