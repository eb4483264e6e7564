"""Calibration and the seating check, for the Godfather before a game.

`/calibrate` shows who sees whom (`GET /api/ir-matrix`: the referee's visibility matrix
of the last second, which cells reach the share that counts as seen, each gun's lock
indicator: the page draws them and holds no threshold of its own) and walks through
"point gun N at each player in turn". `GET /api/seating?seats=1,2,3` says whether the
table's geometry lets every gun tell those players apart (companion.tablesim.advice) and
suggests a seating that does. Both need the Godfather's session: only the control pages
use them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request

from companion.dashboard.access import is_controller
from companion.dashboard.pages import render
from companion.dashboard.settings import DashboardSettings, TableTop
from companion.referee.readings import SEES
from companion.referee.table import Table
from companion.tablesim.advice import STANCES, needed_separation, seating_check, seating_verdict
from companion.tablesim.geometry import GRIPS

RECT_SUGGESTION = re.compile(r"seat ([0-9+]+) ")
ROUND_SUGGESTION = re.compile(r"round table of ([0-9.]+) m for ([0-9]+) ")


def table_top(table: Table, settings: DashboardSettings) -> TableTop | None:
    """The configured table top, else the simulated table's, else unknown."""
    if settings.table is not None:
        return settings.table
    sim = table.simulator.settings.sim if table.simulator is not None else None
    if sim is None or not sim.guns:
        return None
    return TableTop(sim.shape, sim.size_m, sim.seating)


def parse_seats(text: str) -> list[int] | None:
    """'1,2,3' -> [1, 2, 3]: two to eight distinct seats from 1 to 8, else None."""
    parts = text.split(",")
    if not all(p.strip().isdigit() for p in parts):
        return None
    seats = sorted(int(p) for p in parts)
    ok = 2 <= len(seats) <= 8 and len(set(seats)) == len(seats) and all(
        1 <= s <= 8 for s in seats)
    return seats if ok else None


def seating_report(top: TableTop, seats: list[int]) -> dict[str, Any]:
    """Warnings for these seats round this table, in seat numbers, with a suggestion.

    The table's places are numbered round it; the players sit in them in seat order. A
    rectangle's configured seating applies when it seats this many players; else they
    are spread over the two long sides."""
    fits = top.shape == "rect" and top.seating is not None and sum(
        map(int, top.seating.split("+"))) == len(seats)
    arrangement = top.seating if fits else None
    place = dict(enumerate(seats, start=1))
    found = _check(top.shape, top.size_m, arrangement or len(seats), top.grip)
    warnings = [{"gun": place[w.gun], "targets": [place[s] for s in w.targets],
                 "separation_deg": w.separation_deg, "grips": list(w.grips),
                 "stances": list(w.stances)} for w in found]
    hidden = [top.grip] if top.grip is not None and GRIPS[top.grip].hides_badge else []
    return {"table": {"shape": top.shape, "size_m": top.size_m, "seating": arrangement,
                      "grip": top.grip},
            "seats": seats, "needed_deg": round(needed_separation(), 1), "warnings": warnings,
            "hidden_badges": hidden,
            "verdict": seating_verdict(top.shape, top.size_m, arrangement or len(seats),
                                       top.grip, found),
            "suggestion": _suggestion(found[0].suggestion) if found else None}


def judgement(top: TableTop, seats: list[int]) -> dict[str, str]:
    """The seating check's verdict on a new game's seats, with a sentence saying why, for
    the referee's new_game (Table.seating_check): it refuses on "refuse" and, unless the
    Godfather confirms, on "warn"."""
    report = seating_report(top, seats)
    verdict = report["verdict"]
    if verdict == "ok":
        return {"verdict": "ok", "why": ""}
    table = report["table"]
    where = (f"seats {', '.join(map(str, seats))} at this {top.size_m:.1f} m "
             f"{'rectangle' if top.shape == 'rect' else 'round table'}"
             + (f" seated {table['seating']}" if table["seating"] else "")
             + (f", played with the gun held {top.grip}" if top.grip else ""))
    if report["hidden_badges"]:
        reason = f"the grip {report['hidden_badges'][0]} covers each holder's own badge"
    else:
        w = report["warnings"][0]
        stances = " or ".join(STANCES[s] for s in w["stances"])
        reason = (f"seat {w['gun']}'s gun barely receives seat {w['targets'][0]}'s badge"
                  if w["separation_deg"] is None else
                  f"from seat {w['gun']}, seats {w['targets'][0]} and {w['targets'][1]} "
                  f"are only {w['separation_deg']:.0f}° apart (needs "
                  f"{report['needed_deg']:.0f}°)") + f" ({stances})"
    found = _check(top.shape, top.size_m, table["seating"] or len(seats), top.grip)
    fix = f"; what works: {found[0].suggestion}" if found and found[0].suggestion else ""
    if verdict == "refuse":
        return {"verdict": verdict,
                "why": f"The seating check refuses {where}: {reason}{fix}."}
    return {"verdict": verdict,
            "why": f"The seating check warns of {where}: {reason}{fix}. Confirm the "
                   "seating (confirm_seating: true) to start anyway."}


def seating_judge(table: Table, settings: DashboardSettings
                  ) -> Callable[[list[int]], dict[str, str]]:
    """Table.seating_check for this dashboard: the configured or simulated table top's
    judgement of a new game's seats (none where the table top is unknown)."""
    def judge(seats: list[int]) -> dict[str, str]:
        top = table_top(table, settings)
        return {"verdict": "ok", "why": ""} if top is None else judgement(top, seats)
    return judge


@lru_cache(maxsize=64)
def _check(shape: str, size_m: float, seats: str | int, grip: str | None) -> tuple[Any, ...]:
    return tuple(seating_check(shape, size_m, seats, grip=grip))  # every pair's optics: cached


def _suggestion(text: str | None) -> dict[str, Any] | None:
    """advice's suggestion (the same for every warning) as data, for each page language."""
    if text is None:
        return None
    if m := ROUND_SUGGESTION.search(text):
        return {"shape": "round", "size_m": float(m.group(1)), "players": int(m.group(2))}
    if m := RECT_SUGGESTION.match(text):
        return {"shape": "rect", "seating": m.group(1)}
    return {"text": text}


def calibrate_blueprint(table: Table, settings: DashboardSettings) -> Blueprint:
    bp = Blueprint("calibrate", __name__)

    def need_control() -> None:
        if not is_controller():
            abort(401, "the table PIN is needed: log in on the Godfather's page")

    @bp.get("/calibrate")
    def page() -> str:
        if not is_controller():
            return render("login.html")
        return render("calibrate.html")

    @bp.get("/api/ir-matrix")
    def ir_matrix() -> Response:
        need_control()
        view = table.view()
        matrix = table.readings.matrix.shares(view.now_ms)
        locks = dict(table.readings.locks)
        names = view.game.player_at if view.game else table.settings.names
        matrix.update(locks={s: locks.get(s, 0) for s in matrix["seats"]},
                      names={s: names[s] for s in matrix["seats"] if s in names},
                      seen=[[share >= SEES for share in row] for row in matrix["shares"]])
        return jsonify(matrix)

    @bp.get("/api/seating")
    def seating() -> Response | tuple[Response, int]:
        need_control()
        text = request.args.get("seats")
        seats = parse_seats(text) if text else list(table.readings.matrix.seats) or None
        if seats is None:
            return jsonify({"error": "seats: two to eight seats, e.g. 1,2,3,4"}), 400
        top = table_top(table, settings)
        if top is None:
            return jsonify({"table": None, "seats": seats, "warnings": []})
        return jsonify(seating_report(top, seats))

    return bp
