"""The referee's JSON API (docs/API.md): reading the table and sending it commands."""

from __future__ import annotations

import secrets
import threading
import time
from collections import defaultdict, deque
from typing import Any

from flask import Blueprint, Response, jsonify, request, session

from companion.referee.commands import Auth, CommandError
from companion.referee.table import Table

MAX_BODY = 64 * 1024  # the largest command (a new game) is well under 1 KiB
WRONG_PIN_LIMIT = 5  # wrong tries from one address ...
WRONG_PIN_TABLE_LIMIT = 10  # ... or from all addresses together ...
WRONG_PIN_WINDOW_S = 60.0  # ... in this long stop PIN tries (from it, or all) as long


class PinGuard:
    """Counts wrong PINs per address and for the whole table, so guessing is slow whatever
    the number of addresses: at most 10 guesses a minute, about 70 days for every 6-digit
    PIN. A Godfather already logged in is never stopped: a session needs no PIN."""

    def __init__(self) -> None:
        self._wrong: dict[str, deque[float]] = defaultdict(deque)
        self._all: deque[float] = deque()
        self._lock = threading.Lock()

    def check(self, table: Table, pin: str, who: str) -> None:
        now = time.monotonic()
        with self._lock:
            for tries in (self._wrong[who], self._all):
                while tries and now - tries[0] > WRONG_PIN_WINDOW_S:
                    tries.popleft()
            if len(self._wrong[who]) >= WRONG_PIN_LIMIT or len(self._all) >= \
                    WRONG_PIN_TABLE_LIMIT:
                raise CommandError(429, "too many wrong PINs: wait a minute")
            if not table.access.check_pin(pin):
                self._wrong[who].append(now)
                self._all.append(now)
                raise CommandError(401, "wrong table PIN")
            if not self._wrong[who]:
                del self._wrong[who]


def api_blueprint(table: Table) -> Blueprint:
    bp = Blueprint("api", __name__, url_prefix="/api")
    guard = PinGuard()

    def body() -> dict[str, Any]:
        if (request.content_length or 0) > MAX_BODY:
            raise CommandError(413, f"the body is over {MAX_BODY} bytes: no command is")
        try:
            data = request.get_json(silent=True)
        except RecursionError:
            raise CommandError(400, "the body is nested too deep to be a command") from None
        if not isinstance(data, dict):
            raise CommandError(400, "the body must be a JSON object")
        return data

    def check_csrf() -> None:
        sent = request.headers.get("X-CSRF-Token", "")
        if request.method == "POST" and not secrets.compare_digest(sent, session.get("csrf", "-")):
            raise CommandError(403, "missing or wrong X-CSRF-Token for this session")

    def auth(seat: int | None = None) -> Auth:
        """The caller's rights, from headers (scripts) or the session (pages)."""
        pin = request.headers.get("X-Table-Pin")
        if pin is not None:
            guard.check(table, pin, request.remote_addr or "?")
            return Auth(control=True)
        token = request.headers.get("X-Seat-Token")
        if token is not None:
            claimed = seat if seat is not None else _int(request.headers.get("X-Seat"))
            if claimed is None or not table.access.check_seat_token(claimed, token):
                raise CommandError(401, "wrong seat token")
            return Auth(seat=claimed)
        if session.get("control") or session.get("seat") is not None:
            check_csrf()
            if session.get("control"):
                return Auth(control=True)
            return Auth(seat=int(session["seat"]))
        return Auth()

    @bp.after_request
    def private(response: Response) -> Response:
        if request.endpoint in ("api.control", "api.seat_view", "api.login"):
            response.headers["Cache-Control"] = "no-store"  # a hand or the seats' links
        return response

    @bp.errorhandler(CommandError)
    def refused(e: CommandError) -> tuple[Response, int]:
        return jsonify({"error": e.message, **e.extra}), e.status

    @bp.get("/state")
    def state() -> Response:
        return jsonify(table.public_state())

    @bp.get("/control")
    def control() -> Response:
        if not auth().control:
            raise CommandError(401, "the Godfather's view needs the table PIN")
        return jsonify(table.control_state())

    @bp.get("/seat/<int:seat>")
    def seat_view(seat: int) -> Response:
        who = auth(seat)
        if not who.control and who.seat != seat:
            raise CommandError(401, f"seat {seat}'s view needs its token")
        return jsonify(table.seat_state(seat))

    @bp.post("/command")
    def command() -> Response:
        data = body()
        who = auth()
        if not who.control and who.seat is None:
            raise CommandError(401, "commands need the table PIN or a seat token")
        return jsonify(table.command(data, who))

    @bp.post("/login")
    def login() -> Response:
        data = body()
        if "pin" in data:
            guard.check(table, str(data["pin"]), request.remote_addr or "?")
            session.clear()
            session["control"] = True
        else:
            seat, token = _int(data.get("seat")), str(data.get("token", ""))
            if seat is None or not table.access.check_seat_token(seat, token):
                raise CommandError(401, "wrong seat token")
            session.clear()
            session["seat"] = seat
        session["csrf"] = secrets.token_urlsafe(24)
        return jsonify({"ok": True, "csrf": session["csrf"]})

    return bp


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
