"""Show me: each settled countdown kept as the referee read it, with why each aim or
standee counted or not; and the Godfather's recount from it, journaled as an override."""

from __future__ import annotations

from typing import Any

import pytest
from local_table import NAMES8, LocalPort

from companion.referee.commands import CommandError
from companion.referee.journal import Journal
from companion.referee.journal_replay import replay_game
from companion.sensors.facts import Fact


def start(port: LocalPort, n: int = 5, **extra: Any) -> None:
    port.do("new_game", players=NAMES8[:n], powers="none", seed=1, **extra)
    for name in NAMES8[:n]:
        port.act(type="choose", player=name, card="bang")


def at(port: LocalPort, kind: str, seat: int, value: Any, t: float) -> None:
    """A fact that happened at `t` on the table's clock (delivered now)."""
    port.fact(kind, seat, value, dt=t - port.clock.now_ms())


def reasons(row: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(r["key"], r["args"]) for r in row["reasons"]]


def settled_holdup(port: LocalPort) -> dict[str, dict[str, Any]]:
    """Five guns, each a case the replay must explain (the default timing: hold 500,
    too slow 1000: an aim counts if begun by three + 500 and not let go before three)."""
    start(port)
    port.do("countdown")
    three = port.table.stage.three_ms
    for seat in range(1, 6):
        at(port, "raised", seat, True, three - 3000)
    at(port, "aim", 1, 2, three + 450)  # Ana: just in time
    at(port, "aim", 2, 3, three + 560)  # Bob: begun too late
    at(port, "aim", 3, 4, three - 300)  # Cyd: held from before three
    at(port, "aim", 4, 1, three - 900)  # Dee: let go before three
    at(port, "aim", 4, None, three - 100)
    at(port, "aim", 5, 1, three - 800)  # Eve: gun lowered before three
    at(port, "raised", 5, False, three - 200)
    for dt in range(100, 160, 10):  # Bob's gun sweeps across Dee's badge, never held
        port.table.on_fact(Fact("seen", 0, (0, 0b01000, 0, 0, 0), three + dt, "test"))
    # the hub's next rounds: the count's data is complete (its watermark passed the cutoff)
    port.table.on_fact(Fact("seen", 0, (0, 0, 0, 0, 0), three + 1010, "test"))
    port.run_for(three + 1300 - port.clock.now_ms())
    (replay,) = port.table.public_state()["replays"]
    assert replay["step"] == "holdup" and replay["cutoff_ms"] == 1000 and replay["hold_ms"] == 500
    assert replay["from_ms"] == -1000 and replay["beats_ms"] == [-800, 0]
    return {row["player"]: row for row in replay["rows"]}


def test_the_replay_says_why_each_aim_counted_or_not():
    rows = settled_holdup(LocalPort())
    assert reasons(rows["Ana"]) == [("why.counted", {"target": "Bob", "held": 550})]
    assert rows["Ana"]["verdict"] == {"key": "verdict.aims_at", "args": {"target": "Bob"}}
    assert rows["Ana"]["bars"] == [{"from": 450, "to": 1000, "why": "counted", "target": ["Bob"],
                                    "hold_to": 950}]
    late = {"key": "when.after", "args": {"ms": 560}}
    assert reasons(rows["Bob"]) == [("why.late", {"target": "Cyd", "when": late, "hold": 500}),
                                    ("why.swept", {"target": "Dee", "seen": 50, "hold": 500})]
    assert rows["Bob"]["verdict"]["key"] == "verdict.too_slow"
    assert reasons(rows["Cyd"]) == [("why.counted", {"target": "Dee", "held": 1300})]
    before = {"key": "when.before", "args": {"ms": 100}}
    assert reasons(rows["Dee"]) == [("why.dropped", {"target": "Ana", "when": before})]
    lowered = {"key": "when.before", "args": {"ms": 200}}
    assert reasons(rows["Eve"]) == [("why.lowered", {"target": "Ana", "when": lowered})]
    assert {"from": -200, "to": 1000, "why": "gun_down", "target": []} in rows["Eve"]["bars"]


def test_the_replay_of_the_courage_step():
    port = LocalPort()
    start(port, n=4)
    port.round_the_table()
    port.act(type="privilege", player="Ana", order=None)
    port.do("countdown")
    three = port.table.stage.three_ms
    at(port, "posture", 1, "down", three - 300)  # Ana: down, then up again in time
    at(port, "posture", 1, "up", three + 200)
    at(port, "posture", 3, "down", three + 120)  # Cyd: down 120 ms after three
    at(port, "posture", 4, "down", three + 800)  # Dee: after the cutoff (700 ms)
    port.run_for(three + 1000 - port.clock.now_ms())
    replay = port.table.public_state()["replays"][-1]
    rows = {row["player"]: row for row in replay["rows"]}
    assert replay["step"] == "courage" and replay["cutoff_ms"] == 700
    assert reasons(rows["Cyd"]) == [("why.lay_down", {
        "when": {"key": "when.after", "args": {"ms": 120}}, "cutoff": 700})]
    assert rows["Cyd"]["verdict"]["key"] == "verdict.down"
    assert reasons(rows["Dee"]) == [("why.down_late", {
        "when": {"key": "when.after", "args": {"ms": 800}}, "cutoff": 700})]
    assert reasons(rows["Ana"])[0][0] == "why.up_again"
    assert reasons(rows["Bob"]) == [("why.stood", {})]
    assert [r["down"] for r in port.table.public_state()["players"]] == [False, False, True,
                                                                         False]


def test_the_godfather_recounts_from_the_replay_and_the_journal_says_so():
    port = LocalPort()
    settled_holdup(port)
    recounts = {(b["command"]["player"], b["command"].get("target")): b
                for r in port.control()["replays"] for row in r["rows"] for b in row["recount"]}
    assert recounts[("Bob", "Dee")]["label"] == "recount.aim"
    assert ("Bob", None) not in recounts  # already counted too slow
    assert recounts[("Ana", None)]["label"] == "recount.too_slow"
    before = len(port.table.game.actions)
    port.command({**recounts[("Bob", "Dee")]["command"], "version": port.table.version})
    game = port.table.game
    bob = game.state.players[game.state.index["Bob"]]
    assert game.state.players[bob.target].name == "Dee"
    assert len(game.actions) == before  # replaced in place, the later aims kept
    entries = port.table.journal.entries(game.id)
    assert [(e.action.player, e.source) for e in entries if e.action.type == "aim"] == [
        ("Ana", "sensor"), ("Bob", "override"), ("Cyd", "sensor"), ("Dee", "sensor"),
        ("Eve", "sensor")]
    row = next(r for r in port.table.public_state()["replays"][0]["rows"]
               if r["player"] == "Bob")
    assert row["override"] is True and row["counted"] == {"target": "Dee"}
    assert row["reasons"][0]["key"] == "why.late"  # what the sensors read stays on record


@pytest.mark.parametrize("cmd,words", [
    ({"replay": 9, "player": "Bob", "target": "Ana"}, "replay: no countdown 9"),
    ({"replay": 1, "player": "Zed", "target": "Ana"}, "player: one of Ana, Bob"),
    ({"replay": 1, "player": "Bob", "target": "Bob"}, "target: another player's name"),
    ({"replay": 1, "player": "Bob", "target": None}, "already counted so"),
])
def test_a_recount_that_cannot_be_is_refused_with_a_sentence(cmd, words):
    port = LocalPort()
    settled_holdup(port)
    version = port.table.version
    with pytest.raises(CommandError) as refused:
        port.command({"type": "recount", "version": version, **cmd})
    assert words in refused.value.message
    assert port.table.version == version  # nothing changed


def test_a_new_round_forgets_the_replays():
    port = LocalPort()
    start(port, n=4)
    port.do("countdown")
    port.run_for(3000)
    assert len(port.table.public_state()["replays"]) == 1
    port.act(type="privilege", player="Ana", order=None)
    port.do("countdown")
    port.run_for(3000)
    assert [r["step"] for r in port.table.public_state()["replays"]] == ["holdup", "courage"]
    while port.table.game.state.phase == "split":
        port.act(**next(a for a in port.legal({}) if a["type"] == "take"))
    assert port.table.public_state()["replays"] == []


def restarted(port: LocalPort, path: Any) -> LocalPort:
    """The table stopped (a power cut) and started again on its journal."""
    port.table.close()
    port.table.journal.close()
    return LocalPort(path, port.clock)


def test_show_me_after_a_restart_mid_round_is_the_countdowns_as_read(tmp_path):
    """The round's countdowns are kept in the journal as they change, so "Show me" and its
    recounts survive a restart (twice: the second reads what the first start kept), and
    the game still replays view for view, the countdowns kept compared with those decided."""
    path = tmp_path / "journal.sqlite3"
    port = LocalPort(path)
    settled_holdup(port)
    before = port.control()["replays"]
    assert [r["step"] for r in before] == ["holdup"]
    for _ in range(2):
        port = restarted(port, path)
        assert port.control()["replays"] == before
    recount = next(b["command"] for r in port.control()["replays"] for row in r["rows"]
                   for b in row["recount"] if b["command"]["player"] == "Bob"
                   and b["command"].get("target") == "Dee")
    port.command({**recount, "version": port.table.version})
    game = port.table.game
    bob = game.state.players[game.state.index["Bob"]]
    assert game.state.players[bob.target].name == "Dee"
    port = restarted(port, path)
    row = next(r for r in port.table.public_state()["replays"][0]["rows"]
               if r["player"] == "Bob")
    assert row["override"] is True and row["counted"] == {"target": "Dee"}
    port.table.close()
    boots, done = replay_game(Journal(path), game.id)
    assert len(boots) == 4 and done.difference is None, str(done.difference)
