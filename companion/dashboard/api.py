"""The referee's JSON API (docs/API.md): reading the table and sending it commands.

The referee refuses with a kind (companion.referee.commands.KINDS); HTTP's statuses are
given here, and only here."""

from __future__ import annotations

import secrets
import threading
import time
from collections import deque
from typing import Any

from flask import Blueprint, Response, jsonify, request, session

from companion.dashboard.access import CLAIM_COOKIE, keep_claim
from companion.referee.commands import Auth, CommandError, Refusals
from companion.referee.table import Table

MAX_BODY = 64 * 1024  # the largest command (a new game) is well under 1 KiB
WRONG_PIN_LIMIT = 5  # wrong tries from one address ...
WRONG_PIN_TABLE_LIMIT = 10  # ... or from all addresses together ...
WRONG_PIN_WINDOW_S = 60.0  # ... in this long stop PIN tries (from it, or all) as long
STATUS = {"invalid": 400, "unauthorized": 401, "forbidden": 403, "conflict": 409,
          "too_large": 413, "rule": 422, "seating": 422, "too_many": 429, "blind": 503,
          "unwritten": 507}


class PinGuard:
    """Counts wrong PINs per address and for the whole table, so guessing is slow whatever
    the number of addresses: at most 10 guesses a minute (600 an hour), about 35 days on
    average for a 6-digit PIN. A Godfather already logged in is never stopped: a session
    needs no PIN. Only addresses with a wrong try in the window are kept: at most 10."""

    def __init__(self, name: str = "table PIN") -> None:
        self._wrong: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._lock = threading.Lock()
        self.name = name  # what a refusal calls the PIN it guards
        self.refused = Refusals(name)  # wrong, and tried while locked

    def check(self, table: Table, pin: str, who: str) -> None:
        now = time.monotonic()
        with self._lock:
            for tries in (*self._wrong.values(), self._all):
                while tries and now - tries[0] > WRONG_PIN_WINDOW_S:
                    tries.popleft()
            self._wrong = {address: tries for address, tries in self._wrong.items() if tries}
            mine = self._wrong.get(who, deque())
            if len(mine) >= WRONG_PIN_LIMIT or len(self._all) >= WRONG_PIN_TABLE_LIMIT:
                self.refused.count("locked", f"from {who}")
                raise CommandError("too_many", "too many wrong PINs: wait a minute")
            if not table.access.check_pin(pin):
                self._wrong[who] = mine
                mine.append(now)
                self._all.append(now)
                self.refused.count("wrong", f"from {who}")
                raise CommandError("unauthorized", f"wrong {self.name}")
            self._wrong.pop(who, None)

    @property
    def addresses(self) -> int:
        """How many addresses it keeps tries for (bounded by the table-wide limit)."""
        return len(self._wrong)


def api_blueprint(table: Table) -> Blueprint:
    bp = Blueprint("api", __name__, url_prefix="/api")
    guard = PinGuard()

    def body() -> dict[str, Any]:
        if (request.content_length or 0) > MAX_BODY:
            raise CommandError("too_large", f"the body is over {MAX_BODY} bytes: no command is")
        try:
            data = request.get_json(silent=True)
        except RecursionError:
            raise CommandError("invalid", "the body is nested too deep to be a command") from None
        if not isinstance(data, dict):
            raise CommandError("invalid", "the body must be a JSON object")
        return data

    def check_csrf() -> None:
        sent = request.headers.get("X-CSRF-Token", "")
        if request.method == "POST" and not secrets.compare_digest(sent, session.get("csrf", "-")):
            raise CommandError("forbidden", "missing or wrong X-CSRF-Token for this session")

    def auth() -> Auth:
        """The caller's rights: a PIN header (scripts), a phone's claim, the session (pages)."""
        pin = request.headers.get("X-Table-Pin")
        if pin is not None:
            guard.check(table, pin, request.remote_addr or "?")
            return Auth(control=True)
        if "X-Seat-Claim" in request.headers or "X-Seat" in request.headers:
            seat = _int(request.headers.get("X-Seat"))
            claim = request.headers.get("X-Seat-Claim")
            seat = table.access.seat_held(claim) or claim_seat(claim) if seat is None else seat
            if seat is None:
                raise CommandError("unauthorized", "X-Seat: the seat this phone holds")
            return phone(seat)
        if session.get("control"):
            check_csrf()
            return Auth(control=True)
        return Auth()

    def phone(seat: int) -> Auth:
        """A phone holding `seat`: its claim in a header (scripts) or its cookie (the page,
        whose commands carry the CSRF token derived from the claim)."""
        claim = phone_claim(seat)
        if claim is None:
            raise CommandError("unauthorized", f"seat {seat} is the phone's that holds it: "
                               "open its link on that phone (the table PIN opens no hand)")
        if not table.access.holds(seat, claim):
            raise table.access.refusal(seat, table.access.phone(seat, claim, None), claim)
        if request.method == "POST" and "X-Seat-Claim" not in request.headers:
            sent = request.headers.get("X-CSRF-Token", "")
            if not secrets.compare_digest(sent, table.access.csrf(claim or "")):
                raise CommandError("forbidden", "missing or wrong X-CSRF-Token for this phone")
        return Auth(seat=seat)

    @bp.after_request
    def private(response: Response) -> Response:
        if request.endpoint in ("api.control", "api.seat_view", "api.login", "api.claim"):
            response.headers["Cache-Control"] = "no-store"  # a hand, a claim, a session
        return response

    @bp.errorhandler(CommandError)
    def refused(e: CommandError) -> tuple[Response, int]:
        return jsonify({"error": e.message, **e.extra}), STATUS[e.kind]

    @bp.get("/state")
    def state() -> Response:
        return jsonify(table.public_state())

    @bp.get("/control")
    def control() -> Response:
        if not auth().control:
            raise CommandError("unauthorized", "the Godfather's view needs the table PIN")
        return jsonify(table.control_state())

    @bp.get("/seat/<int:seat>")
    def seat_view(seat: int) -> Response:
        """A hand is its player's alone: only the phone holding the seat reads it."""
        phone(seat)
        return jsonify(table.seat_state(seat))

    @bp.post("/claim")
    def claim() -> Response:
        """A phone opens its seat's link: the first one holds the seat."""
        data = body()
        seat, token = _int(data.get("seat")), data.get("token")
        if seat is None or not isinstance(token, str):
            raise CommandError("invalid", "a claim names its seat and its link's token")
        claim = table.claim(seat, token)
        response = jsonify({"ok": True, "seat": seat, "claim": claim,
                            "csrf": table.access.csrf(claim)})
        keep_claim(response, seat, claim)
        return response

    @bp.post("/seat/<int:seat>/release")
    def release(seat: int) -> Response:
        """The phone holding a seat lets it go: its link claims the seat again (in the demo,
        the seat's bot plays it meanwhile)."""
        phone(seat)
        done = table.command({"type": "release", "seat": seat, "version": table.version},
                             Auth(control=True))
        response = jsonify(done)
        response.delete_cookie(CLAIM_COOKIE.format(seat))
        return response

    @bp.post("/command")
    def command() -> Response:
        data = body()
        who = auth()
        if not who.control and who.seat is None:
            raise CommandError("unauthorized",
                               "commands need the table PIN or a phone holding a seat")
        return jsonify(table.command(data, who))

    @bp.post("/login")
    def login() -> Response:
        data = body()
        if "pin" not in data:
            raise CommandError("invalid",
                               "pin: the table PIN (phones claim their seat: /api/claim)")
        guard.check(table, str(data["pin"]), request.remote_addr or "?")
        session.clear()
        session["control"] = True
        session["csrf"] = secrets.token_urlsafe(24)
        return jsonify({"ok": True, "csrf": session["csrf"]})

    return bp


def phone_claim(seat: int) -> str | None:
    """The claim a request shows for a seat: its header (scripts), else the page's cookie."""
    return request.headers.get("X-Seat-Claim") or request.cookies.get(CLAIM_COOKIE.format(seat))


def claim_seat(claim: str | None) -> int | None:
    """The seat a claim was given for (a claim reads `game.seat.secret`)."""
    parts = (claim or "").split(".")
    return _int(parts[1]) if len(parts) == 3 else None


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
