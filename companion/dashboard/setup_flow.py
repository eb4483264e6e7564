"""The New game flow on /referee: the last table's names, the seats that can take a player,
and each seat's live check (`GET /api/setup`, polled by the page while it is open).

The server says which seats take a player (a gun and a standee, companion.referee.equipment)
and what each other seat lacks, how many players a game takes (the rules' counts) and, as
the form's rows, the table's seats; the page draws them and holds no rule or range of its
own. A seat's row turns green once its gun and standee were seen moving
(companion.referee.setup_check), which hears the table only while the flow is open: with
no game or a game over. Mid-game a standee laid down is the game's, not a check's.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify

from companion.dashboard.access import is_controller
from companion.referee import equipment
from companion.referee.game import Game
from companion.referee.setup_check import SetupCheck
from companion.referee.table import Table
from companion.schema import MAX_PLAYERS, MIN_PLAYERS
from companion.sensors.settings import SensorSettings

PLAYERS = {"min": MIN_PLAYERS, "max": MAX_PLAYERS}  # how many a game takes
LACKS = {(False, False): "both", (False, True): "gun", (True, False): "standee"}


def missing(seat: dict[str, Any], known: bool) -> str:
    """What a seat lacks to take a player: "gun", "standee", "both", or "" (it takes one;
    every seat does while the table has said nothing of its equipment)."""
    return LACKS.get((seat["gun"], seat["standee"]), "") if known else ""


def game_key(game: Game | None) -> object:
    """What the checks were made for: they start again when a game starts or ends."""
    return None if game is None else (game.id, game.state.over)


def playing(game: Game | None) -> bool:
    return game is not None and not game.state.over


def in_progress(table: Table) -> bool:
    return playing(table.game)


def last_table(table: Table) -> dict[str, Any]:
    """The New game form's rows (the table's seats) and first values: the last game's
    (kept in the journal, so a restart keeps them), else the configured names."""
    game = table.game
    seats = list(equipment.SEATS)
    if game is None:
        return {"seats": seats, "names": dict(table.settings.names), "desk": 1,
                "cards": "digital", "loot": "digital", "unclaimed": "carry_over"}
    setup = game.setup
    return {"seats": seats, "names": dict(game.player_at),
            "desk": game.seat_of[setup["players"][0]],
            "cards": setup.get("cards", "digital"), "loot": setup.get("loot", "digital"),
            "unclaimed": setup.get("variant", {}).get("unclaimed_loot", "carry_over")}


def setup_blueprint(table: Table, sensors: SensorSettings | None) -> Blueprint:
    bp = Blueprint("setup_flow", __name__)
    configured = equipment.configured(sensors)
    check = SetupCheck()

    def heard(_revision: int) -> None:
        t = table.frame().t  # what the table showed: its seats are not read again
        if playing(t.game):
            return  # the flow is closed: its passes start again when the game ends
        check.heard(t.sensors, t.looks, game_key(t.game))

    table.subscribe(heard)

    @bp.get("/api/setup")
    def setup() -> Response:
        """Each seat: its gun and standee (`known`: whether the table has said), what it
        lacks to take a player, and what its live check has seen; a game's player counts."""
        if not is_controller():
            abort(401, "the table PIN is needed: log in on the Godfather's page")
        table.settled()  # the check has heard every change made so far
        kit = equipment.offered(configured, table.readings.kit())
        checked = check.read(table.readings, game_key(table.game), table.clock.now_ms())
        return jsonify({"known": kit.known, "in_progress": in_progress(table),
                        "players": PLAYERS,
                        "seats": [{**s, "missing": missing(s, kit.known), **checked[s["seat"]]}
                                  for s in kit.seats()]})

    return bp
