"""`companion run` as a table uses it: a real broker, simulated sensors, HTTP, power cuts."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time

from remote_table import FAST, RemoteTable, write_config
from waiting import wait_for

from companion.bots.table_bot import TableBot

NAMES = ["Ana", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"]


def replayed(remote: RemoteTable) -> dict:
    """The journal's game exported and replayed by the rules alone, without interruption."""
    journal = remote.config.parent / "journal.sqlite3"
    text = subprocess.run([sys.executable, "-m", "companion.cli", "export", "--journal",
                           str(journal)], capture_output=True, text=True, check=True).stdout
    scenario = remote.config.parent / "game.yaml"
    scenario.write_text(text)
    run = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(scenario)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def replays_call_for_call(remote: RemoteTable, game: int | None = None) -> str:
    """`companion replay --journal`: the live game's inputs through the referee again,
    every decision and public view compared with what the table journaled."""
    journal = remote.config.parent / "journal.sqlite3"
    more = [] if game is None else ["--game", str(game)]
    run = subprocess.run([sys.executable, "-m", "companion.cli", "replay", "--journal",
                          str(journal), *more], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "every decision and the" in run.stdout
    return run.stdout


def same_game(final: dict, replay: dict) -> None:
    assert final["phase"] == replay["phase"] == "over"
    assert final["winners"] == replay["winners"]
    assert [(p["name"], p["alive"], p["wounds"], sorted(p["loot"]), p["score"])
            for p in final["final"]] == \
        [(p["name"], p["alive"], p["wounds"], sorted(p["loot"]), p["score"])
         for p in replay["players"]]


# Each kind of step a game rests at, killed in the middle of one: a card chosen in secret
# while others still choose, a gun aimed before the countdown ends, a privilege being used,
# a standee down while others decide, the loot half taken.
KINDS = ("choose", "holdup", "privilege", "courage", "split")
LIVE = {"gun", "sensors", "standee"}  # a player's readings: the restarted sensors read anew


def decided(players: list[dict]) -> list[dict]:
    """What the referee decided about each player, without the live readings."""
    return [{k: v for k, v in p.items() if k not in LIVE} for p in players]


def test_kill_9_in_the_middle_of_every_kind_of_step_and_the_game_goes_on(remote):
    """One kill in each kind of step, once one action of that step is on disk (the step
    has lasted over one move), so every kind of half-made decision must be recovered: what
    each player chose, aimed, took. Two games killed at four random steps each took twice
    the time and did not promise every kind."""
    rnd = random.Random(7)
    table = remote(5)
    bot = TableBot(table, rnd)
    bot.new_game(NAMES[:5], powers="random", seed=7)
    todo, last, steps = list(KINDS), None, 0
    while (state := table.control())["phase"] != "over":
        if state["phase"] in todo and state["phase"] == last:
            todo.remove(state["phase"])
            before = state
            table.kill9()
            table.start()
            after = table.control()
            for key in ("round", "phase", "godfather", "table", "winners"):
                assert after[key] == before[key], key
            assert decided(after["players"]) == decided(before["players"])
            continue
        last = state["phase"]
        bot.step(state)
        steps += 1
        assert steps < 3000
    assert todo == [], f"the game ended after {steps} steps, before a kill in {todo}"
    assert table.restarts == len(KINDS)
    same_game(state, replayed(table))
    assert f"over {len(KINDS) + 1} start(s)" in replays_call_for_call(table)


def test_a_whole_game_at_real_speed(remote, observe, mosquitto):
    """The first round at the default pace, as a table left at its defaults plays it: both
    countdowns at 800 ms beats, the aims held 500 ms, read through the simulated hub, the
    broker and HTTP in real time. Then a clean stop, and the table started again at the
    tests' fast pace plays the game to its end: the pace is read at each start and the
    journal replays both starts call for call (rounds 2 to 8 at the default pace would
    prove nothing round 1 does not: the whole game took 73 s that way, 54 s this way, on
    the same busy machine)."""
    extra = "  home_assistant: true\n"
    table = remote(4, timing=None, extra=extra)  # the default pace
    events = observe(mosquitto.port, f"cashnguns/{table.table}/game/event")
    topic = f"homeassistant/device/cashnguns_{table.table}/config"
    discovery = observe(mosquitto.port, topic)
    bot = TableBot(table, random.Random(3), too_slow=0.0)
    bot.new_game(NAMES[:4], powers="none", seed=3)
    held: set[float] = set()  # the hold each countdown's replay says it asked for
    while (state := table.control())["round"] == 1:
        held |= {r["hold_ms"] for r in state["replays"]}
        bot.step(state)
    assert held == {500}  # the default's
    assert table.stop() == 0  # a clean stop on SIGTERM
    write_config(table.config, table.table, mosquitto.port, table.web_port, 4, FAST, extra)
    table.restarts += 1
    table.start()
    held.clear()
    while not (state := table.control())["over"]:
        held |= {r["hold_ms"] for r in state["replays"]}
        bot.step(state)
    final = state
    assert held == {FAST["hold_ms"]}
    same_game(final, replayed(table))
    assert "over 2 start(s)" in replays_call_for_call(table)  # hub, broker and HTTP, again
    config = json.loads(discovery.expect(topic))
    assert config["cmps"]["seat2"]["state_topic"] == f"cashnguns/{table.table}/player/2/event"
    over = json.loads(events.expect(f"cashnguns/{table.table}/game/event",
                                    lambda p: '"game_over"' in p, timeout=10))
    assert over["winners"] == final["winners"]
    assert table.stop() == 0  # a clean stop on SIGTERM


def test_a_journal_that_cannot_be_opened_stops_the_start_with_a_sentence(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    done = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--journal",
                           str(blocker / "journal.sqlite3"), "--port", "0"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 1
    assert "cannot open the game journal" in done.stderr and "Traceback" not in done.stderr


def test_a_table_stopped_for_seconds_reads_its_guns_again(remote):
    """A starved Pi: the whole process stopped, then let go. Its hub link keeps the hub
    (the time it was kept waiting is not the hub's silence: the hub's lines wait in the
    port meanwhile) and each gun moved after that reads at its new target."""
    table = remote(4)
    TableBot(table, random.Random(1)).new_game(NAMES[:4], powers="none", seed=1)
    table.aim(1, 3)
    for stall, target in enumerate((2, 4, 2, 4)):
        table.proc.send_signal(signal.SIGSTOP)
        time.sleep(1.5 + 0.3 * stall)  # the stop itself: nothing to wait on
        table.proc.send_signal(signal.SIGCONT)
        table.sim(f"aim 1 {target}")
        wait_for(lambda t=target: table._reading(1, "aim") == t, 15,
                 f"gun 1 to read {target} after stop {stall + 1}")
    log = (table.config.parent / "run-0.log").read_text()
    assert "offline: silent" not in log  # each stop over twice the hub's 700 ms of silence
