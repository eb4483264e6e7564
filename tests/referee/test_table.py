"""The live referee on a fake clock: whole games, snapshots, undo, overrides, resuming."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from local_table import NAMES8, LocalPort

from companion.bots.table_bot import TableBot
from companion.referee.commands import Auth, CommandError
from companion.referee.export import export_scenario
from companion.sensors.facts import Fact


def start(port: LocalPort, n: int = 4, **extra) -> None:
    port.do("new_game", players=NAMES8[:n], powers=extra.pop("powers", "none"),
            seed=extra.pop("seed", 1), **extra)


def choose_all(port: LocalPort, n: int = 4, card: str = "click") -> None:
    for name in NAMES8[:n]:
        port.act(type="choose", player=name, card=card)


def players(port: LocalPort) -> dict:
    return {p["name"]: p for p in port.table.public_state()["players"]}


@pytest.mark.parametrize("n,seed,cards,loot", [(4, 11, "digital", "digital"),
                                               (8, 12, "digital", "digital"),
                                               (5, 13, "physical", "physical")])
def test_a_whole_game_through_sensors_and_taps(tmp_path, n, seed, cards, loot):
    port = LocalPort(tmp_path / "journal.sqlite3")
    bot = TableBot(port, random.Random(seed))
    bot.new_game(NAMES8[:n], powers="random", seed=seed, cards=cards, loot=loot)
    final = bot.play()
    assert final["phase"] == "over"
    game = port.table.game
    assert {"sensor"} <= set(game.sources) and "tablet" in game.sources
    sensed = [a.type for a, src in zip(game.actions, game.sources, strict=True) if src == "sensor"]
    assert set(sensed) == {"aim", "courage"}
    # The right winner: the journal, exported and replayed by the rules alone, agrees.
    scenario = tmp_path / "game.yaml"
    scenario.write_text(export_scenario(port.table.journal, game.id))
    run = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(scenario)],
                         capture_output=True, text=True, check=True)
    replayed = json.loads(run.stdout)
    assert replayed["winners"] == final["winners"]
    assert [p["score"] for p in replayed["players"]] == [p["score"] for p in final["final"]]
    assert replayed["phase"] == "over"


def test_aims_count_by_when_they_happened_not_when_they_arrived():
    port = LocalPort()
    start(port)
    choose_all(port)
    port.do("countdown")
    three = port.table.stage.three_ms
    now = port.clock.now_ms()
    # Late messages, delivered in the wrong order, stamped around the cut-off (three + 500:
    # an aim begun then is held, and reported, by the too-slow limit three + 1000).
    facts = [("raised", 1, True, three - 2000), ("aim", 1, 2, three + 450),  # in time
             ("raised", 2, True, three - 2000), ("aim", 2, 3, three + 560),  # begun too late
             ("raised", 3, True, three - 2000), ("aim", 3, 4, three - 300),  # held early
             ("raised", 4, True, three - 2000), ("aim", 4, 1, three - 900),
             ("aim", 4, None, three - 100)]  # lowered before three: too slow
    port.run_for(three + 1000 - now)  # past the cut-off, before the decision
    for kind, seat, value, t in reversed(facts):
        port.fact(kind, seat, value, dt=t - port.clock.now_ms())
    port.run_for(600)
    p = players(port)
    assert (p["Ana"]["target"], p["Bob"]["target"], p["Cyd"]["target"], p["Dee"]["target"]) \
        == ("Bob", None, "Dee", None)
    assert port.table.game.sources[-4:] == ["sensor"] * 4


def test_a_message_that_happened_after_the_cutoff_does_not_count():
    port = LocalPort()
    start(port)
    choose_all(port)
    port.do("countdown")
    three = port.table.stage.three_ms
    port.fact("aim", 1, 2, dt=three - port.clock.now_ms() - 1000)
    port.run_for(three - port.clock.now_ms() + 100)
    port.fact("aim", 1, 3, dt=800)  # "happened" 900 ms after three, arrives early: too late
    port.run_for(2000)
    assert players(port)["Ana"]["target"] == "Bob"


def test_the_kid_aims_in_a_window_after_the_others():
    port = LocalPort()
    start(port, powers={"Dee": "kid"})
    choose_all(port)
    for seat, target in [(1, 2), (2, 3), (3, 4)]:
        port.aim(seat, target)
    port.do("countdown")
    port.run_for(3000)
    assert port.table.stage.name == "kid" and players(port)["Dee"]["aimed"] is False
    port.aim(4, 2)  # the Kid sees the others' aims, then picks
    port.run_for(1500)
    assert players(port)["Dee"]["target"] == "Bob"
    assert port.table.game.state.phase == "privilege"


def test_privilege_reads_the_ordered_guns_new_target():
    port = LocalPort()
    start(port)
    choose_all(port)
    for seat, target in [(1, 2), (2, 3), (3, 4), (4, 1)]:
        port.aim(seat, target)
    port.do("countdown")
    port.run_for(3000)
    port.act(type="privilege", player="Ana", order="Bob")
    assert port.table.stage.name == "reaim"
    port.run_for(500)
    assert players(port)["Bob"]["target"] == "Cyd"  # still on the old target: not counted
    port.aim(2, 2)  # oneself: impossible, ignored
    port.run_for(500)
    port.aim(2, 4)
    port.run_for(600)  # held 500 ms after the order
    assert players(port)["Bob"]["target"] == "Dee"
    assert port.table.game.state.phase == "courage" and port.table.stage.name == "idle"


def wound_bob_and_ana(port: LocalPort) -> None:
    """Everyone fires a Bang! round the table; only Cyd lies down: Bob and Ana are hit."""
    start(port)
    choose_all(port, card="bang")
    port.round_the_table()
    port.act(type="privilege", player="Ana", order=None)
    port.posture(3, True)  # Cyd lies down
    port.do("countdown")
    port.run_for(3000)


def test_courage_snapshot_and_lying_down_after_a_wound():
    port = LocalPort()
    wound_bob_and_ana(port)
    p = players(port)
    assert [p[n]["down"] for n in ("Ana", "Bob", "Cyd", "Dee")] == [False, False, True, False]
    assert p["Bob"]["wounds"] == 1 and p["Bob"]["lay_down"] and p["Ana"]["lay_down"]
    port.posture(2, True)  # the sensor confirms Bob lay down
    assert not players(port)["Bob"]["lay_down"] and players(port)["Ana"]["lay_down"]


def test_a_restart_asks_the_wounded_again_and_a_standee_already_down_answers(tmp_path):
    path = tmp_path / "journal.sqlite3"
    port = LocalPort(path)
    wound_bob_and_ana(port)
    port.posture(2, True)  # Bob lay down before the power cut
    again = LocalPort(path, clock=port.clock)
    assert players(again)["Ana"]["lay_down"] and players(again)["Bob"]["lay_down"]
    again.clock.advance(1000)
    again.fact("posture", 2, "down", dt=-5000)  # Bob's retained reading, from before the cut
    assert not players(again)["Bob"]["lay_down"] and players(again)["Ana"]["lay_down"]


def test_undoing_a_wound_takes_back_the_request_to_lie_down():
    port = LocalPort()
    wound_bob_and_ana(port)
    assert players(port)["Bob"]["lay_down"]
    port.do("undo")  # the last courage snapshot was misread
    assert port.table.game.state.phase == "courage"
    assert not any(p["lay_down"] for p in players(port).values())


def test_override_replaces_a_dead_sensor_and_is_marked():
    port = LocalPort()
    start(port)
    choose_all(port)
    for seat, target in [(1, 2), (2, 3), (3, 4)]:
        port.aim(seat, target)
    port.do("override", seat=4, fact="aim", value=2)  # Dee's gun is dead
    assert players(port)["Dee"]["sensors"]["manual"] == ["aim"]
    port.do("countdown")
    port.run_for(3000)
    assert players(port)["Dee"]["target"] == "Bob"
    assert port.table.game.sources[-1] == "override"
    port.do("override", seat=4, fact="aim", clear=True)
    assert players(port)["Dee"]["sensors"]["manual"] == []
    with pytest.raises(CommandError) as e:
        port.do("override", seat=4, fact="aim", value=4)  # aiming at oneself
    assert e.value.kind == "invalid"


def test_undo_takes_back_the_last_action_of_the_round():
    port = LocalPort()
    start(port)
    choose_all(port)
    before = port.table.public_state()
    port.act(type="aim", player="Ana", target="Bob")
    assert players(port)["Ana"]["aimed"]
    port.do("undo")
    after = port.table.public_state()
    assert not players(port)["Ana"]["aimed"]
    assert [p["chosen"] for p in after["players"]] == [p["chosen"] for p in before["players"]]
    assert len(port.table.journal.entries(port.table.game.id)) == 4  # the journal agrees


def test_undo_does_not_cross_into_the_last_round(tmp_path):
    port = LocalPort()
    start(port, seed=3)
    choose_all(port)
    for name, target in [("Ana", "Bob"), ("Bob", "Cyd"), ("Cyd", "Dee"), ("Dee", "Ana")]:
        port.act(type="aim", player=name, target=target)
    port.act(type="privilege", player="Ana", order=None)
    for name in NAMES8[:4]:
        port.act(type="courage", player=name, down=True)  # nobody stands: round 2 begins
    assert port.table.game.state.round == 2
    with pytest.raises(CommandError) as e:
        port.do("undo")
    assert e.value.kind == "rule" and "current round" in e.value.message


def test_stale_and_foreign_commands_are_refused():
    port = LocalPort()
    start(port)
    old = port.table.version
    port.act(type="choose", player="Ana", card="click")  # a new step? no: same step
    port.command({"type": "action", "version": old,
                  "action": {"type": "choose", "player": "Bob", "card": "click"}})  # same step
    choose_all_rest = [("Cyd", "click"), ("Dee", "click")]
    for name, card in choose_all_rest:
        port.act(type="choose", player=name, card=card)
    with pytest.raises(CommandError) as e:  # made during the bullet choice, now the hold-up
        port.command({"type": "countdown", "version": old})
    assert e.value.kind == "conflict" and e.value.extra["version"] == port.table.version
    with pytest.raises(CommandError) as e:
        port.command({"type": "undo", "version": port.table.version - 1})
    assert e.value.kind == "conflict"  # undo wants the very latest state
    phone_cyd = Auth(seat=3)
    with pytest.raises(CommandError) as e:
        port.command({"type": "action", "version": port.table.version,
                      "action": {"type": "aim", "player": "Ana", "target": "Bob"}}, phone_cyd)
    assert e.value.kind == "forbidden"
    with pytest.raises(CommandError) as e:
        port.command({"type": "countdown", "version": port.table.version}, phone_cyd)
    assert e.value.kind == "forbidden"
    port.command({"type": "action", "version": port.table.version,
                  "action": {"type": "aim", "player": "Cyd", "target": "Ana"}}, phone_cyd)
    assert players(port)["Cyd"]["target"] == "Ana"
    with pytest.raises(CommandError) as e:
        port.act(type="aim", player="Cyd", target="Bob")
    assert e.value.kind == "rule" and e.value.extra["rule"] == "R3"


@pytest.mark.parametrize("cmd,status,words", [
    ({"type": "dance"}, "invalid", "unknown command type"),
    ({"type": "countdown"}, "invalid", "version"),
    ({"type": "action", "action": {"type": "aim", "player": "Zed"}}, "invalid", "unknown player"),
    ({"type": "action", "action": "aim"}, "invalid", "must be a mapping"),
    ({"type": "override", "seat": 9, "fact": "aim", "value": 1}, "invalid", "seat"),
    ({"type": "override", "seat": 2, "fact": "smell", "value": 1}, "invalid", "fact"),
    ({"type": "new_game", "players": ["A", "B"], "abandon": True}, "invalid", "4 to 8"),
])
def test_malformed_commands_say_what_is_wrong(cmd, status, words):
    port = LocalPort()
    start(port)
    if "version" not in cmd and cmd["type"] != "countdown":
        cmd = {**cmd, "version": port.table.version}
    with pytest.raises(CommandError) as e:
        port.command(cmd)
    assert e.value.kind == status and words in e.value.message
    assert port.table.game.actions == []


def test_a_restart_resumes_the_game_where_the_journal_left_it(tmp_path):
    path = tmp_path / "journal.sqlite3"
    port = LocalPort(path)
    bot = TableBot(port, random.Random(4))
    bot.new_game(NAMES8[:5], powers="random", seed=4)
    for _ in range(120):
        bot.step(port.control())
    before = port.table.public_state()
    again = LocalPort(path, clock=port.clock)
    for seat in range(1, 6):  # the standees' retained MQTT readings come back
        track = port.table.readings.track(seat, "posture")
        if track is not None and track.times:
            again.table.on_fact(Fact("posture", seat, track.values[-1], track.times[-1], "test"))
    after = again.table.public_state()
    for key in ("round", "phase", "table", "events", "winners", "godfather", "split"):
        assert after[key] == before[key]
    for p in (*before["players"], *after["players"]):
        del p["sensors"], p["gun"], p["sensored"]  # these come back with the sensors
    assert after["players"] == before["players"]
    # phone links still work
    assert again.table.access.seat_token(2) == port.table.access.seat_token(2)


def test_random_powers_are_dealt_from_the_games_seed():
    dealt = []
    for _ in range(2):
        port = LocalPort()
        start(port, n=8, powers="random", seed=21)
        dealt.append({p["name"]: p["power"] for p in port.table.public_state()["players"]})
    assert dealt[0] == dealt[1] and len(set(dealt[0].values())) == 8


def test_a_restart_while_an_ordered_gun_is_awaited_watches_it_again(tmp_path):
    path = tmp_path / "journal.sqlite3"
    port = LocalPort(path)
    start(port)
    choose_all(port)
    for name, target in [("Ana", "Bob"), ("Bob", "Cyd"), ("Cyd", "Dee"), ("Dee", "Ana")]:
        port.act(type="aim", player=name, target=target)
    port.act(type="privilege", player="Ana", order="Bob")
    again = LocalPort(path, clock=port.clock)  # the power comes back
    assert again.table.stage.name == "reaim"
    again.aim(2, 4)
    again.run_for(600)
    assert players(again)["Bob"]["target"] == "Dee"


def test_an_ambiguous_aim_is_left_to_the_godfather():
    port = LocalPort()
    start(port)
    choose_all(port)
    for seat, target in [(1, 2), (2, 3), (3, 4)]:
        port.aim(seat, target)
    port.fact("raised", 4, True)
    port.fact("aim", 4, (2, 3))  # Dee's gun sees Bob and Cyd
    port.do("countdown")
    port.run_for(3000)
    p = players(port)
    assert [p[n]["target"] for n in ("Ana", "Bob", "Cyd")] == ["Bob", "Cyd", "Dee"]
    assert p["Dee"]["aimed"] is False and p["Dee"]["ambiguous"] == ["Bob", "Cyd"]
    assert "Dee" in port.table.public_state()["waiting_for"]
    assert {"type": "aim", "player": "Dee", "target": "Cyd"} in port.legal({})
    port.do("action", action={"type": "aim", "player": "Dee", "target": "Cyd"},
            override=True)  # the Godfather decides, overriding Dee's gun
    p = players(port)
    assert p["Dee"]["target"] == "Cyd" and p["Dee"]["ambiguous"] == []
    assert port.table.game.sources[-1] == "override"


def test_the_time_driver_sleeps_until_something_is_due():
    port = LocalPort()
    assert port.table.next_deadline() is None  # no game: nothing will ever be due
    start(port)
    choose_all(port)
    assert port.table.next_deadline() is None  # waiting for a tap, not for the clock
    port.do("countdown")
    stage = port.table.stage
    assert port.table.next_deadline() == stage.beats_ms[1]  # "two"
    port.clock.advance(stage.beats_ms[2] - port.clock.now_ms())
    port.table.tick()
    assert port.table.next_deadline() == stage.decide_ms  # after "three": the snapshot
    for seat, target in [(1, 2), (2, 3), (3, 4), (4, 1)]:
        port.aim(seat, target)
    port.clock.advance(stage.decide_ms - port.clock.now_ms())
    port.table.tick()
    port.act(type="privilege", player="Ana", order="Bob")
    assert port.table.next_deadline() is None  # Bob's gun is still on his old target
    port.aim(2, 2)
    assert port.table.next_deadline() is None  # on himself: not a target
    port.aim(2, 4)
    due = port.table.next_deadline()
    assert due == port.clock.now_ms() + port.table.timing.hold_ms
    port.clock.advance(due - port.clock.now_ms())
    port.table.tick()
    assert players(port)["Bob"]["target"] == "Dee" and port.table.next_deadline() is None


def test_versions_only_go_forward_across_a_restart(tmp_path):
    path = tmp_path / "journal.sqlite3"
    port = LocalPort(path)
    start(port)
    before = port.table.version
    choose_all(port)
    again = LocalPort(path, clock=port.clock)  # the power comes back
    assert again.table.version > port.table.version
    for _ in range(port.table.version - before + 2):  # as many changes again, and more
        again.do("pause")
    with pytest.raises(CommandError) as refused:  # a tap made before the power cut
        again.command({"type": "action", "version": before,
                       "action": {"type": "choose", "player": "Ana", "card": "bang"}})
    assert refused.value.kind == "conflict"
