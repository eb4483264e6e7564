"""The venue page: every table live, the standings, each player's history and each game.

The same Flask set-up as the tablet's dashboard (its pages, catalogs, security headers and
event hub): `/` streams the venue's whole state by Server-Sent Events (`/api/events`),
`/players/<id>` and `/games/<id>` are drawn on the server, the game's end chart by the
tablet's own script. The organiser logs in with the league PIN (rate-limited as the
table's is) to flag, void or restore a game.
"""

from __future__ import annotations

import hmac
import json
import secrets
from typing import Any, TypeVar

from flask import Blueprint, Flask, Response, abort, jsonify, request, session

from companion.dashboard import WEB_DIR
from companion.dashboard.api import STATUS, PinGuard
from companion.dashboard.app import SECURITY_HEADERS
from companion.dashboard.pages import render
from companion.dashboard.settings import DashboardSettings
from companion.dashboard.streams import StreamServer, stream_response
from companion.league.service import League
from companion.league.store import StoreError
from companion.referee.commands import CommandError

MAX_NOTE = 200
PIN_DIGITS = 6
T = TypeVar("T")


class Organiser:
    """The league PIN's holder: the PIN guard asks it as it asks a table's access."""

    def __init__(self, pin: str | None) -> None:
        self.pin = pin or f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"

    @property
    def access(self) -> Organiser:
        return self

    def check_pin(self, pin: str) -> bool:
        return hmac.compare_digest(self.pin.encode(), (pin or "").encode())


def is_organiser() -> bool:
    return session.get("organiser") is True


def found(record: T | None) -> T:
    """The record asked for, or 404."""
    if record is None:
        abort(404)
    return record


class VenueFrame:
    """The venue after one change, as its live page is sent it (one view for everyone)."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view, self.version, self.revision = view, view["version"], view["revision"]

    def body(self, _view: object, _public_body: object) -> bytes:
        return json.dumps(self.view, separators=(",", ":")).encode()


def create_venue_app(league: League, organiser: Organiser,
                     settings: DashboardSettings | None = None) -> Flask:
    settings = settings or DashboardSettings()
    app = Flask(__name__, template_folder=str(WEB_DIR / "templates"),
                static_folder=str(WEB_DIR / "static"), static_url_path="/static")
    app.config.update(SECRET_KEY=settings.secret_key or secrets.token_hex(32),
                      SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax",
                      MAX_CONTENT_LENGTH=16 * 1024)
    streams = StreamServer(lambda: VenueFrame(league.view()), league.subscribe,
                           settings.max_streams, settings.keepalive_s)
    app.extensions["streams"] = streams  # started by the server (dashboard/server.py)
    app.register_blueprint(_pages(league))
    app.register_blueprint(_api(league, organiser, streams))

    @app.after_request
    def secure(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        return response

    return app


def _pages(league: League) -> Blueprint:
    bp = Blueprint("venue_pages", __name__)

    def page(template: str, **context: Any) -> str:
        return render(template, organiser=is_organiser(),
                      organiser_csrf=session.get("csrf") if is_organiser() else None, **context)

    @bp.get("/")
    def venue() -> str:
        return page("venue.html")

    @bp.get("/players/<int:player_id>")
    def player(player_id: int) -> str:
        return page("venue_player.html", player=found(league.store.player(player_id)))

    @bp.get("/games/<int:game_id>")
    def game(game_id: int) -> str:
        return page("venue_game.html", game=found(league.store.game(game_id)))

    return bp


def _api(league: League, organiser: Organiser, streams: StreamServer) -> Blueprint:
    bp = Blueprint("venue_api", __name__, url_prefix="/api")
    guard = PinGuard("organiser PIN")

    @bp.errorhandler(CommandError)
    def refused(e: CommandError) -> tuple[Response, int]:
        return jsonify({"error": e.message}), STATUS[e.kind]

    def body() -> dict[str, Any]:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise CommandError("invalid", "the body must be a JSON object")
        return data

    @bp.get("/venue")
    def venue() -> Response:
        return jsonify(league.view())

    @bp.get("/events")
    def events() -> Response:
        return stream_response(streams, "public", lambda: True)

    @bp.get("/roster")
    def roster() -> Response:
        return jsonify({"players": league.store.roster()})

    @bp.get("/standings")
    def standings() -> Response:
        return jsonify({"standings": league.store.standings()})

    @bp.get("/players/<int:player_id>")
    def player(player_id: int) -> Response:
        return jsonify(found(league.store.player(player_id)))

    @bp.get("/games/<int:game_id>")
    def game(game_id: int) -> Response:
        return jsonify(found(league.store.game(game_id)))

    @bp.get("/games/<int:game_id>/scenario")
    def scenario(game_id: int) -> Response:
        return Response(found(league.store.scenario(game_id)), mimetype="text/yaml")

    @bp.post("/login")
    def login() -> Response:
        guard.check(organiser, str(body().get("pin", "")), request.remote_addr or "?")  # type: ignore[arg-type]
        session.clear()
        session["organiser"] = True
        session["csrf"] = secrets.token_urlsafe(24)
        return jsonify({"ok": True, "csrf": session["csrf"]})

    @bp.post("/games/<int:game_id>/decision")
    def decide(game_id: int) -> Response:
        if not is_organiser():
            raise CommandError("unauthorized", "flagging or voiding a result needs the league PIN")
        if not secrets.compare_digest(request.headers.get("X-CSRF-Token", ""),
                                      session.get("csrf", "-")):
            raise CommandError("forbidden", "missing or wrong X-CSRF-Token for this session")
        data = body()
        note = data.get("note")
        if note is not None and (not isinstance(note, str) or len(note) > MAX_NOTE):
            raise CommandError("invalid", f"note: text of at most {MAX_NOTE} characters")
        try:
            status = league.decide(game_id, str(data.get("decision")), note or None)
        except StoreError as exc:
            raise CommandError("rule", str(exc)) from None
        return jsonify({"ok": True, "status": status})

    return bp
