"""The night at a table: its standings across games and a few awards, from the journal.

A night is every game the journal kept since the Godfather last ended a night (its first
game's number is kept in the journal's `meta` table, so a restart keeps the night). Each
finished game is replayed from its setup and actions, the way the referee resumes one, so
the standings come from the rules' own count and events, never from what a page showed; an
abandoned game counts for nothing. Pure summaries (`summarize`, `night`) and the edge that
reads the journal (`Evening`) with its two routes.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, jsonify

from companion.dashboard.access import require_control_post
from companion.referee.game import engine_setup
from companion.referee.journal import Journal, JournalError
from companion.referee.table import Table
from companion.rules import GameState, apply_in_place, new_game
from companion.rules.events import Eliminated, Lucky, RoundBegun, Wounded
from companion.rules.scoring import scores

LOG = logging.getLogger(__name__)
NIGHT_KEY = "night_first_game"  # the journal's meta row: the night's first game number


@dataclass(frozen=True)
class GameSummary:
    """What a finished game adds to the night."""

    game: int
    loot: dict[str, int]  # player -> the final count's total
    winners: tuple[str, ...]
    survived: dict[str, int]  # player -> Bang! cards that hit them and left them in the game
    godfather_rounds: dict[str, int]  # player -> rounds begun as the Godfather


def summarize(game: int, s: GameState) -> GameSummary:
    """A finished game's part of the night (`s` over)."""
    out = {e.player for e in s.events if isinstance(e, Eliminated)}
    survived: Counter[str] = Counter()
    for e in s.events:
        if isinstance(e, Wounded | Lucky) and e.player not in out:
            survived[e.player] += len(e.by)
    return GameSummary(
        game=game,
        loot={p.name: total["total"] for p, total in zip(s.players, scores(s), strict=True)},
        winners=tuple(s.winners),
        survived=dict(survived),
        godfather_rounds=dict(Counter(e.godfather for e in s.events
                                      if isinstance(e, RoundBegun))))


def _best(counts: dict[str, int]) -> dict[str, Any] | None:
    """The award's holders (all of those tied) and their figure; None when nobody scored."""
    top = max(counts.values(), default=0)
    if top <= 0:
        return None
    return {"names": sorted(n for n, v in counts.items() if v == top), "value": top}


def night(games: list[GameSummary]) -> dict[str, Any]:
    """The standings (most wins, then most loot, then by name) and the awards."""
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    loot: Counter[str] = Counter()
    survived: Counter[str] = Counter()
    godfather: Counter[str] = Counter()
    one_game: dict[str, int] = {}
    for g in games:
        played.update(g.loot.keys())
        wins.update(g.winners)
        loot.update(g.loot)
        survived.update(g.survived)
        godfather.update(g.godfather_rounds)
        for name, total in g.loot.items():
            one_game[name] = max(one_game.get(name, 0), total)
    order = sorted(played, key=lambda n: (-wins[n], -loot[n], n))
    standings = [{"name": n, "played": played[n], "wins": wins[n], "loot": loot[n]}
                 for n in order]
    awards = {"survivor": _best(dict(survived)), "godfather": _best(dict(godfather)),
              "haul": _best(one_game)}
    return {"games": len(games), "standings": standings,
            "awards": [{"award": k, **v} for k, v in awards.items() if v is not None]}


class Evening:
    """The journal's night: its games summarized once each (a finished game is replayed
    again only when its actions change: an undo after the end, a recount)."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._lock = threading.Lock()
        self._cache: dict[int, tuple[tuple[int, int], GameSummary | None]] = {}
        self._first: int | None = None  # the night's first game, read once from the journal

    def first_game(self) -> int:
        if self._first is None:
            with self.journal.transaction() as db:
                row = db.execute("SELECT value FROM meta WHERE key = ?",
                                 (NIGHT_KEY,)).fetchone()
            self._first = int(row[0]) if row else 0
        return self._first

    def state(self) -> dict[str, Any]:
        first = self.first_game()
        with self.journal.transaction() as db:  # (read in one go: what each game holds now)
            marks = {int(g): (int(n), int(last)) for g, n, last in db.execute(
                "SELECT game, COUNT(*), MAX(seq) FROM action WHERE undone = 0 GROUP BY game")}
        summaries = [self._summary(game, marks.get(game, (0, 0)))
                     for game, finished, _ in self.journal.games() if finished and game >= first]
        return night([s for s in summaries if s is not None])

    def _summary(self, game: int, mark: tuple[int, int]) -> GameSummary | None:
        """`mark`: how many actions the game has in force and the last one's number (an
        undo, a recount: a new mark)."""
        with self._lock:
            kept = self._cache.get(game)
        if kept is not None and kept[0] == mark:
            return kept[1]
        s = new_game(engine_setup(self.journal.setup(game)))
        for entry in self.journal.entries(game):
            apply_in_place(s, entry.action)
        made = summarize(game, s) if s.over else None  # (abandoned: not counted)
        with self._lock:
            self._cache[game] = (mark, made)
        return made

    def end_night(self) -> int:
        """The next night begins with the next game (or the one in play): its number."""
        latest = self.journal.latest_game()
        first = 1 if latest is None else latest[0] + 1 if latest[1] else latest[0]
        with self.journal.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                       (NIGHT_KEY, str(first)))
        self._first = first
        LOG.info("the night ended by the Godfather: the next night begins with game %d", first)
        return first


def evening_blueprint(table: Table) -> Blueprint:
    """`GET /api/evening`: the night's standings and awards (public, like the final
    counts); `POST /api/evening/end`: the Godfather ends the night (session and CSRF)."""
    bp = Blueprint("evening", __name__, url_prefix="/api/evening")
    evening = Evening(table.journal)

    @bp.get("")
    def standings() -> Response:
        try:
            return jsonify(evening.state())
        except JournalError as e:  # (the card went read-only, ...: the game goes on)
            abort(503, str(e))

    @bp.post("/end")
    def end() -> Response:
        require_control_post()
        try:
            return jsonify({"ok": True, "first_game": evening.end_night(), **evening.state()})
        except JournalError as e:
            abort(503, f"the night goes on: {e}")

    return bp
