"""The New game flow's server side: the phones' address, the seats that can take a player,
the live check, and refusals a page can say in its own words."""

from __future__ import annotations

import io
import ipaddress

import pytest
import segno

from companion import config
from companion.clock import FakeClock
from companion.dashboard.address import is_local, lan_address, phone_base
from companion.dashboard.app import create_app
from companion.dashboard.settings import DashboardSettings
from companion.dashboard.setup_flow import missing
from companion.referee import equipment
from companion.referee.commands import Auth, CommandError
from companion.referee.core import keep
from companion.referee.journal import Journal
from companion.referee.readings import Readings
from companion.referee.settings import RefereeSettings
from companion.referee.setup_check import SetupCheck
from companion.referee.table import Table
from companion.sensors.facts import Fact

PIN = "1357"
LAN = "http://192.168.1.20:8080"


@pytest.mark.parametrize(("public_url", "bind", "opened", "lan", "expected"), [
    (LAN + "/", "127.0.0.1", "http://localhost:8080/", None, (LAN, False)),  # configured
    (None, "0.0.0.0", "http://cashnguns-cafe.local:8080/", None,
     ("http://cashnguns-cafe.local:8080", False)),  # the tablet used a name the phones know
    (None, "0.0.0.0", "http://localhost:8080/", "192.168.1.20", (LAN, False)),  # found
    (None, "0.0.0.0", "http://127.0.0.1:8080/", None, ("http://127.0.0.1:8080", True)),
    (None, "127.0.0.1", "http://localhost:8080/", "192.168.1.20",  # listens on loopback
     ("http://localhost:8080", True)),
    (None, "::", "http://[::1]:8080/", None, ("http://[::1]:8080", True)),
])
def test_the_phones_get_an_address_that_reaches_the_table(public_url, bind, opened, lan,
                                                           expected):
    assert phone_base(public_url, bind, opened, lan) == expected


def test_local_names_and_the_lan_address():
    assert all(map(is_local, ("localhost", "127.0.0.1", "127.1.2.3", "[::1]", "a.localhost")))
    assert not any(map(is_local, ("192.168.1.20", "cashnguns-cafe.local", "example.org")))
    found = lan_address()  # None on a machine with no route out
    assert found is None or not ipaddress.ip_address(found).is_loopback


@pytest.fixture
def table(tmp_path):
    t = Table("unit", RefereeSettings(pin=PIN), Journal(tmp_path / "j.sqlite3"), FakeClock())
    yield t
    t.journal.close()


def sensors(text: str):
    return config.parse(f"table: t\nsensors: {text}\n", "test.yaml").sensors


def test_the_seats_come_from_the_config_and_from_what_reports(table):
    kit = equipment.configured(sensors(
        "{sim: {guns: [1, 2, 3]}, gpio: {pin_factory: mock, standees: [{seat: 5, pin: 16}],"
        " tilts: [{seat: 6, pin: 17}]}}"))
    assert [(s["seat"], s["gun"], s["standee"], s["ir"]) for s in kit.seats()][:6] == [
        (1, True, True, True), (2, True, True, True), (3, True, True, True),
        (4, False, False, False), (5, False, True, False), (6, True, False, False)]
    assert [missing(s, kit.known) for s in kit.seats()][:6] == [
        "", "", "", "both", "gun", "standee"]  # a standee alone at 5, a tilt switch alone at 6
    assert {missing(s, False) for s in kit.seats()} == {""}, "nothing said: every seat offered"
    assert not table.readings.kit().known
    table.on_fact(Fact("posture", 6, "down", 1.0, "gpio"))
    table.readings.matrix.schedule((7, 8), 2000)  # a hub's device info: pods at 7 and 8
    heard = table.readings.kit()
    assert (heard.standee, heard.ir) == ({6, 7, 8}, {7, 8})
    assert [s["seat"] for s in (kit | heard).seats() if s["gun"] and s["standee"]] == [
        1, 2, 3, 6, 7, 8]


def test_a_seat_passes_its_check_once_its_gun_and_standee_moved():
    readings, check = Readings(), SetupCheck()

    def hear(kind: str, seat: int, value: object, t: float) -> dict:
        keep(readings, Fact(kind, seat, value, t, "hub"))  # type: ignore[arg-type]
        check.heard({seat: readings.seat_now(seat, t) for seat in range(1, 9)},
                    readings.matrix.seats, None)
        return check.read(readings, None, t)

    readings.matrix.schedule((1, 2), 2000)  # seat 1's gun aims by IR; seat 3 has a tilt only
    assert hear("raised", 1, True, 10)[1] == {"gun_ok": False, "standee_ok": False,
                                              "aims": True}
    assert hear("aim", 1, 2, 20)[1]["gun_ok"]  # raised and held an aim at seat 2
    assert hear("raised", 3, True, 30)[3]["gun_ok"]  # no IR: raised is enough
    assert not hear("posture", 1, "down", 40)[1]["standee_ok"]
    assert hear("posture", 1, "up", 50)[1]["standee_ok"]
    assert not hear("posture", 2, "up", 60)[2]["standee_ok"]  # never lay down
    assert not check.read(readings, (1, False), 70)[1]["gun_ok"]  # a game began: again


def test_the_check_hears_the_table_only_while_no_game_is_played(table):
    """A standee laid down and stood up passes its check before a game; mid-game the same
    moves are the game's, and the check is not handed them."""
    client = create_app(table, DashboardSettings(), sensors("{sim: {guns: [1, 2, 3, 4]}}")
                        ).test_client()
    client.post("/api/login", json={"pin": PIN})

    def tip(seat: int) -> dict:
        for t, posture in ((1.0, "down"), (2.0, "up")):
            table.on_fact(Fact("posture", seat, posture, t, "hub"))
        return client.get("/api/setup").json["seats"][seat - 1]

    assert tip(1)["standee_ok"]
    table.command({"type": "new_game", "version": table.version,
                   "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    assert client.get("/api/setup").json["in_progress"]
    assert not tip(2)["standee_ok"]


def test_the_setup_answers_the_godfather_only(table):
    client = create_app(table, DashboardSettings(), sensors("{sim: {guns: [1, 2, 3, 4]}}")
                        ).test_client()
    assert client.get("/api/setup").status_code == 401
    client.post("/api/login", json={"pin": PIN})
    setup = client.get("/api/setup").json
    seats = setup["seats"]
    assert [s["seat"] for s in seats if s["gun"] and s["standee"]] == [1, 2, 3, 4]
    assert seats[0] == {"seat": 1, "gun": True, "ir": True, "standee": True, "missing": "",
                        "gun_ok": False, "standee_ok": False, "aims": False}
    assert [s["missing"] for s in seats[3:6]] == ["", "both", "both"]
    assert setup["players"] == {"min": 4, "max": 8}  # the box: a game for 4 to 8 players


def test_the_qr_code_holds_the_address_the_tablet_used_on_the_network(table):
    table.command({"type": "new_game", "version": table.version,
                   "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    client = create_app(table, DashboardSettings(host="0.0.0.0")).test_client()
    client.post("/api/login", json={"pin": PIN}, base_url=LAN)
    page = client.get("/referee", base_url=LAN).get_data(as_text=True)
    assert f"it opens {LAN}." in page and 'data-local="yes"' not in page
    link = f"{LAN}/seat/2?token={table.access.seat_token(2)}"
    expected = io.BytesIO()
    segno.make(link, error="m").save(expected, kind="svg", scale=5, border=2, dark="#111")
    assert client.get("/referee/qr/2.svg", base_url=LAN).data == expected.getvalue()


@pytest.mark.parametrize(("players", "extra"), [
    (["Ana", "Bob", "Cyd"], {"code": "players_count", "min": 4, "max": 8}),
    (["Ana", "Bob", "Ana", "Dee"], {"code": "name_twice", "name": "Ana"}),
    (["Ana", "Bob", "Cyd", "x" * 25], {"code": "name_bad", "name": "x" * 25}),
    ([{"name": n, "seat": s} for n, s in (("Ana", 1), ("Bob", 3), ("Cyd", 3), ("Dee", 4))],
     {"code": "seat_twice", "seat": 3}),
    ([{"name": n, "seat": s} for n, s in (("Ana", 1), ("Bob", 3), ("Cyd", 2), ("Dee", 4))],
     {"code": "clockwise"}),
])
def test_a_refused_setup_says_what_by_a_code(table, players, extra):
    with pytest.raises(CommandError) as refused:
        table.command({"type": "new_game", "version": table.version, "players": players},
                      Auth(control=True))
    assert {k: refused.value.extra[k] for k in extra} == extra


def test_a_game_in_progress_is_refused_by_a_code(table):
    new = {"type": "new_game", "players": ["Ana", "Bob", "Cyd", "Dee"]}
    table.command({**new, "version": table.version}, Auth(control=True))
    with pytest.raises(CommandError) as refused:
        table.command({**new, "version": table.version}, Auth(control=True))
    assert refused.value.extra == {"rule": "R1", "code": "game_in_progress"}



def test_only_seats_with_a_gun_and_a_standee_are_offered(tmp_path):
    """The manual demo with five guns, its broker still holding an eight-seat table's
    readings (retained): seats 6 to 8 are not offered."""
    five = sensors("{sim: {guns: [1, 2, 3, 4, 5]}}")
    table = Table("unit", RefereeSettings(pin=PIN), Journal(tmp_path / "j.sqlite3"),
                  FakeClock(), sensored=equipment.configured(five))
    for seat in (6, 7, 8):  # retained by the broker from the earlier table
        table.on_fact(Fact("posture", seat, "up", 1.0, "hub"))
        table.on_fact(Fact("aim", seat, None, 1.0, "hub"))
    table.readings.matrix.schedule((1, 2, 3, 4, 5, 6, 7, 8), 2000)
    client = create_app(table, DashboardSettings(), five).test_client()
    client.post("/api/login", json={"pin": PIN})
    seats = client.get("/api/setup").json["seats"]
    assert [s["missing"] for s in seats] == [""] * 5 + ["both"] * 3
    assert [s["seat"] for s in seats if s["gun"] and s["standee"]] == [1, 2, 3, 4, 5]
    table.journal.close()
