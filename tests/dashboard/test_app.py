"""The dashboard's routes with Flask's test client: access rules, headers, languages."""

from __future__ import annotations

import io
import re

import pytest
import segno

from companion.clock import SYSTEM_CLOCK
from companion.dashboard import WEB_DIR
from companion.dashboard.app import create_app
from companion.dashboard.settings import DashboardSettings
from companion.referee.commands import Auth
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table

PIN = "1357"


@pytest.fixture
def table(tmp_path):
    t = Table("unit", RefereeSettings(pin=PIN), Journal(tmp_path / "j.sqlite3"), SYSTEM_CLOCK)
    t.command({"type": "new_game", "version": t.version, "players": ["Ana", "Bob", "Cyd", "Dee"]},
              Auth(control=True))
    yield t
    t.journal.close()


@pytest.fixture
def client(table):
    return create_app(table, DashboardSettings()).test_client()


def login(client) -> str:
    r = client.post("/api/login", json={"pin": PIN})
    assert r.status_code == 200
    return r.json["csrf"]


def test_pages_are_served_with_strict_headers(client):
    for path in ("/", "/referee"):
        r = client.get(path)
        assert r.status_code == 200
        assert "default-src 'self'" in r.headers["Content-Security-Policy"]
        assert r.headers["X-Frame-Options"] == "DENY"
        assert r.headers["Referrer-Policy"] == "no-referrer"
    assert not client.application.debug


def test_control_needs_the_pin_and_a_phone_its_token(client, table):
    assert client.get("/api/events?view=control").status_code == 401
    assert client.get(f"/api/events?seat=1&token={table.access.seat_token(1)}").status_code \
        == 401  # the link alone streams nothing: the phone claims the seat first
    assert client.get("/seat/1?token=nope").status_code == 403
    assert client.get(f"/seat/1?token={table.access.seat_token(1)}").status_code == 200
    assert client.get("/referee/qr/1.svg").status_code == 401
    assert b'id="login"' in client.get("/referee").data
    login(client)
    assert b'id="setup"' in client.get("/referee").data
    qr = client.get("/referee/qr/1.svg")
    assert qr.status_code == 200 and qr.data.startswith(b"<?xml")


def test_a_phone_page_claims_its_seat_once_and_says_why_another_may_not(client, table):
    link = f"/seat/1?token={table.access.seat_token(1)}"
    page = client.get(link)  # the first phone: its script claims the seat with the link
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert f'data-token="{table.access.seat_token(1)}" data-csrf=""' in page.text
    claim = client.post("/api/claim", json={"seat": 1, "token": table.access.seat_token(1)})
    csrf = claim.json["csrf"]
    page = client.get("/seat/1")  # its cookie opens the page from now on, without the link
    assert page.status_code == 200 and f'data-token="" data-csrf="{csrf}"' in page.text
    other = create_app(table, DashboardSettings()).test_client()
    for path, status, state in ((link, 409, "taken"), ("/seat/1", 403, "bad"),
                                ("/api/events?seat=1", 401, None)):
        r = other.get(path)
        assert r.status_code == status
        assert state is None or f'class="message" data-state="{state}"' in r.text
    table.command({"type": "release", "seat": 1, "version": table.version}, Auth(control=True))
    r = client.get("/seat/1")
    assert r.status_code == 401 and 'data-state="released"' in r.text
    table.command({"type": "new_game", "version": table.version, "abandon": True,
                   "players": ["Eve", "Fay", "Gus", "Hal"]}, Auth(control=True))
    for phone in (client, other):
        r = phone.get(link)
        assert r.status_code == 403 and 'data-state="earlier"' in r.text
        assert "earlier game" in r.text


def test_a_seat_qr_code_holds_that_seats_phone_link(table):
    """The code is compared with the expected link encoded afresh (segno is deterministic);
    the link it holds opens that seat's phone view."""
    app = create_app(table, DashboardSettings(public_url="http://table.local:8080/"))
    client = app.test_client()
    login(client)
    link = f"http://table.local:8080/seat/3?token={table.access.seat_token(3)}"
    expected = io.BytesIO()
    segno.make(link, error="m").save(expected, kind="svg", scale=5, border=2, dark="#111")
    assert client.get("/referee/qr/3.svg").data == expected.getvalue()
    assert client.get(link.removeprefix("http://table.local:8080")).status_code == 200


def test_no_virtual_table_without_a_simulator(client):
    assert client.get("/sim").status_code == 404
    assert client.post("/api/sim", json={"command": "tip 1"}).status_code == 404


def test_commands_from_a_cookie_session_need_the_csrf_token(client, table):
    csrf = login(client)
    body = {"type": "pause", "version": table.version}
    assert client.post("/api/command", json=body).status_code == 403
    r = client.post("/api/command", json=body, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and table.paused


def test_the_language_comes_from_the_query_then_the_cookie_then_the_browser(client):
    assert b"Ce qui s&#39;est pass" in client.get("/?lang=fr").data
    assert b'<html lang="fr">' in client.get("/").data  # the cookie the switch left
    client.delete_cookie("lang")
    page = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert b'<html lang="de">' in page.data and b"Was geschah" in page.data
    client.delete_cookie("lang")
    assert b'<html lang="en">' in client.get("/", headers={"Accept-Language": "it"}).data


def test_every_asset_comes_from_this_server():
    external = re.compile(r"""(src|href)=["']?(https?:)?//""")
    for path in [*WEB_DIR.glob("templates/*.html"), *WEB_DIR.glob("static/**/*.*")]:
        if path.suffix in (".wav", ".png"):  # the spoken count, the app's icons: no links
            continue
        text = path.read_text(encoding="utf-8")
        assert not external.search(text), path
        assert "@import" not in text and "fonts.googleapis" not in text, path


@pytest.mark.parametrize("path", ["/seat/abc", "/nowhere", "/static/js/nothing.js"])
def test_an_unknown_page_says_so_in_the_tables_language(client, path):
    page = client.get(path, headers={"Accept-Language": "fr"})
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert '<p class="message">Cette page n&#39;existe pas ici.' in page.get_data(as_text=True)
    assert 'href="/"' in page.get_data(as_text=True) and b"Not Found" not in page.data
    assert '<p class="message">Aquí no existe esa página.' in client.get(
        path, headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert client.get("/api/nowhere").mimetype == "application/json"  # scripts get JSON


def test_a_refused_method_is_a_page_too(client):
    page = client.post("/", headers={"Accept-Language": "de"})
    assert page.status_code == 405
    assert '<p class="message">Diese Anfrage konnte nicht erfüllt werden (Fehler 405).' in \
        page.get_data(as_text=True)


def test_the_godfathers_session_survives_a_restart(tmp_path):
    """No `secret_key` configured: the session key is kept with the journal, so a power
    cut does not log the Godfather's tablet out."""
    def start() -> Table:
        return Table("unit", RefereeSettings(pin=PIN), Journal(tmp_path / "j.sqlite3"),
                     SYSTEM_CLOCK)

    first = start()
    client = create_app(first, DashboardSettings()).test_client()
    login(client)
    cookie = client.get_cookie("session")
    assert cookie is not None and client.get("/api/control").status_code == 200
    first.journal.close()
    second = start()
    again = create_app(second, DashboardSettings()).test_client()
    assert again.get("/api/control").status_code == 401  # no session: no control
    again.set_cookie("session", cookie.value)
    assert again.get("/api/control").status_code == 200  # the same session, after restart
    second.journal.close()
