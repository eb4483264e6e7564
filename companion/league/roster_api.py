"""`GET /api/roster`: the league's player names for the table's New game form.

The names come from the table's last copy of the roster (kept in its journal), so the
Godfather can pick them while the venue is out of reach; a table in no league lists none.
A name typed that is not on the roster joins it when the game's result reaches the league.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.league.reporter import Reporter


def roster_blueprint(reporter: Reporter | None) -> Blueprint:
    bp = Blueprint("roster", __name__)

    @bp.get("/api/roster")
    def roster() -> Response:
        return jsonify({"players": reporter.roster() if reporter else []})

    return bp
