"""The referee never decides blind: no countdown while the broker or a sensor device is
down, and a countdown during which one went down is called off, never settled as nobody."""

from __future__ import annotations

import pytest
from local_table import NAMES8, LocalPort

from companion.referee.commands import CommandError


def ready(port: LocalPort) -> None:
    port.do("new_game", players=NAMES8[:4], powers="none", seed=1)
    for name in NAMES8[:4]:
        port.act(type="choose", player=name, card="click")
    for seat, target in [(1, 2), (2, 3), (3, 4), (4, 1)]:
        port.aim(seat, target)


def aimed(port: LocalPort) -> list[bool]:
    return [p["aimed"] for p in port.table.public_state()["players"]]


def test_no_countdown_while_a_link_is_down():
    port = LocalPort()
    ready(port)
    port.table.link("broker", False, "connection lost")
    state = port.table.public_state()
    assert state["links"] == [{"link": "broker", "reason": "connection lost",
                               "since_ms": port.clock.now_ms()}]
    with pytest.raises(CommandError) as refused:
        port.do("countdown")
    assert refused.value.kind == "blind" and "broker link is down" in refused.value.message
    port.table.link("broker", True, "connected")
    assert port.table.public_state()["links"] == []
    port.do("countdown")
    port.run_for(3000)
    assert aimed(port) == [True] * 4  # with the link back, the countdown settles


def test_a_link_lost_during_the_countdown_calls_it_off():
    port = LocalPort()
    ready(port)
    port.do("countdown")
    port.run_for(1000)  # between "two" and "three"
    port.table.link("device:hub", False, "silent")
    state = port.table.public_state()
    assert state["stage"]["name"] == "idle" and "device:hub" in state["voided"]
    port.run_for(3000)
    assert aimed(port) == [False] * 4  # nobody was read as "aimed at nobody"
    port.table.link("device:hub", True, "hello")
    port.do("countdown")  # offered again
    assert port.table.public_state()["voided"] is None
    port.run_for(3000)
    assert aimed(port) == [True] * 4


def test_a_link_that_came_back_before_the_decision_still_voids_the_count():
    port = LocalPort()
    ready(port)
    port.do("countdown")
    stage = port.table.stage
    port.run_for(stage.three_ms - port.clock.now_ms() + 100)
    # The broker drops and comes back while the aims that count were happening.
    port.table.links.set("broker", False, "connection lost", port.clock.now_ms())
    port.clock.advance(300)
    port.table.link("broker", True, "connected")
    port.run_for(3000)
    assert aimed(port) == [False] * 4
    assert "broker" in port.table.public_state()["voided"]


def test_a_link_that_comes_and_goes_between_countdowns_leaves_the_godfathers_command_standing():
    """A broker or hub that flaps on a busy Pi changes what the pages show, not the game:
    a New game made against the table as the Godfather saw it is not refused as stale.
    A link lost during a countdown does move the game on (the count is called off)."""
    port = LocalPort()
    ready(port)
    seen = port.table.version
    port.table.link("device:hub", False, "silent")
    port.table.link("device:hub", True, "hello")
    assert port.table.version == seen
    port.command({"type": "new_game", "version": seen, "abandon": True,
                  "players": NAMES8[:4], "powers": "none", "seed": 2})
    for name in NAMES8[:4]:
        port.act(type="choose", player=name, card="click")
    port.aim(1, 2)
    port.do("countdown")
    counting = port.table.version
    port.table.link("broker", False, "connection lost")
    assert port.table.version > counting
    with pytest.raises(CommandError) as refused:
        port.command({"type": "new_game", "version": counting, "abandon": True,
                      "players": NAMES8[:4], "powers": "none", "seed": 3})
    assert refused.value.kind == "conflict"
