"""Every seat's phone, held as players hold them: each opens its seat's link (the QR code)
once to claim the seat (the next game with their name reseats it), then reads its own view
and plays from its hand with the claim it was given. The bots' ports use it to act as the
phones through the HTTP API."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.referee.access import link_token, who_taps

# request(path, body or None for a GET, headers) -> (status, JSON body)
Request = Callable[[str, dict[str, Any] | None, dict[str, str]], tuple[int, Any]]


def http_request(base: str) -> Request:
    """`Request` over real HTTP, to a server at `base`."""
    def request(path: str, body: dict[str, Any] | None,
                headers: dict[str, str]) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(base + path, data=data, headers={
            **headers, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())
    return request


def journal_links(journal: Path, table: str) -> Callable[[int, int], str]:
    """The links a running table's QR codes hold, from its journal's secret (read only)."""
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        secret = bytes(db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()[0])
    return lambda game, seat: link_token(secret, table, game, seat)


class Phones:
    def __init__(self, request: Request, link: Callable[[int, int], str],
                 control: dict[str, str]) -> None:
        self.request, self.link, self.control = request, link, control
        self.game: int | None = None
        self.claims: dict[int, str] = {}  # seat -> the claim its phone was given
        self.seat_of: dict[str, int] = {}

    def claim_all(self, state: dict[str, Any]) -> None:
        """A new game: a player's phone stays theirs wherever they now sit; the others
        scan their seat's new code."""
        if state["game"] == self.game:
            return
        kept = {name: self.claims[seat] for name, seat in self.seat_of.items()
                if seat in self.claims}
        self.game, self.claims = state["game"], {}
        self.seat_of = {p["name"]: p["seat"] for p in state["players"]}
        for name, seat in self.seat_of.items():
            if name in kept:
                self.claims[seat] = kept[name]
                continue
            status, body = self.request("/api/claim", {"seat": seat,
                                                       "token": self.link(state["game"], seat)}, {})
            assert status == 200, body
            self.claims[seat] = body["claim"]

    def view(self, seat: int) -> dict[str, Any]:
        status, body = self.request(f"/api/seat/{seat}", None, {"X-Seat-Claim": self.claims[seat]})
        assert status == 200, body
        return body

    def legal(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """The tablet's buttons and each phone's (the phones know their own hands)."""
        self.claim_all(state)
        phones = [a for seat in self.claims for a in self.view(seat)["me"]["legal"]]
        return state["legal"] + [a for a in phones if a not in state["legal"]]

    def headers(self, cmd: dict[str, Any]) -> dict[str, str]:
        """Who sends a command: the player's phone for a card from their hand, else the
        Godfather (`control`)."""
        seat = who_taps(cmd.get("action"), self.seat_of).seat
        return self.control if seat is None else {"X-Seat-Claim": self.claims[seat]}


class PhoneTaps:
    """The bots' taps through the HTTP API (a `TablePort`'s control, legal and command): the
    Godfather's view and commands with the PIN, the phones' with their claims."""

    request: Request
    phones: Phones

    def control(self) -> dict[str, Any]:
        status, body = self.request("/api/control", None, self.phones.control)
        assert status == 200, body
        return body

    def legal(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        return self.phones.legal(state)

    def command(self, cmd: dict[str, Any]) -> dict[str, Any]:
        status, body = self.request("/api/command", cmd, self.phones.headers(cmd))
        assert status == 200, (cmd, body)
        return body
