"""A table whose `mqtt.url` is the venue's broker: its referee and its outbox talk to the
league directly. A game that ended before a restart is found in the journal and sent; the
league replays and stores it, acknowledges it, and the table keeps the roster it sends."""

from __future__ import annotations

from venue import start_league

from companion.bus.client import BusClient
from companion.bus.topics import Topics
from companion.clock import SYSTEM_CLOCK
from companion.league.reporter import Reporter
from companion.league.settings import LeagueSettings
from companion.league.simtable import sim_game
from companion.referee.journal import Journal
from companion.referee.mqtt_link import RefereeLink
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table

NAMES = ("Iva", "Jon", "Kim", "Lou", "Max")


def test_a_table_on_the_venue_broker_reports_its_game_and_keeps_the_roster(
        tmp_path, venue, database_url, poll_until):
    running = start_league(venue, database_url, ("cafe-1", "cafe-2", "cafe-3"))
    journal = Journal(tmp_path / "journal.sqlite3")
    played = sim_game(17, 5, NAMES, journal=journal)  # over before the table (re)started
    table = Table("cafe-2", RefereeSettings(), journal, SYSTEM_CLOCK)
    topics = Topics("cafe-2")
    bus = BusClient(venue.settings("cafe-2"), "cafe-2-referee", f"{topics.base}/referee/status")
    RefereeLink(table, bus, topics).start()
    reporter = Reporter(table, bus, LeagueSettings(shared=True)).start()
    bus.start()
    try:
        entry = poll_until(lambda: [e for e in reporter.outbox.entries() if e["acked_ms"]],
                           10, "the league's acknowledgement")[0]
        assert entry["status"] == "accepted" and entry["game"] == played.game_id
        game = running.store.game(running.store.games()[0]["id"])
        assert game["uid"] == entry["uid"] and game["table"] == "cafe-2"
        assert game["claimed"]["winners"] == played.played.state.winners
        poll_until(lambda: reporter.roster() == sorted(NAMES), 10, "the roster at the table")
        league = venue.client("league")  # what is not a roster or an ack changes nothing
        league.publish("cashnguns/_league/roster", '{"players": "Iva"}', qos=1, retain=True)
        league.publish("cashnguns/cafe-2/league/ack", '{"uid": 3}', qos=1)
        poll_until(lambda: reporter.refused == 2, 10, "the bad roster and ack to be refused")
        assert reporter.roster() == sorted(NAMES)
        assert reporter.outbox.entries()[0]["status"] == "accepted"
        league.loop_stop()
        cafe2 = poll_until(lambda: next((t for t in running.league.view()["tables"]
                                         if t["table"] == "cafe-2" and t["over"]), None),
                           10, "the table's end on the venue's view")
        assert cafe2["online"] and cafe2["leaders"] == played.played.state.winners
        offline = {t["table"]: t["online"] for t in running.league.view()["tables"]}
        assert offline == {"cafe-1": False, "cafe-2": True, "cafe-3": False}
    finally:
        reporter.stop()
        bus.stop()
        running.stop()
        journal.close()
