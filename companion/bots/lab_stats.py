"""The balance lab's figures, from the game records: plain data, written as JSON as is and
drawn by the HTML report.

A rate comes with its 95 % Wilson score interval. A win shared by k players counts 1/k
for each, so the win rates of a table add up to the share of games with a winner.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from companion.bots.lab import GameRecord, Plan
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


def _seat_rows(records: list[GameRecord], key: Callable[[int, dict[str, Any]], Any],
               order: Iterable[Any] | None = None) -> list[dict[str, Any]]:
    """Win rates of the seats grouped by `key(seat, seat record)`."""
    n: Counter[Any] = Counter()
    wins: dict[Any, float] = {}
    for r in records:
        share = 1 / len(r["winners"]) if r["winners"] else 0.0
        for seat, s in enumerate(r["seats"]):
            k = key(seat, s)
            n[k] += 1
            if seat in r["winners"]:
                wins[k] = wins.get(k, 0.0) + share
    keys = list(order) if order is not None else sorted(n, key=lambda k: -wins.get(k, 0.0) / n[k])
    return [rate_row(str(k), wins.get(k, 0.0), n[k]) for k in keys if n[k]]


def _histogram(values: list[int], step: int) -> list[dict[str, int]]:
    if not values:
        return []
    counts = Counter(v // step for v in values)
    return [{"from": b * step, "to": (b + 1) * step, "count": counts[b]}
            for b in range(max(counts) + 1)]


def summarize(plan: Plan, records: list[GameRecord], summaries: dict[str, str],
              ) -> dict[str, Any]:
    """Every figure of the report, as JSON-ready data."""
    games = len(records)
    seats = [s for r in records for s in r["seats"]]
    survivors = [s["total"] for s in seats if s["alive"]]
    winners = [r["seats"][w]["total"] for r in records for w in r["winners"]]
    deaths_per_game = Counter(sum(not s["alive"] for s in r["seats"]) for r in records)
    death_rounds = Counter(s["died"] for s in seats if s["died"] is not None)
    endings = Counter(r["end"] for r in records)
    return {
        "plan": {"games": plan.games, "players": plan.players, "styles": list(plan.styles),
                 "seed": plan.seed, "powers": plan.powers, "cards": plan.cards,
                 "playouts": plan.playouts},
        "styles": {s: summaries[s] for s in dict.fromkeys(plan.styles)},
        "even_share": 1 / plan.players,
        "averages": {
            "rounds": sum(r["rounds"] for r in records) / games,
            "deaths": sum(not s["alive"] for s in seats) / games,
            "actions": sum(r["actions"] for r in records) / games,
        },
        "by_power": _seat_rows(records, lambda _, s: s["power"]) if plan.powers else [],
        "by_seat": _seat_rows(records, lambda seat, _: seat + 1, range(1, plan.players + 1)),
        "by_style": _seat_rows(records, lambda _, s: s["style"]),
        "wealth": {"step": WEALTH_STEP, "survivors": _histogram(survivors, WEALTH_STEP),
                   "winners": _histogram(winners, WEALTH_STEP)},
        "deaths": {
            "per_game": [{"deaths": k, "games": deaths_per_game[k]}
                         for k in range(plan.players + 1)],
            "by_round": [{"round": k, "deaths": death_rounds[k]} for k in range(1, ROUNDS + 1)],
            "by_power": _death_rows(seats) if plan.powers else [],
        },
        "decided_by": {
            "endings": [{"end": e, "games": endings[e], "share": endings[e] / games}
                        for e in ENDINGS],
            "diamond_bonus": {"games": sum(r["bonus_decided"] for r in records),
                              "held": sum(any(s["bonus"] for s in r["seats"]) for r in records),
                              "bonus_holder_won": sum(
                                  any(r["seats"][w]["bonus"] for w in r["winners"])
                                  for r in records)},
        },
        "godfather": _godfather(records),
    }


def _death_rows(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    n: Counter[str] = Counter(s["power"] for s in seats)
    dead: Counter[str] = Counter(s["power"] for s in seats if not s["alive"])
    rows = [rate_row(p, dead[p], n[p]) for p in n]
    return sorted(rows, key=lambda row: -row["rate"])


def _godfather(records: list[GameRecord]) -> dict[str, Any]:
    """The New Godfather token (R12): how often it is taken, and how its takers fare."""
    rounds = sum(r["rounds"] for r in records)
    taken = sum(s["tokens"] for r in records for s in r["seats"])

    def tokens(_: int, s: dict[str, Any]) -> str:
        return str(min(s["tokens"], 3)) + ("+" if s["tokens"] >= 3 else "")

    def desk(_: int, s: dict[str, Any]) -> str:
        return str(min(s["godfather"], 4)) + ("+" if s["godfather"] >= 4 else "")

    return {
        "rounds": rounds, "token_taken": taken, "taken_share": taken / rounds if rounds else 0,
        "by_tokens": _seat_rows(records, tokens, ["0", "1", "2", "3+"]),
        "by_rounds_as_godfather": _seat_rows(records, desk, ["0", "1", "2", "3", "4+"]),
    }


def style_summaries(styles: dict[str, type[Bot]]) -> dict[str, str]:
    return {name: bot.summary for name, bot in styles.items()}
