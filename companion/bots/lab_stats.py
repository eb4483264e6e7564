"""The balance lab's figures, from the lab's store (lab_store.py) by SQL aggregates, so a
report over a million games needs no more memory than one over a hundred: plain data,
written as JSON as is and drawn by the HTML report.

A rate comes with its 95 % Wilson score interval. A win shared by k players counts 1/k
for each, so the win rates of a table add up to the share of games with a winner.
"""

from __future__ import annotations

import math
import sqlite3
from collections import Counter
from collections.abc import Iterable
from typing import Any

from companion.bots.lab import Plan
from companion.bots.styles import Bot
from companion.rules.cards import ROUNDS

Z95 = 1.959964
WEALTH_STEP = 20_000  # the width of a bar of the wealth histograms
ENDINGS = ("richest", "tiebreak", "shared", "last_standing", "no_winner")


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def rate_row(label: str, wins: float, n: int) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {"label": label, "n": n, "wins": round(wins, 4), "rate": wins / n if n else 0.0,
            "low": low, "high": high}


def _seat_rows(db: sqlite3.Connection, key: str, order: Iterable[Any] | None = None,
               ) -> list[dict[str, Any]]:
    """Win rates of the seats grouped by the SQL expression `key` over `seats`. The wins of
    each group are summed by number of winners, exactly, whatever order rows were written."""
    n: Counter[str] = Counter()
    wins: dict[str, float] = {}
    for k, n_winners, seats, won in db.execute(
            f"SELECT {key} AS k, n_winners, count(*), sum(won) FROM seats "
            "JOIN games USING (game) GROUP BY k, n_winners ORDER BY k, n_winners"):
        n[str(k)] += seats
        if n_winners:
            wins[str(k)] = wins.get(str(k), 0.0) + won / n_winners
    keys = ([str(k) for k in order] if order is not None
            else sorted(n, key=lambda k: (-wins.get(k, 0.0) / n[k], k)))
    return [rate_row(k, wins.get(k, 0.0), n[k]) for k in keys if n[k]]


def _histogram(db: sqlite3.Connection, where: str, step: int) -> list[dict[str, int]]:
    counts = dict(db.execute(f"SELECT total / {step}, count(*) FROM seats WHERE {where} "
                             "GROUP BY 1"))
    return [{"from": b * step, "to": (b + 1) * step, "count": counts.get(b, 0)}
            for b in range(max(counts) + 1)] if counts else []


def _one(db: sqlite3.Connection, sql: str) -> Any:
    return db.execute(sql).fetchone()[0] or 0


def summarize(plan: Plan, db: sqlite3.Connection, summaries: dict[str, str]) -> dict[str, Any]:
    """Every figure of the report, as JSON-ready data, from a lab store's tables."""
    games, rounds, deaths, actions = db.execute(
        "SELECT count(*), sum(rounds), sum(deaths), sum(actions) FROM games").fetchone()
    deaths_per_game = dict(db.execute("SELECT deaths, count(*) FROM games GROUP BY deaths"))
    death_rounds = dict(db.execute(
        "SELECT died, count(*) FROM seats WHERE died IS NOT NULL GROUP BY died"))
    endings = dict(db.execute("SELECT ending, count(*) FROM games GROUP BY ending"))
    return {
        "plan": {"games": games, "players": plan.players, "styles": list(plan.styles),
                 "seed": plan.seed, "powers": plan.powers, "cards": plan.cards,
                 "playouts": plan.playouts},
        "styles": {s: summaries[s] for s in dict.fromkeys(plan.styles)},
        "even_share": 1 / plan.players,
        "averages": {"rounds": rounds / games, "deaths": deaths / games,
                     "actions": actions / games},
        "by_power": _seat_rows(db, "power") if plan.powers else [],
        "by_seat": _seat_rows(db, "seat", range(1, plan.players + 1)),
        "by_style": _seat_rows(db, "style"),
        "wealth": {"step": WEALTH_STEP, "survivors": _histogram(db, "alive", WEALTH_STEP),
                   "winners": _histogram(db, "won", WEALTH_STEP)},
        "deaths": {
            "per_game": [{"deaths": k, "games": deaths_per_game.get(k, 0)}
                         for k in range(plan.players + 1)],
            "by_round": [{"round": k, "deaths": death_rounds.get(k, 0)}
                         for k in range(1, ROUNDS + 1)],
            "by_power": _death_rows(db) if plan.powers else [],
        },
        "decided_by": {
            "endings": [{"end": e, "games": endings.get(e, 0), "share": endings.get(e, 0) / games}
                        for e in ENDINGS],
            "diamond_bonus": {
                "games": _one(db, "SELECT sum(bonus_decided) FROM games"),
                "held": _one(db, "SELECT count(DISTINCT game) FROM seats WHERE bonus"),
                "bonus_holder_won": _one(
                    db, "SELECT count(DISTINCT game) FROM seats WHERE bonus AND won")},
        },
        "godfather": _godfather(db, rounds),
    }


def _death_rows(db: sqlite3.Connection) -> list[dict[str, Any]]:
    rows = [rate_row(p, dead, n) for p, n, dead in db.execute(
        "SELECT power, count(*), sum(NOT alive) FROM seats GROUP BY power ORDER BY power")]
    return sorted(rows, key=lambda row: -row["rate"])


def _godfather(db: sqlite3.Connection, rounds: int) -> dict[str, Any]:
    """The New Godfather token (R12): how often it is taken, and how its takers fare."""
    taken = _one(db, "SELECT sum(tokens) FROM seats")
    return {
        "rounds": rounds, "token_taken": taken, "taken_share": taken / rounds if rounds else 0,
        "by_tokens": _seat_rows(
            db, "CASE WHEN tokens >= 3 THEN '3+' ELSE tokens END", ["0", "1", "2", "3+"]),
        "by_rounds_as_godfather": _seat_rows(
            db, "CASE WHEN godfather >= 4 THEN '4+' ELSE godfather END",
            ["0", "1", "2", "3", "4+"]),
    }


def style_summaries(styles: dict[str, type[Bot]]) -> dict[str, str]:
    return {name: bot.summary for name, bot in styles.items()}
