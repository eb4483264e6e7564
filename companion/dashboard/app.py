"""The dashboard's Flask app: the referee's API, the live streams and the pages."""

from __future__ import annotations

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.dashboard import WEB_DIR
from companion.dashboard.api import api_blueprint
from companion.dashboard.calibrate import calibrate_blueprint, seating_judge
from companion.dashboard.evening import evening_blueprint
from companion.dashboard.overlay import overlay_blueprint
from companion.dashboard.pages import pages_blueprint, render
from companion.dashboard.settings import DashboardSettings
from companion.dashboard.setup_flow import setup_blueprint
from companion.dashboard.sim import sim_blueprint
from companion.dashboard.speech import Speaker, speech_blueprint
from companion.dashboard.streams import StreamServer, streams_blueprint
from companion.referee.table import Table
from companion.sensors.settings import SensorSettings

# Everything comes from this server: no CDN, no inline script, no framing.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # phone links carry their seat's token
    "X-Frame-Options": "DENY",
}


def create_app(table: Table, settings: DashboardSettings | None = None,
               sensors: SensorSettings | None = None) -> Flask:
    """`sensors`: the sensors' config, when this process has it (the New game form seats
    players where it lists a gun and a standee, before they report)."""
    settings = settings or DashboardSettings()
    app = Flask(__name__, template_folder=str(WEB_DIR / "templates"),
                static_folder=str(WEB_DIR / "static"), static_url_path="/static")
    app.config.update(
        SECRET_KEY=settings.secret_key or table.access.session_key(),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        DEBUG=False,
        TESTING=False,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    streams = StreamServer(table.frame, table.subscribe,
                           settings.max_streams, settings.keepalive_s)
    app.extensions["streams"] = streams  # started by the server (dashboard/server.py)
    app.register_blueprint(api_blueprint(table))
    app.register_blueprint(streams_blueprint(table, streams))
    app.register_blueprint(pages_blueprint(table, settings))
    app.register_blueprint(calibrate_blueprint(table, settings))
    table.seating_check = seating_judge(table, settings)  # new_game refuses what it fails
    app.register_blueprint(setup_blueprint(table, sensors))
    app.register_blueprint(speech_blueprint(table, Speaker()))
    app.register_blueprint(evening_blueprint(table))
    app.register_blueprint(overlay_blueprint(table))
    if table.simulator is not None:
        app.register_blueprint(sim_blueprint(table.simulator, table))

    @app.after_request
    def secure(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.errorhandler(HTTPException)
    def refused(e: HTTPException) -> tuple[Response | str, int]:
        """API callers get JSON errors like the referee's; people get a page in the
        table's language that leads back to the table."""
        code = e.code or 500
        if request.path.startswith("/api/"):
            return jsonify({"error": e.description}), code
        key = "error.not_found" if code == 404 else "error.other"
        return render("error.html", message_key=key, code=code), code

    return app
