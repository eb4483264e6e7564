"""The hub's cable pulled out during a countdown, through the whole stack: the simulated
hub's port closes, the bridge says the device is offline, the referee calls the countdown
off instead of settling it blind, and offers it again once the hub is back."""

from __future__ import annotations

from stack import cards_down
from waiting import wait_for

from companion.referee.commands import Auth, CommandError

GODFATHER = Auth(control=True)


def command(live, **cmd) -> None:
    live.table.command({"version": live.table.version, **cmd}, GODFATHER)


def test_a_hub_unplugged_during_a_countdown_voids_it(live):
    names = ["Ana", "Bob", "Cyd", "Dee"]
    # the referee has heard the hub (its schedule's aims): a hub not yet online when it is
    # pulled out goes unheard, and a count it never spoke for is rightly not called off
    wait_for(lambda: live.table.readings.track(1, "aim") is not None
             and live.table.public_state()["links"] == [], 10, "the hub heard, every link up")
    command(live, type="new_game", players=names, powers="none")
    cards_down(live.table, names)
    command(live, type="countdown")
    live.bridge.sim.unplug()
    state = wait_for(lambda: (s := live.table.public_state())["voided"] and s, 5,
                     "the countdown called off")
    assert "device:hub" in state["voided"]  # which link, said
    assert state["stage"]["name"] == "idle"
    assert not any(p["aimed"] for p in state["players"])  # nobody "aimed at nobody"
    try:
        command(live, type="countdown")
        raise AssertionError("a countdown was accepted with the hub unplugged")
    except CommandError as refused:
        assert refused.kind == "blind" and "is down" in refused.message
    live.bridge.sim.replug()
    wait_for(lambda: live.table.public_state()["links"] == [], 10, "the hub back")
    command(live, type="countdown")  # offered again
    assert live.table.public_state()["voided"] is None
