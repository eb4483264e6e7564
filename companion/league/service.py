"""The league at work: the venue's tables followed live, their results verified and stored.

It subscribes, as the venue broker's `league` user, to every table's public state, its
status topics and its results. Results go to one worker thread in arrival order: each is
checked (result.py), replayed (verify.py), stored and rated (store.py), and only then
acknowledged to its table on `league/ack`, so an acknowledgement always means "stored".
A result the league already has is acknowledged again with its first fate. The roster is
published retained whenever a game brings a new name.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from companion.bus import topics
from companion.bus.client import BusClient
from companion.bus.topics import Topics
from companion.clock import SYSTEM_CLOCK, Clock
from companion.league.live import VenueTables
from companion.league.result import ResultError, parse_claim
from companion.league.store import Store
from companion.league.verify import verify

log = logging.getLogger(__name__)
STANDINGS_SHOWN = 100


class League:
    def __init__(self, store: Store, bus: BusClient, tables: tuple[str, ...] = (),
                 clock: Clock = SYSTEM_CLOCK) -> None:
        self.store, self.bus, self.clock = store, bus, clock
        self.tables = VenueTables(tables)
        self.refused = 0  # result messages that were not results
        self.stored = 0
        self._results: queue.Queue[tuple[str, bytes, float] | None] = queue.Queue()
        self._listeners: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self.version = 0  # bumped by every change the venue page shows
        self._board: dict[str, Any] = {}
        self._roster_size = -1
        self._worker: threading.Thread | None = None

    def start(self) -> League:
        self.refresh()
        self.bus.subscribe(topics.every_table(topics.GAME_STATE), self._on_state)
        self.bus.subscribe(topics.every_table(topics.REFEREE_STATUS),
                           self._on_status("referee"))
        self.bus.subscribe(topics.every_table(topics.BRIDGE_STATE), self._on_status("bridge"))
        self.bus.subscribe(topics.every_table(topics.LEAGUE_RESULT), self._on_result)
        self.bus.on_connect(self.publish_roster)
        self._worker = threading.Thread(target=self._work, name="league-results", daemon=True)
        self._worker.start()
        return self

    def stop(self) -> None:
        self._results.put(None)
        if self._worker is not None:
            self._worker.join(10)

    # -- what the venue page reads -------------------------------------------------------

    def subscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        with self._lock:
            self.version += 1
        for listener in list(self._listeners):
            listener()

    def refresh(self) -> None:
        """Read the standings and latest games again (after a result or a decision)."""
        board = {"standings": self.store.standings()[:STANDINGS_SHOWN],
                 "games": self.store.games(), "counts": self.store.counts()}
        with self._lock:
            self._board = board
        self._changed()

    def view(self) -> dict[str, Any]:
        """The venue page's whole state: every table live, the standings, the latest games."""
        with self._lock:
            board, version = self._board, self.version
        return {"version": version, "revision": version, "now_ms": self.clock.now_ms(),
                "tables": self.tables.listing(), **board}

    # -- from the broker -----------------------------------------------------------------

    def _on_state(self, topic: str, payload: bytes) -> None:
        table = topics.table_of(topic)
        if table is not None and self.tables.state(table, payload, self.clock.now_ms()):
            self._changed()

    def _on_status(self, link: str) -> Callable[[str, bytes], None]:
        up = {"referee": {b"online": True, b"offline": False},
              "bridge": {b"1": True, b"0": False}}[link]

        def handle(topic: str, payload: bytes) -> None:
            table = topics.table_of(topic)
            if table is not None and payload in up:
                self.tables.status(table, link, up[payload], self.clock.now_ms())
                self._changed()

        return handle

    def _on_result(self, topic: str, payload: bytes) -> None:
        table = topics.table_of(topic)
        if table is not None:
            self._results.put((table, payload, self.clock.now_ms()))

    # -- results -------------------------------------------------------------------------

    def _work(self) -> None:
        while (item := self._results.get()) is not None:
            try:
                self.take(*item)
            except Exception:
                log.exception("a result from %s could not be stored; the table sends it again",
                              item[0])

    def take(self, table: str, payload: bytes, received_ms: float) -> str | None:
        """Check, replay, store and acknowledge one result; its status (None: refused)."""
        try:
            claim = parse_claim(payload, table)
        except ResultError as exc:
            self.refused += 1
            log.warning("a result from table %s is refused: %s", table, exc)
            return None
        known = self.store.status_of(claim.uid)  # a copy sent again: no second replay
        stored = self.store.add(claim, verify(claim), received_ms) if known is None else None
        status = stored.status if stored else known
        self.bus.publish(Topics(table).league_ack, json.dumps({"uid": claim.uid, "status": status}),
                         qos=1)
        if stored is not None and stored.new:
            self.stored += 1
            log.info("game %s from %s: %s", claim.uid, table, stored.status)
            self.refresh()
            self.publish_roster(only_if_grown=True)
        return status

    def decide(self, game_id: int, decision: str, note: str | None) -> str:
        """The organiser's flag, void or restore (store.decide), shown at once."""
        status = self.store.decide(game_id, decision, note)
        self.refresh()
        return status

    def publish_roster(self, only_if_grown: bool = False) -> None:
        """The roster, retained: every table keeps a copy for its New game form."""
        names = self.store.roster()
        if only_if_grown and len(names) == self._roster_size:
            return
        self._roster_size = len(names)
        self.bus.publish(topics.ROSTER, json.dumps({"players": names}), retain=True, qos=1)
