"""The league's database: its tables (SQLAlchemy Core) and the migrations that make them.

One schema for SQLite and PostgreSQL: SQLAlchemy Core writes each dialect's DDL and SQL
from the same table objects. Migrations are numbered functions run in order, each in the
transaction that records it in `league_migrations` (both databases roll DDL back), so a
database is always at a version the code knows; a newer one is refused. Why not Alembic:
for a handful of tables it would add Mako, an env.py and a folder of scripts to what one
list here does (docs/LEAGUE.md).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    inspect,
    select,
    text,
    update,
)

from companion.clock import SYSTEM_CLOCK, Clock
from companion.league.verify import stored_content

NAME = 24  # a player's name, as a table takes it (companion.schema.MAX_NAME)
metadata = MetaData()

ACCEPTED, FLAGGED, VOIDED = "accepted", "flagged", "voided"  # a game's status

migrations_table = Table(
    "league_migrations", metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("applied_ms", BigInteger, nullable=False),
)

players = Table(
    "players", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(NAME), nullable=False, unique=True),
    Column("joined_ms", BigInteger, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False, default=0),  # rated games
    Column("wins", Integer, nullable=False, default=0),
)

games = Table(
    "games", metadata,
    Column("id", Integer, primary_key=True),  # the order games are rated in
    Column("uid", String(64), nullable=False, unique=True),  # <table>.<journal tag>.<game>
    Column("table_id", String(32), nullable=False),
    Column("table_game", Integer, nullable=False),
    Column("ended_ms", BigInteger, nullable=False),  # the table's clock
    Column("received_ms", BigInteger, nullable=False),  # the league's
    Column("status", String(16), nullable=False),  # accepted, flagged, voided
    Column("mismatch", Boolean, nullable=False),  # the replay disagreed: never rated
    Column("problems", JSON, nullable=False),  # why flagged: sentences
    Column("claimed", JSON, nullable=False),  # the table's winners and scores
    Column("chart", JSON),  # the end chart, from the replay
    Column("scenario", Text, nullable=False),  # the whole game, as the table sent it
    Column("note", Text),  # the organiser's, when flagging or voiding
    Column("content", String(64)),  # verify.content_key: a game is stored once (v2)
)

results = Table(
    "results", metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("power", String(16)),
    Column("alive", Boolean, nullable=False),
    Column("wounds", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("winner", Boolean, nullable=False),
    Column("place", Integer, nullable=False),  # 1 = first; equal places tie
    Column("mu_before", Float), Column("sigma_before", Float),  # NULL while not rated
    Column("mu_after", Float), Column("sigma_after", Float),
)
Index("results_by_player", results.c.player_id, results.c.game_id)
Index("games_by_table", games.c.table_id, games.c.id)
BY_CONTENT = Index("games_by_content", games.c.content, unique=True)


def _v1(conn: Connection) -> None:
    """Players, games with their scenario and verdict, each player's result in a game."""
    for table in (players, games, results):
        table.create(conn)


def _v2(conn: Connection) -> None:
    """Games known by their content (the seeds and actions they replay to), stored once
    whatever number, tag or table they claim. (A database made at v1 lacks the column.)"""
    if "content" not in {c["name"] for c in inspect(conn).get_columns("games")}:
        conn.execute(text("ALTER TABLE games ADD COLUMN content VARCHAR(64)"))
        BY_CONTENT.create(conn)


def _v3(conn: Connection) -> None:
    """The games stored before v2 get their content key; a later copy of a game already
    stored is voided, with a note naming the first (the store rates everything again)."""
    seen: dict[str, str] = {row.content: row.uid for row in conn.execute(
        select(games.c.content, games.c.uid).where(games.c.content.is_not(None)))}
    for row in conn.execute(select(games.c.id, games.c.uid, games.c.scenario)
                            .where(games.c.content.is_(None)).order_by(games.c.id)).all():
        key = stored_content(row.scenario, row.uid)
        if key in seen:
            conn.execute(update(games).where(games.c.id == row.id).values(
                status=VOIDED, note=f"the same game as {seen[key]}: counted once"))
        else:
            seen[key] = row.uid
            conn.execute(update(games).where(games.c.id == row.id).values(content=key))


MIGRATIONS: list[tuple[int, Callable[[Connection], None]]] = [(1, _v1), (2, _v2), (3, _v3)]
LATEST = MIGRATIONS[-1][0]


class SchemaError(RuntimeError):
    """The database is of a newer league than this one: a sentence saying so."""


def migrate(conn: Connection, clock: Clock = SYSTEM_CLOCK) -> list[int]:
    """Bring the database to the latest version in this transaction; the versions run
    (each with when it ran, on `clock`)."""
    if not inspect(conn).has_table(migrations_table.name):
        migrations_table.create(conn)
    done = {v for (v,) in conn.execute(select(migrations_table.c.version))}
    if done and max(done) > LATEST:
        raise SchemaError(f"the league database is at version {max(done)}, newer than this "
                          f"companion's {LATEST}: update the companion")
    ran = []
    for version, step in MIGRATIONS:
        if version not in done:
            step(conn)
            conn.execute(insert(migrations_table).values(
                version=version, applied_ms=int(clock.now_ms())))
            ran.append(version)
    return ran


def version(conn: Connection) -> int:
    return int(conn.execute(text("SELECT MAX(version) FROM league_migrations")).scalar() or 0)
