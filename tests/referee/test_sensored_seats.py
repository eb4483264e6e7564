"""Who enters a seat's aim and courage choice (docs/REFEREE.md, "Who enters what"): its
sensors once the referee has heard them, else its phone or the tablet; the Godfather's
override always, journaled as such. On a table in this process, on a fake clock."""

from __future__ import annotations

import pytest
from local_table import NAMES8, LocalPort

from companion.referee.commands import Auth, CommandError
from companion.referee.equipment import Kit
from companion.referee.journal import Journal
from companion.referee.journal_replay import replay_boot
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table

CONTROL = Auth(control=True)


def holdup(port: LocalPort) -> None:
    """Ana, Bob and Cyd have a gun and a standee the referee has heard; Dee has none."""
    port.do("new_game", players=NAMES8[:4], powers="none", seed=1)
    for name in NAMES8[:4]:
        port.act(type="choose", player=name, card="click")
    for seat, target in ((1, 2), (2, 3), (3, 1)):
        port.aim(seat, target)
        port.posture(seat, False)


def action(port: LocalPort, auth: Auth, override: bool | None = None, **act: object) -> None:
    cmd = {"type": "action", "version": port.table.version, "action": act}
    port.command(cmd if override is None else cmd | {"override": override}, auth)


def sources(port: LocalPort) -> list[tuple[str, str, str]]:
    game = port.table.game
    return [(a.type, a.player, src) for a, src in zip(game.actions, game.sources, strict=True)
            if a.type in ("aim", "courage")]


def test_a_sensored_seats_aim_and_posture_come_from_its_sensors_or_the_override():
    port = LocalPort()
    holdup(port)
    version = port.table.version
    for auth in (Auth(seat=1), CONTROL):
        with pytest.raises(CommandError) as refused:
            action(port, auth, type="aim", player="Ana", target="Cyd")
        assert refused.value.kind == "forbidden"
        assert refused.value.extra == {"code": "sensored", "sensor": "gun"}
    with pytest.raises(CommandError) as refused:  # an override is the tablet's alone
        action(port, Auth(seat=1), override=True, type="aim", player="Ana", target="Cyd")
    assert refused.value.kind == "forbidden"
    with pytest.raises(CommandError) as refused:  # and only for what the sensors read
        action(port, CONTROL, override=True, type="choose", player="Ana")
    assert refused.value.kind == "invalid"
    assert port.table.version == version and sources(port) == []

    action(port, Auth(seat=4), type="aim", player="Dee", target="Ana")  # no sensors: a tap
    action(port, CONTROL, override=True, type="aim", player="Bob", target="Ana")
    port.do("countdown")
    port.run_for(3000)
    assert sources(port) == [("aim", "Dee", "phone"), ("aim", "Bob", "override"),
                             ("aim", "Ana", "sensor"), ("aim", "Cyd", "sensor")]
    port.act(type="privilege", player="Ana", order=None)  # the Godfather orders nobody
    assert port.table.game.state.phase == "courage"

    with pytest.raises(CommandError) as refused:
        action(port, Auth(seat=3), type="courage", player="Cyd", down=True)
    assert refused.value.extra == {"code": "sensored", "sensor": "standee"}
    action(port, Auth(seat=4), type="courage", player="Dee", down=False)
    action(port, CONTROL, override=True, type="courage", player="Ana", down=True)
    assert sources(port)[-2:] == [("courage", "Dee", "phone"), ("courage", "Ana", "override")]
    view = {p["name"]: p for p in port.table.public_state()["players"]}
    assert view["Ana"]["overridden"] == ["courage"] and view["Bob"]["overridden"] == ["aim"]
    assert view["Cyd"]["overridden"] == [] and view["Dee"]["overridden"] == []


def test_a_phone_view_says_what_its_own_sensors_read():
    port = LocalPort()
    holdup(port)
    seat = port.table.seat_state  # the phone's view (the HTTP API's /api/seat/<n>)
    me = seat(1)["me"]
    assert me["sensors"] == {"gun": {"key": "phone.gun_held", "args": {"target": "Bob"}},
                             "standee": {"key": "phone.standee_up", "args": {}}}
    assert not any(b["group"] in ("aim", "courage") for b in me["commands"])
    port.fact("raised", 2, False)
    port.posture(2, True)
    assert seat(2)["me"]["sensors"] == {"gun": {"key": "phone.gun_lowered", "args": {}},
                                        "standee": {"key": "phone.standee_down", "args": {}}}
    port.fact("aim", 3, None)
    assert seat(3)["me"]["sensors"]["gun"]["key"] == "phone.gun_ambiguous"
    dee = seat(4)["me"]
    assert dee["sensors"] == {}
    assert [b["group"] for b in dee["commands"]] == ["aim"] * 3


def test_a_seat_without_sensors_not_entered_by_three_is_too_slow():
    """As docs/REFEREE.md says: the countdown counts a manual seat as any other."""
    port = LocalPort()
    holdup(port)
    port.do("countdown")
    port.run_for(3000)
    view = {p["name"]: p for p in port.table.public_state()["players"]}
    assert view["Dee"]["counted_aim"] == {"target": None, "mark": "too_slow"}
    assert view["Ana"]["counted_aim"] == {"target": "Bob", "mark": None}


def test_the_configured_sensors_speak_before_they_report_and_replay_so(tmp_path):
    """A seat the sensors' config gives a gun and a standee is sensored from the start
    (before its hub's first report); the start's Boot keeps that, so the journal of inputs
    replays the refusal decision for decision."""
    pods = frozenset({1, 2, 3})  # Dee's seat 4 is in no pod: entered by hand
    journal = Journal(tmp_path / "journal.sqlite3")
    port = LocalPort()
    port.table = Table("test", RefereeSettings(pin="2468"), journal, port.clock,
                       sensored=Kit(pods, pods, pods))
    port.do("new_game", players=NAMES8[:4], powers="none", seed=1)
    for name in NAMES8[:4]:
        port.act(type="choose", player=name, card="click")
    with pytest.raises(CommandError) as refused:
        action(port, Auth(seat=2), type="aim", player="Bob", target="Ana")
    assert refused.value.extra["code"] == "sensored"
    action(port, Auth(seat=4), type="aim", player="Dee", target="Ana")
    assert sources(port) == [("aim", "Dee", "phone")]
    port.table.settled()
    replayed = replay_boot(journal, port.table.boot)
    assert replayed.difference is None and replayed.inputs > 6
