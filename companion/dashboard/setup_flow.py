"""The New game flow on /referee: the last table's names, the seats that can take a player,
and each seat's live check (`GET /api/setup`, polled by the page while it is open).

The page seats players only where a gun and a standee exist (companion.referee.equipment)
and turns a seat's row green once its gun and standee were seen moving
(companion.referee.setup_check).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify

from companion.dashboard.access import is_controller
from companion.referee import equipment
from companion.referee.setup_check import SetupCheck
from companion.referee.table import Table
from companion.sensors.settings import SensorSettings


def game_key(table: Table) -> object:
    """What the checks were made for: they start again when a game starts or ends."""
    game = table.game
    return None if game is None else (game.id, game.state.phase == "over")


def in_progress(table: Table) -> bool:
    game = table.game
    return game is not None and game.state.phase != "over"


def last_table(table: Table) -> dict[str, Any]:
    """The New game form's first values: the last game's (kept in the journal, so a
    restart keeps them), else the configured names."""
    game = table.game
    if game is None:
        return {"names": dict(table.settings.names), "desk": 1, "cards": "digital",
                "loot": "digital", "unclaimed": "carry_over"}
    setup = game.setup
    return {"names": dict(game.player_at), "desk": game.seat_of[setup["players"][0]],
            "cards": setup.get("cards", "digital"), "loot": setup.get("loot", "digital"),
            "unclaimed": setup.get("variant", {}).get("unclaimed_loot", "carry_over")}


def setup_blueprint(table: Table, sensors: SensorSettings | None) -> Blueprint:
    bp = Blueprint("setup_flow", __name__)
    configured = equipment.configured(sensors)
    check = SetupCheck()
    table.subscribe(lambda _revision: check.heard(table.seats_now(),
                                                   table.readings.matrix.seats, game_key(table)))

    @bp.get("/api/setup")
    def setup() -> Response:
        """Each seat: its gun and standee (`known`: whether the table has said), and what
        its live check has seen."""
        if not is_controller():
            abort(401, "the table PIN is needed: log in on the Godfather's page")
        table.settled()  # the check has heard every change made so far
        kit = configured | equipment.heard(table.readings)
        checked = check.read(table.readings, game_key(table), table.clock.now_ms())
        return jsonify({"known": kit.known, "in_progress": in_progress(table),
                        "seats": [{**s, **checked[s["seat"]]} for s in kit.seats()]})

    return bp
