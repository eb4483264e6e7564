"""No decision before the data is complete: a countdown is decided only once every source
it rests on (the broker's echo, each hub's rounds) has been heard past the end of its
window; else it waits, then is called off and says why. On the fake clock."""

from __future__ import annotations

import random
from typing import Any

import pytest
from frozen_broker import trial
from local_table import CONTROL, NAMES8, LocalPort

from companion.referee.journal import Journal
from companion.referee.journal_replay import replay_game
from companion.referee.mqtt_link import BROKER, probe_sent
from companion.referee.watermarks import STALE_MS, WAIT_MS
from companion.sensors.facts import Fact

# the default timing (docs/REFEREE.md): the hold-up reads up to three + too_slow_ms (1000)
# and decides settle_ms (150) later
END, DECIDE = 1000.0, 1150.0


def holdup(port: LocalPort) -> float:
    """A 4-player hold-up, every gun held before the count; the count started: its "three"."""
    port.do("new_game", players=NAMES8[:4], powers="none", seed=1)
    for name in NAMES8[:4]:
        port.act(type="choose", player=name, card="bang")
    for seat in (1, 2, 3, 4):
        port.fact("raised", seat, True, dt=-3000)
        port.fact("aim", seat, seat % 4 + 1, dt=-3000)
    port.do("countdown")
    return float(port.table.stage.three_ms)


def until(port: LocalPort, t: float) -> None:
    """Move the fake clock to `t`, ticking as the time driver does."""
    port.clock.advance(t - port.clock.now_ms())
    port.table.tick()


def round_at(port: LocalPort, t: float, device: str = "hub") -> None:
    port.table.on_fact(Fact("seen", 0, (0, 0, 0, 0), t, device))


def aims(port: LocalPort) -> list[Any]:
    game = port.table.game
    assert game is not None
    return [a for a in game.actions if a.type == "aim"]


def test_a_hub_behind_the_window_holds_the_decision_until_its_round_after_the_end():
    port = LocalPort()
    three = holdup(port)
    round_at(port, three - 500)
    until(port, three + DECIDE + 200)  # due, but the hub is heard only up to -500 ms
    assert port.table.stage.name == "countdown" and aims(port) == []
    round_at(port, three + END - 1)  # still inside the window
    assert aims(port) == []
    port.clock.advance(5)
    round_at(port, three + END + 1)  # past its end: the count is complete, decided now
    assert [(a.player, a.target) for a in aims(port)] == [
        ("Ana", "Bob"), ("Bob", "Cyd"), ("Cyd", "Dee"), ("Dee", "Ana")]
    assert port.table.state.voided is None


def test_the_broker_echo_is_a_watermark_and_a_late_aim_before_it_still_counts():
    port = LocalPort()
    three = holdup(port)
    port.fact("aim", 1, 3, dt=three + 400 - port.clock.now_ms())  # Ana corrects, in time...
    port.table.echo(three - 100)
    until(port, three + DECIDE)
    assert aims(port) == []  # the broker's echo is behind: what it still holds may count
    port.table.echo(three + END + 20)
    first = aims(port)[0]
    assert (first.player, first.target) == ("Ana", "Cyd")


def test_still_behind_after_the_bounded_wait_the_count_is_called_off_and_says_why():
    port = LocalPort()
    three = holdup(port)
    until(port, three + 552)
    port.table.echo(three + 550)  # the broker froze after this probe
    until(port, three + END + 8)
    round_at(port, three + END + 5)  # the hub is not behind: its link is its own
    until(port, three + DECIDE)
    assert port.table.next_deadline() == three + DECIDE + WAIT_MS
    until(port, three + DECIDE + WAIT_MS - 1)
    assert port.table.stage.name == "countdown"
    until(port, three + DECIDE + WAIT_MS)
    public = port.table.public_state()
    assert public["stage"]["name"] == "idle" and aims(port) == []
    assert public["voided"] == ('the count could not be completed: broker heard only up to '
                                '+550 ms from "three", the count needs +1000 ms')
    assert port.table.command({"type": "countdown", "version": port.table.version},
                              CONTROL)["ok"]  # the Godfather counts again


def test_an_outage_is_dated_from_the_last_message_heard_not_from_its_detection():
    port = LocalPort()
    holdup(port)
    last = port.clock.now_ms()
    port.table.echo(last)
    port.clock.advance(900)  # the watch notices the silence 900 ms later
    port.table.link(BROKER, False, "not answering")
    assert port.table.public_state()["links"] == [
        {"link": BROKER, "reason": "not answering", "since_ms": last}]
    assert port.table.state.voided == "broker went down (not answering)"


def test_a_hub_outage_is_dated_from_its_last_round():
    port = LocalPort()
    last = port.clock.now_ms()
    round_at(port, last, device="hub-1")
    port.clock.advance(700)  # the bridge calls it silent after board_silence_ms
    port.table.link("device:hub-1", False, "silent")
    assert port.table.public_state()["links"] == [
        {"link": "device:hub-1", "reason": "silent", "since_ms": last}]


def test_a_source_silent_long_before_the_count_does_not_hold_it():
    port = LocalPort()
    round_at(port, port.clock.now_ms(), device="old hub")  # a hub taken off the table
    port.clock.advance(STALE_MS + 3000)
    three = holdup(port)
    until(port, three + DECIDE)
    assert len(aims(port)) == 4


def test_an_echo_stamped_ahead_of_the_table_clock_does_not_advance_the_watermark():
    port = LocalPort()
    three = holdup(port)
    port.table.echo(three - 100)
    port.table.echo(three + 10_000)  # (a damaged or forged probe: now at most)
    until(port, three + DECIDE)
    assert aims(port) == []


def test_a_deferred_and_a_called_off_count_replay_decision_for_decision(tmp_path):
    path = tmp_path / "journal.sqlite3"
    port = LocalPort(path)
    three = holdup(port)
    port.table.echo(three - 100)
    until(port, three + DECIDE + 100)
    port.table.echo(three + END + 30)  # decided on this echo
    assert len(aims(port)) == 4
    port.table.settled()
    port.table.close()
    journal = Journal(path)
    _, done = replay_game(journal, 1)
    assert done.difference is None and done.inputs > 10


TRIALS = 200


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    rng = random.Random(25)
    folder = tmp_path_factory.mktemp("trials")
    return [trial(rng, folder / f"{i}.sqlite3") for i in range(TRIALS)]


def test_a_broker_frozen_at_random_moments_never_makes_a_blind_decision(outcomes):
    blind = [o for o in outcomes if o.blind]
    assert blind == []
    undecided = [o for o in outcomes if not o.decided]
    assert all(o.voided for o in undecided)  # never left waiting: called off, saying why
    # the draw reaches both sides: frozen in time to matter, and after the data was in
    assert sum(o.decided for o in outcomes) > 20 and len(undecided) > 100
    assert any(o.decided and o.truth is None for o in outcomes)  # a true "too slow"


def test_every_trial_replays_from_its_journal(outcomes, tmp_path_factory):
    folder = tmp_path_factory.getbasetemp() / "trials0"
    for i in range(0, TRIALS, 20):
        _, done = replay_game(Journal(folder / f"{i}.sqlite3"), 1)
        assert done.difference is None, (i, done.difference)


@pytest.mark.parametrize(("payload", "sent"), [
    (b"1700000000123.456", 1700000000123.456), (b"", None), (b"nan", None), (b"inf", None),
    (b"-5", None), (b"\xff", None), (b"12 ms", None)])
def test_only_a_probe_send_time_is_taken_from_the_echo(payload, sent):
    assert probe_sent(payload) == sent
