"""The league's fixtures: its database on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from ports import free_port
from postgres import Postgres, running_postgres  # tests/league/postgres.py
from venue import Venue, start_league

from companion.bus.broker import mosquitto_binary

TABLES = ("cafe-1", "cafe-2", "cafe-3")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    yield from running_postgres(free_port())


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    """The league's database URL: a file of SQLite, or a new database on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'league.sqlite3'}"
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture
def venue(tmp_path) -> Iterator[Venue]:
    """The venue's Mosquitto for tables cafe-1 to cafe-3, as `companion league` runs it."""
    if mosquitto_binary() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    broker = Venue(tmp_path / "venue", TABLES)
    yield broker
    broker.stop()


@pytest.fixture
def venue_page(browser, venue, tmp_path):
    """`venue_page(path, lang="en")`: a page of a league on SQLite, which fails the test if
    it logs an error it was not told to expect; the league is `venue_page.league`."""
    running = start_league(venue, f"sqlite:///{tmp_path / 'league.sqlite3'}", TABLES)
    contexts, errors = [], []

    def open_(path: str, lang: str = "en", expected_errors: tuple[str, ...] = ()):
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=lang,
                                       extra_http_headers={"Accept-Language": lang})
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: m.type in ("error", "warning") and not any(
            e in m.text for e in expected_errors) and errors.append(f"{path}: {m.text}"))
        page.on("pageerror", lambda e: errors.append(f"{path}: {e}"))
        page.set_default_timeout(10_000)
        page.goto(running.url + path)
        return page

    open_.league = running
    yield open_
    for context in contexts:
        context.close()
    running.stop()
    assert not errors, "errors on the venue pages:\n" + "\n".join(errors)
