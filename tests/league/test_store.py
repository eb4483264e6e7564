"""The league's records on SQLite and on a real PostgreSQL server: results replayed, stored
once, rated as openskill rates them; forgeries flagged and never rated; the organiser's
decisions rate every game again."""

from __future__ import annotations

import json

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import insert

from companion.league.result import parse_claim
from companion.league.schema import LATEST, SchemaError, migrations_table, version
from companion.league.simtable import sim_game
from companion.league.store import Store, StoreError
from companion.league.verify import verify

SEATINGS = [("Ana", "Bob", "Cyd", "Dee", "Eve"), ("Bob", "Fay", "Ana", "Gus"),
            ("Hal", "Cyd", "Ana", "Bob", "Fay", "Eve"), ("Dee", "Eve", "Fay", "Gus")]


def message(table: str, seed: int, names: tuple[str, ...]) -> dict:
    """A played game's result; each seed its own journal (its tag), its game number 1."""
    return sim_game(seed, len(names), names).result(table, f"{seed:012x}",
                                                    1_700_000_000_000.0 + seed)


def take(store: Store, msg: dict, table: str | None = None):
    claim = parse_claim(json.dumps(msg).encode(), table or msg["table"])
    return store.add(claim, verify(claim), 1_700_000_000_500.0)


def expected_ratings(messages: list[dict]) -> dict[str, tuple[float, float, int]]:
    """The ratings computed here, from the claimed results, with openskill alone."""
    model = PlackettLuce()
    now: dict[str, tuple[float, float, int]] = {}
    for msg in messages:
        keys = [(p["name"] in msg["winners"], p["alive"], p["score"] if p["alive"] else 0)
                for p in msg["players"]]
        ranks = [1 + sum(k2 > k for k2 in keys) for k in keys]
        teams = [[model.rating(*now.get(p["name"], (25.0, 25 / 3, 0))[:2])]
                 for p in msg["players"]]
        for p, team in zip(msg["players"], model.rate(teams, ranks=ranks), strict=True):
            now[p["name"]] = (team[0].mu, team[0].sigma, now.get(p["name"], (0, 0, 0))[2] + 1)
    return now


def check_standings(store: Store, messages: list[dict]) -> None:
    expected = expected_ratings(messages)
    standings = store.standings()
    assert {p["name"] for p in standings} == set(expected)
    for p in standings:
        mu, sigma, games = expected[p["name"]]
        assert p["mu"] == pytest.approx(mu) and p["sigma"] == pytest.approx(sigma)
        assert p["games"] == games
        assert p["rating"] == pytest.approx(mu - 3 * sigma, abs=1e-3)
    ratings = [p["rating"] for p in standings]
    assert ratings == sorted(ratings, reverse=True)


def test_results_are_replayed_stored_once_and_rated_as_openskill_rates_them(database_url):
    store = Store(database_url)
    messages = [message(f"t{i % 2}", seed, names) for i, (seed, names) in
                enumerate(zip((3, 5, 8, 13), SEATINGS, strict=True))]
    for msg in messages:
        stored = take(store, msg)
        assert stored.new and stored.status == "accepted"
    again = take(store, messages[1])
    assert not again.new and again.status == "accepted"
    check_standings(store, messages)
    assert store.roster() == sorted({n for names in SEATINGS for n in names})
    ana = next(p for p in store.standings() if p["name"] == "Ana")
    history = store.player(ana["id"])["history"]
    assert len(history) == 3 and all(h["change"] is not None for h in history)
    game = store.game(history[0]["game"])
    assert game["chart"]["winners"] == messages[2]["winners"]
    assert len(game["chart"]["history"]["wealth"]) == 8 or not all(
        p["alive"] for p in messages[2]["players"])
    store.close()


def test_a_forged_score_is_flagged_kept_and_never_rated(database_url):
    store = Store(database_url)
    honest = message("t1", 21, SEATINGS[0])
    take(store, honest)
    forged = message("t2", 34, SEATINGS[1])
    loser = next(p for p in forged["players"] if p["name"] not in forged["winners"])
    loser["score"] += 100_000
    stored = take(store, forged)
    assert stored.status == "flagged"
    game = store.game(stored.id)
    assert game["mismatch"] and any(f"{loser['name']}'s score" in p for p in game["problems"])
    assert game["results"] == []  # never rated
    check_standings(store, [honest])
    assert "Gus" not in store.roster()  # a forged game brings no one to the roster
    with pytest.raises(StoreError, match="never rated"):
        store.decide(stored.id, "restore", None)
    store.close()


def test_the_organiser_flags_voids_and_restores_and_every_game_is_rated_again(database_url):
    store = Store(database_url)
    messages = [message("t1", seed, names)
                for seed, names in zip((2, 4, 6), SEATINGS, strict=False)]
    ids = [take(store, m).id for m in messages]
    assert store.decide(ids[1], "flag", "two players swapped seats") == "flagged"
    check_standings(store, [messages[0], messages[2]])
    assert store.game(ids[1])["note"] == "two players swapped seats"
    assert store.decide(ids[1], "restore", None) == "accepted"
    check_standings(store, messages)
    assert store.decide(ids[0], "void", None) == "voided"
    check_standings(store, messages[1:])
    assert store.counts() == {"accepted": 2, "voided": 1}
    with pytest.raises(StoreError, match="no game"):
        store.decide(999, "void", None)
    with pytest.raises(StoreError, match="decision"):
        store.decide(ids[0], "delete", None)
    store.close()


def test_a_scenario_that_is_no_table_export_is_flagged(database_url):
    store = Store(database_url)
    msg = message("t1", 9, SEATINGS[0])
    msg["scenario"] = msg["scenario"].replace("actions:", "start: {round: 8}\nactions:", 1)
    stored = take(store, msg)
    assert stored.status == "flagged"
    assert "mid-game" in store.game(stored.id)["problems"][0]
    cut = message("t1", 10, SEATINGS[0])
    cut["scenario"] = "\n".join(cut["scenario"].splitlines()[:-12]) + "\n"
    stored = take(store, cut)
    assert "not over" in store.game(stored.id)["problems"][0]
    store.close()


def test_the_schema_is_migrated_once_and_a_newer_database_is_refused(database_url):
    store = Store(database_url)
    assert store.migrated == list(range(1, LATEST + 1))
    store.close()
    again = Store(database_url)
    assert again.migrated == []
    with again.engine.begin() as conn:
        assert version(conn) == LATEST
        conn.execute(insert(migrations_table).values(version=LATEST + 1, applied_ms=0))
    again.close()
    with pytest.raises(SchemaError, match="newer"):
        Store(database_url)


def copy_of(msg: dict, table: str, tag: str, game: int) -> dict:
    """The same game sent again as another game number, journal tag or table."""
    return {**msg, "table": table, "game": game, "uid": f"{table}.{tag}.{game}"}


def test_a_game_is_stored_and_rated_once_whatever_number_tag_or_table_it_claims(database_url):
    store = Store(database_url)
    first = message("t1", 3, SEATINGS[0])
    assert take(store, first).new
    copies = [copy_of(first, "t1", f"{3:012x}", 2), copy_of(first, "t1", "abcdefabcdef", 1),
              copy_of(first, "t2", f"{3:012x}", 1)]
    for copy in copies:
        again = take(store, copy)
        assert not again.new and again.status == "accepted"
    assert store.counts() == {"accepted": 1}
    check_standings(store, [first])  # rated once
    store.close()


def test_a_database_of_the_first_version_learns_games_by_content(database_url):
    from sqlalchemy import text

    store = Store(database_url)
    with store.engine.begin() as conn:  # as a league of the first version left it
        conn.execute(text("DROP INDEX games_by_content"))
        conn.execute(text("ALTER TABLE games DROP COLUMN content"))
        conn.execute(text("DELETE FROM league_migrations WHERE version >= 2"))
    store.close()
    again = Store(database_url)
    assert again.migrated == [2, 3]
    msg = message("t1", 5, SEATINGS[1])
    assert take(again, msg).new and not take(again, copy_of(msg, "t1", "0" * 12, 4)).new
    again.close()


def test_copies_stored_before_games_were_known_by_content_are_counted_once(database_url):
    """A league that stored the same game twice before v2 (another number, tag or table)
    keeps the first, voids the copy with a note naming it, and rates the game once."""
    from sqlalchemy import text

    store = Store(database_url)
    first, other = message("t1", 7, SEATINGS[0]), message("t2", 8, SEATINGS[1])
    for msg in (first, other):
        take(store, msg)
    copy = copy_of(first, "t2", "0" * 12, 9)
    with store.engine.begin() as conn:  # the copy, stored as a league before v2 stored it
        conn.execute(text(
            "INSERT INTO games (uid, table_id, table_game, ended_ms, received_ms, status, "
            "mismatch, problems, claimed, chart, scenario, note, content) SELECT :uid, "
            "table_id, table_game, ended_ms, received_ms, status, mismatch, problems, claimed, "
            "chart, scenario, note, NULL FROM games WHERE uid = :first"),
            {"uid": copy["uid"], "first": first["uid"]})
        conn.execute(text(
            "INSERT INTO results (game_id, player_id, seat, power, alive, wounds, score, "
            "winner, place) SELECT (SELECT id FROM games WHERE uid = :uid), player_id, seat, "
            "power, alive, wounds, score, winner, place FROM results WHERE game_id = "
            "(SELECT id FROM games WHERE uid = :first)"),
            {"uid": copy["uid"], "first": first["uid"]})
        conn.execute(text("UPDATE games SET content = NULL"))
        conn.execute(text("DELETE FROM league_migrations WHERE version = 3"))
    store.close()
    again = Store(database_url)
    assert again.migrated == [3]
    assert again.counts() == {"accepted": 2, "voided": 1}
    voided = next(g for g in again.games() if g["status"] == "voided")
    assert again.game(voided["id"])["note"] == f"the same game as {first['uid']}: counted once"
    check_standings(again, [first, other])  # rated once each
    assert not take(again, copy_of(other, "t3", "1" * 12, 2)).new  # known by content now
    again.close()


def test_the_game_page_shows_the_diamonds_the_bonus_and_a_flagged_games_replayed_winners(
        database_url):
    store = Store(database_url)
    forged = message("t1", 34, SEATINGS[1])
    real_winners = forged["winners"]
    loser = next(p["name"] for p in forged["players"] if p["name"] not in real_winners)
    forged["winners"] = [loser]
    stored = take(store, forged)
    assert stored.status == "flagged"
    listed = next(g for g in store.games() if g["id"] == stored.id)
    assert listed["winners"] == real_winners  # what the replay gives, not the claim
    final = store.game(stored.id)["chart"]["final"]
    diamonds = {row["name"]: sum(card.startswith("diamond") for card in row["loot"])
                for row in final}
    assert {row["name"]: row["diamond_cards"] for row in final} == diamonds
    alive = [row["name"] for row in final if row["alive"]]
    most = max(diamonds[name] for name in alive)
    top = [name for name in alive if diamonds[name] == most]  # the bonus: strictly the most
    assert [row["name"] for row in final if row["bonus"]] == (top if len(top) == 1 else [])
    store.close()
