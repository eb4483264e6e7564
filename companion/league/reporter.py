"""The table's side of the league: each finished game's result sent until it is stored.

When a game ends, its result (with the whole game as a scenario file) goes into the
outbox in the journal, then out at QoS 1 on `league/result`; it is sent again on every
reconnection to the broker, every time the bridge to the venue comes back up, and every
`league.resend_s`, until the league's acknowledgement arrives on `league/ack`. The league
takes a result it already has as the same one (its uid), so sending twice costs nothing.
The roster the league publishes is kept in the journal too, for the New game form.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from companion.bus import topics
from companion.bus.client import BusClient
from companion.bus.topics import Topics
from companion.league.outbox import Outbox
from companion.league.result import journal_tag, result_message
from companion.league.settings import LeagueSettings
from companion.referee.export import export_scenario
from companion.referee.table import Table
from companion.schema import MAX_NAME

log = logging.getLogger(__name__)
MAX_ROSTER = 10_000
STATUSES = ("accepted", "flagged", "voided")


class Reporter:
    def __init__(self, table: Table, bus: BusClient, settings: LeagueSettings) -> None:
        self.table, self.bus, self.settings = table, bus, settings
        self.outbox = Outbox(table.journal)
        self.tag = journal_tag(table.journal.secret())
        self.refused = 0  # acknowledgements and rosters that were not what they say
        self._queued: set[int] = set()  # games already in the outbox
        self._stop = threading.Event()
        self._send_lock = threading.Lock()

    def start(self) -> Reporter:
        name = self.table.name
        self.bus.subscribe(Topics(name).league_ack, self._on_ack)
        self.bus.subscribe(topics.ROSTER, self._on_roster)
        self.bus.subscribe(Topics(name).bridge_state, self._on_bridge)
        self.bus.on_connect(self.send_pending)
        self.table.subscribe(self._on_change)
        self._on_change(0)  # a game that ended just before a power cut
        threading.Thread(target=self._resend, name="league-resend", daemon=True).start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def roster(self) -> list[str]:
        return self.outbox.roster()

    def _on_change(self, _revision: int) -> None:
        """The game from the frame the outbox built after the change's writes, never the
        table now: a game just over there may not have its last action on disk yet, and its
        result would carry a scenario that stops short."""
        game = self.table.frame().t.game
        if game is None or game.id in self._queued or not game.state.over:
            return
        self._queued.add(game.id)
        if self.outbox.has(game.id):
            return
        now = self.table.clock.now_ms()
        message = result_message(self.table.name, self.tag, game,
                                 export_scenario(self.table.journal, game.id), now)
        self.outbox.add(game.id, message["uid"], json.dumps(message), now)
        log.info("game %d is over: its result %s is in the outbox", game.id, message["uid"])
        self.send_pending()

    def send_pending(self) -> None:
        """Publish every result the league has not acknowledged yet, at QoS 1."""
        with self._send_lock:
            for _uid, payload in self.outbox.pending():
                self.bus.publish(Topics(self.table.name).league_result, payload, qos=1)

    def _resend(self) -> None:
        while not self._stop.wait(self.settings.resend_s):
            if self.bus.connected.is_set():
                self.send_pending()

    def _on_bridge(self, _topic: str, payload: bytes) -> None:
        if payload == b"1":  # the link to the venue is back
            self.send_pending()

    def _on_ack(self, _topic: str, payload: bytes) -> None:
        ack = _json(payload)
        uid, status = ack.get("uid"), ack.get("status")
        if not isinstance(uid, str) or status not in STATUSES:
            self._refuse(f"an acknowledgement is not {{uid, status}}: {payload[:120]!r}")
            return
        if self.outbox.acknowledge(uid, status, self.table.clock.now_ms()):
            log.info("the league has the result %s: %s", uid, status)

    def _on_roster(self, _topic: str, payload: bytes) -> None:
        names = _json(payload).get("players")
        if not isinstance(names, list) or len(names) > MAX_ROSTER or not all(
                isinstance(n, str) and 1 <= len(n) <= MAX_NAME for n in names):
            self._refuse(f"the roster is not {{players: [names]}}: {payload[:120]!r}")
            return
        self.outbox.keep_roster(names)

    def _refuse(self, why: str) -> None:
        self.refused += 1
        log.warning("league: %s", why)


def _json(payload: bytes) -> dict[str, Any]:
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}
