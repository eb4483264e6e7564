"""`POST /api/sim`: the virtual table's hands, for a simulated table only.

A click on /sim becomes a simulator command (`aim 3 5`, `tip 2`, `unplug 4`): the mock
pins and pty boards then produce the very facts real sensors would, through the same
filters and bus. It changes the game, so it needs the Godfather's session.

`GET /sim/seat/N` takes a seat over on this screen: it opens the seat's phone link (what
its QR code holds), so in the demo a visitor plays a bot's seat and hands it back there.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, redirect, request
from werkzeug.wrappers import Response as Redirect

from companion.dashboard.access import is_controller, require_control_post
from companion.referee.table import Table
from companion.sensors.sim.simulator import SimError, Simulator


def sim_blueprint(simulator: Simulator, table: Table) -> Blueprint:
    bp = Blueprint("sim", __name__)

    @bp.get("/sim/seat/<int:seat>")
    def take_seat(seat: int) -> Redirect:
        """The seat's phone link, opened here: only the Godfather's screen may (it holds
        the seat's token, like the QR code on the Phones tab)."""
        if not is_controller():
            abort(401)
        if table.game is None or seat not in table.game.player_at:
            abort(404)
        return redirect(f"/seat/{seat}?token={table.access.seat_token(seat)}", 303)

    @bp.post("/api/sim")
    def command() -> tuple[Response, int] | Response:
        require_control_post()
        data = request.get_json(silent=True)
        text = data.get("command") if isinstance(data, dict) else None
        if not isinstance(text, str):
            return jsonify({"error": "command: text such as \"aim 3 5\""}), 400
        try:
            simulator.command(text)
        except SimError as e:
            return jsonify({"error": str(e)}), 400
        return jsonify({"ok": True})

    return bp
