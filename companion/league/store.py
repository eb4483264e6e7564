"""The league's records: players, games and results, rated as they are accepted.

SQLite by default (one file, nothing to install), PostgreSQL when `league.database` names
it; the same code for both through SQLAlchemy Core (schema.py). Writes are serialised by
one lock: the league has one writer (its result worker) and the organiser's rare
decisions. A game is stored once, known by its uid or by its content (the seeds and
actions it replays to, whatever game number, tag or table a copy claims); a second copy is
answered with the first's fate. Games are rated in the order the league received them; a
decision of the organiser (flag, void, restore) rates every accepted game again in that
order.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, create_engine, event, func, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.engine.url import make_url

from companion.league import rating
from companion.league.result import Claim
from companion.league.schema import (
    ACCEPTED,
    FLAGGED,
    VOIDED,
    games,
    migrate,
    players,
    results,
)
from companion.league.verify import Placing, Verdict

DECISIONS = {"flag": FLAGGED, "void": VOIDED, "restore": ACCEPTED}


class StoreError(RuntimeError):
    """A decision the records cannot take (a mismatch restored, an unknown game)."""


@dataclass(frozen=True)
class Stored:
    id: int
    uid: str
    status: str
    new: bool  # False: the league had it already


def engine_for(url: str) -> Engine:
    """An engine for a `league.database` URL; SQLite in WAL mode, every commit on disk."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(parsed)

    @event.listens_for(engine, "connect")
    def pragmas(dbapi: Any, _record: Any) -> None:
        cur = dbapi.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON",
                       "busy_timeout=5000"):
            cur.execute(f"PRAGMA {pragma}")
        cur.close()

    return engine


class Store:
    def __init__(self, url: str) -> None:
        self.engine = engine_for(url)
        self.url = self.engine.url.render_as_string(hide_password=True)
        self._lock = threading.Lock()
        with self.engine.begin() as conn:
            self.migrated = migrate(conn)
            if 3 in self.migrated:  # (it may have voided copies stored before v2)
                self._rate_all(conn)

    def close(self) -> None:
        self.engine.dispose()

    # -- results in --------------------------------------------------------------------

    def status_of(self, uid: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(select(games.c.status).where(games.c.uid == uid)).scalar()

    def add(self, claim: Claim, verdict: Verdict, received_ms: float) -> Stored:
        """Store a game (rated if the replay agrees with the claim), once."""
        with self._lock, self.engine.begin() as conn:
            row = conn.execute(select(games.c.id, games.c.status).where(
                or_(games.c.uid == claim.uid, games.c.content == verdict.content))).first()
            if row is not None:
                return Stored(row.id, claim.uid, row.status, new=False)
            status = ACCEPTED if verdict.ok else FLAGGED
            game_id = conn.execute(insert(games).values(
                uid=claim.uid, table_id=claim.table, table_game=claim.game,
                ended_ms=int(claim.ended_ms), received_ms=int(received_ms), status=status,
                mismatch=not verdict.ok, problems=list(verdict.problems),
                claimed={"winners": list(claim.winners),
                         "players": [{"name": p.name, "seat": p.seat, "score": p.score,
                                      "alive": p.alive} for p in claim.players]},
                chart=verdict.chart, scenario=claim.scenario, content=verdict.content,
            ).returning(games.c.id)).scalar_one()
            if verdict.ok:
                self._rate_new(conn, game_id, verdict.placings, received_ms)
            return Stored(game_id, claim.uid, status, new=True)

    def _rate_new(self, conn: Connection, game_id: int, placings: tuple[Placing, ...],
                  now_ms: float) -> None:
        ids = [self._player_id(conn, p.name, now_ms) for p in placings]
        rows = {r.id: r for r in conn.execute(select(players).where(players.c.id.in_(ids)))}
        before = [(rows[i].mu, rows[i].sigma) for i in ids]
        places = rating.ranks(placings)
        after = rating.rate(before, places)
        for pid, p, place, b, a in zip(ids, placings, places, before, after, strict=True):
            conn.execute(insert(results).values(
                game_id=game_id, player_id=pid, seat=p.seat, power=p.power, alive=p.alive,
                wounds=p.wounds, score=p.score, winner=p.winner, place=place,
                mu_before=b[0], sigma_before=b[1], mu_after=a[0], sigma_after=a[1]))
            conn.execute(update(players).where(players.c.id == pid).values(
                mu=a[0], sigma=a[1], games=players.c.games + 1,
                wins=players.c.wins + int(p.winner)))

    def _player_id(self, conn: Connection, name: str, now_ms: float) -> int:
        """The player's id; a name the league has not seen joins the roster."""
        found = conn.execute(select(players.c.id).where(players.c.name == name)).scalar()
        if found is not None:
            return int(found)
        return int(conn.execute(insert(players).values(
            name=name, joined_ms=int(now_ms), mu=rating.START[0], sigma=rating.START[1],
            games=0, wins=0).returning(players.c.id)).scalar_one())

    # -- the organiser -----------------------------------------------------------------

    def decide(self, game_id: int, decision: str, note: str | None) -> str:
        """Flag, void or restore a game, and rate every accepted game again; the status."""
        status = DECISIONS.get(decision)
        if status is None:
            raise StoreError(f"decision: one of {', '.join(DECISIONS)}, not {decision!r}")
        with self._lock, self.engine.begin() as conn:
            row = conn.execute(select(games.c.status, games.c.mismatch)
                               .where(games.c.id == game_id)).first()
            if row is None:
                raise StoreError(f"no game {game_id} in the league")
            if status == ACCEPTED and row.mismatch:
                raise StoreError(f"game {game_id} does not replay as its table claimed: it "
                                 "is never rated")
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(status=status, note=note))
            if status != row.status:
                self._rate_all(conn)
            return status

    def _rate_all(self, conn: Connection) -> None:
        """Every accepted game again, in the order received, from the starting rating."""
        now: dict[int, tuple[float, float]] = {}
        played: dict[int, list[int]] = {}  # player -> [games, wins]
        conn.execute(update(results).values(mu_before=None, sigma_before=None,
                                            mu_after=None, sigma_after=None))
        accepted = select(games.c.id).where(games.c.status == ACCEPTED).order_by(games.c.id)
        for (game_id,) in conn.execute(accepted).all():
            rows = conn.execute(select(results).where(results.c.game_id == game_id)
                                .order_by(results.c.seat)).all()
            before = [now.get(r.player_id, rating.START) for r in rows]
            after = rating.rate(before, [r.place for r in rows])
            for r, b, a in zip(rows, before, after, strict=True):
                now[r.player_id] = a
                count = played.setdefault(r.player_id, [0, 0])
                count[0] += 1
                count[1] += int(r.winner)
                conn.execute(update(results).where(results.c.game_id == game_id,
                                                   results.c.player_id == r.player_id)
                             .values(mu_before=b[0], sigma_before=b[1], mu_after=a[0],
                                     sigma_after=a[1]))
        for (pid,) in conn.execute(select(players.c.id)).all():
            mu, sigma = now.get(pid, rating.START)
            n, wins = played.get(pid, [0, 0])
            conn.execute(update(players).where(players.c.id == pid)
                         .values(mu=mu, sigma=sigma, games=n, wins=wins))

    # -- reading -----------------------------------------------------------------------

    def roster(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(select(players.c.name).order_by(players.c.name)).scalars())

    def standings(self) -> list[dict[str, Any]]:
        """Players with a rated game, best first (by openskill's ordinal)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(players).where(players.c.games > 0)).all()
        out = [{"id": r.id, "name": r.name, "rating": round(rating.ordinal(r.mu, r.sigma), 3),
                "mu": r.mu, "sigma": r.sigma, "games": r.games, "wins": r.wins} for r in rows]
        out.sort(key=lambda p: (-p["rating"], p["name"]))
        return out

    def counts(self) -> dict[str, int]:
        with self.engine.connect() as conn:
            return {status: n for status, n in conn.execute(
                select(games.c.status, func.count()).group_by(games.c.status))}

    def games(self, limit: int = 30) -> list[dict[str, Any]]:
        """The latest games received, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games.c.id, games.c.uid, games.c.table_id,
                                       games.c.ended_ms, games.c.status, games.c.chart,
                                       games.c.problems).order_by(games.c.id.desc())
                                .limit(limit)).all()
        return [{"id": r.id, "uid": r.uid, "table": r.table_id, "ended_ms": r.ended_ms,
                 "status": r.status, "winners": r.chart["winners"] if r.chart else [],
                 "problems": r.problems} for r in rows]  # the replay's winners, not claims

    def game(self, game_id: int) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            g = conn.execute(select(games).where(games.c.id == game_id)).first()
            if g is None:
                return None
            rows = conn.execute(select(results, players.c.name)
                                .join(players, players.c.id == results.c.player_id)
                                .where(results.c.game_id == game_id)
                                .order_by(results.c.place, results.c.seat)).all()
        return {
            "id": g.id, "uid": g.uid, "table": g.table_id, "table_game": g.table_game,
            "ended_ms": g.ended_ms, "received_ms": g.received_ms, "status": g.status,
            "mismatch": g.mismatch, "problems": g.problems, "claimed": g.claimed,
            "chart": g.chart, "note": g.note,
            "results": [{"player_id": r.player_id, "name": r.name, "place": r.place,
                         "score": r.score, "alive": r.alive, "winner": r.winner,
                         "change": _change(r)} for r in rows],
        }

    def scenario(self, game_id: int) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(select(games.c.scenario).where(games.c.id == game_id)).scalar()

    def player(self, player_id: int) -> dict[str, Any] | None:
        """A player's rating and every game of theirs, newest first."""
        with self.engine.connect() as conn:
            p = conn.execute(select(players).where(players.c.id == player_id)).first()
            if p is None:
                return None
            rows = conn.execute(select(results, games.c.table_id, games.c.ended_ms,
                                       games.c.status)
                                .join(games, games.c.id == results.c.game_id)
                                .where(results.c.player_id == player_id)
                                .order_by(games.c.id.desc())).all()
        return {"id": p.id, "name": p.name, "rating": round(rating.ordinal(p.mu, p.sigma), 3),
                "mu": p.mu, "sigma": p.sigma, "games": p.games, "wins": p.wins,
                "history": [{"game": r.game_id, "table": r.table_id, "ended_ms": r.ended_ms,
                             "status": r.status, "place": r.place, "score": r.score,
                             "winner": r.winner, "alive": r.alive, "change": _change(r)}
                            for r in rows]}


def _change(row: Any) -> float | None:
    """How much the game moved the player's rating (ordinal); None when it was not rated."""
    if row.mu_after is None:
        return None
    return round(rating.ordinal(row.mu_after, row.sigma_after)
                 - rating.ordinal(row.mu_before, row.sigma_before), 3)
