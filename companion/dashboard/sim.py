"""`POST /api/sim`: the virtual table's hands, for a simulated table only.

A click on /sim becomes a simulator command (`aim 3 5`, `tip 2`, `unplug 4`): the mock
pins and pty boards then produce the very facts real sensors would, through the same
filters and bus. It changes the game, so it needs the Godfather's session.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from companion.dashboard.access import require_control_post
from companion.sensors.sim.simulator import SimError, Simulator


def sim_blueprint(simulator: Simulator) -> Blueprint:
    bp = Blueprint("sim", __name__)

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
