"""The night's standings and awards from a journal of several recorded games.

The games are whole games played by random legal players (companion.bots.random_bot) and
written to a real journal as the referee writes them (a setup, the actions, finished). The
expected figures are counted here from each game's final report, the JSON `companion replay`
prints (rules/report.py: every player's score, the winners, the events as dicts), not from
the evening's code.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.bots.random_bot import play
from companion.clock import SYSTEM_CLOCK
from companion.dashboard.app import create_app
from companion.dashboard.evening import Evening
from companion.dashboard.settings import DashboardSettings
from companion.referee.effects import Record, Undo
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table
from companion.rules import Setup, state_to_dict
from companion.rules.actions import action_from_dict

NIGHT = (  # (players, seed): four finished games, not always the same players
    (("Ana", "Bob", "Cyd", "Dee"), 11),
    (("Ana", "Bob", "Cyd", "Dee"), 12),
    (("Ana", "Bob", "Eve"), 13),
    (("Bob", "Cyd", "Dee", "Eve", "Sofía"), 14),
)


def record(journal: Journal, names: tuple[str, ...], seed: int, finish: bool = True) -> dict:
    """A game played to its end, journaled; its final report (or None if left unfinished)."""
    setup = Setup(players=names, seed=seed)
    played = play(setup, random.Random(seed))
    seats = {n: i + 1 for i, n in enumerate(names)}
    game = journal.new_game({"players": list(names), "seats": seats, "powers": {}, "seed": seed,
                             "cards": "digital", "loot": "digital"}, 0.0)
    actions = played.actions if finish else played.actions[:12]
    journal.commit([], [Record(game, n, action_from_dict(action.to_dict()), "tablet", float(n))
                        for n, action in enumerate(actions, start=1)])  # (one transaction)
    journal.finish(game)  # (an abandoned game is finished too, without its end)
    return state_to_dict(played.state)


def expected(reports: list[dict]) -> tuple[list[dict], dict[str, dict]]:
    played, wins, loot, best = Counter(), Counter(), Counter(), Counter()
    survived, godfather = Counter(), Counter()
    for r in reports:
        for p in r["players"]:
            name = p["name"]
            played[name] += 1
            loot[name] += p["score"]["total"]
            best[name] = max(best[name], p["score"]["total"])
        wins.update(r["winners"])
        out = {e["player"] for e in r["events"] if e["type"] == "eliminated"}
        for e in r["events"]:
            if e["type"] in ("wounded", "lucky") and e["player"] not in out:
                survived[e["player"]] += len(e["by"])
            if e["type"] == "round":
                godfather[e["godfather"]] += 1
    rows = [{"name": n, "played": played[n], "wins": wins[n], "loot": loot[n]} for n in played]
    rows.sort(key=lambda r: (-r["wins"], -r["loot"], r["name"]))
    awards = {}
    for award, counts in (("survivor", survived), ("godfather", godfather), ("haul", best)):
        top = max(counts.values(), default=0)
        if top:
            awards[award] = {"award": award, "value": top,
                             "names": sorted(n for n, v in counts.items() if v == top)}
    return rows, awards


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def test_the_night_counts_every_finished_game_and_no_abandoned_one(journal):
    reports = [record(journal, names, seed) for names, seed in NIGHT]
    record(journal, ("Ana", "Bob", "Cyd"), 99, finish=False)  # abandoned after 12 actions
    assert all(r["phase"] == "over" for r in reports)
    rows, awards = expected(reports)
    night = Evening(journal).state()
    assert night["games"] == 4
    assert night["standings"] == rows
    assert {a["award"]: a for a in night["awards"]} == awards
    assert {"survivor", "godfather", "haul"} <= set(awards)  # the night has all three
    assert sum(r["wins"] for r in rows) >= 4  # (a shared win counts for each)
    assert [r["played"] for r in rows if r["name"] == "Ana"] == [3]


def test_the_end_of_the_night_starts_a_new_one_and_outlives_a_restart(journal):
    for names, seed in NIGHT[:2]:
        record(journal, names, seed)
    evening = Evening(journal)
    assert evening.state()["games"] == 2
    assert evening.end_night() == 3  # the next game begins the new night
    assert evening.state() == {"games": 0, "standings": [], "awards": []}
    later = record(journal, *NIGHT[2])
    night = Evening(journal).state()  # a restart reads the night from the journal
    assert night["games"] == 1
    assert night["standings"] == expected([later])[0]


def test_a_game_changed_after_its_end_is_counted_again(journal):
    """A finished game's summary is kept until its actions change: an undo of its last
    action leaves it unfinished, so the night no longer counts it."""
    report = record(journal, *NIGHT[0])
    evening = Evening(journal)
    assert evening.state()["standings"] == expected([report])[0]
    game = journal.latest_game()[0]
    journal.commit([], [Undo(game, journal.entries(game)[-1].seq)])
    assert evening.state()["games"] == 0


def test_only_the_godfather_ends_the_night(tmp_path):
    table = Table("unit", RefereeSettings(pin="1357"), Journal(tmp_path / "j.sqlite3"),
                  SYSTEM_CLOCK)
    record(table.journal, *NIGHT[0])
    client = create_app(table, DashboardSettings()).test_client()
    assert client.get("/api/evening").json["games"] == 1
    assert client.post("/api/evening/end").status_code == 401
    csrf = client.post("/api/login", json={"pin": "1357"}).json["csrf"]
    assert client.post("/api/evening/end").status_code == 403  # no CSRF token
    assert client.get("/api/evening").json["games"] == 1
    r = client.post("/api/evening/end", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.json["games"] == 0
    table.journal.close()
