"""The referee on the bus: sensor facts in; public game state, events and discovery out.

Inbound sensor facts come from other programs and go straight to the table through the
referee's half of the sensor wire (inputs.py), which checks them. Outbound, the
retained `game/state` never holds a secret (it is the spectators' view), and events go to
`game/event` and to one topic per player, which Home Assistant's discovery
(companion.bus.homeassistant) turns into an event entity per seat, beside sensors read from
`game/state`.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from typing import Any

from companion.bus.client import BusClient, on_the_wire
from companion.bus.homeassistant import PLAYER_EVENTS, device_discovery
from companion.bus.topics import DISCOVERY_PREFIX, OFFLINE, ONLINE, SEATS, Topics, birth
from companion.clock import SYSTEM_CLOCK
from companion.referee.inputs import FactSubscriber
from companion.referee.table import Table
from companion.referee.views import public_event
from companion.rules.events import Event, Revealed, Took

log = logging.getLogger(__name__)


def _seconds() -> float:
    """The probe's own time: real time, whatever clock the table decides by."""
    return SYSTEM_CLOCK.now_ms() / 1000

# engine event -> published event type
EVENT_TYPES = {"wounded": "wounded", "eliminated": "eliminated", "lay_down": "lay_down",
               "game_over": "game_over"}
BROKER = "broker"  # a link's name; a sensor device's is "device:<id>"
PROBE_EVERY_S = 0.2  # the referee sends itself a message through the broker this often
# a probe not echoed for this long while connected: the broker is not answering (probes
# go every 0.2 s, so three in a row have gone unanswered: a hang is called within 0.8 s)
PROBE_SILENT_S = 0.5
# Outside a countdown an echo goes to the referee (and its journal) only this often: enough
# to keep the broker a source the next count waits for (watermarks.STALE_MS), at a row a
# second rather than five; an outage is then dated up to this much early, never late.
ECHO_IDLE_S = 1.0


def published_events(e: Event) -> list[dict[str, Any]]:
    """The MQTT events one engine event makes (docs/MQTT.md), secrets left out."""
    pub = public_event(e)
    if isinstance(e, Revealed) and e.card == "bang":
        return [{**pub, "type": "shot"}]
    if isinstance(e, Took):
        return [{**pub, "type": "godfather" if e.loot == "godfather" else "loot_taken"}]
    if e.type in EVENT_TYPES:
        return [{**pub, "type": EVENT_TYPES[e.type]}]
    return []


class RefereeLink:
    def __init__(self, table: Table, bus: BusClient, topics: Topics,
                 home_assistant: bool = False, discovery_prefix: str = DISCOVERY_PREFIX) -> None:
        self.table, self.bus, self.topics = table, bus, topics
        self.home_assistant, self.prefix = home_assistant, discovery_prefix
        self.facts: FactSubscriber | None = None
        self._probe_topic = topics.referee_probe
        self._echo_at = _seconds()
        # when the first probe since the last echo went on the wire: silence is counted
        # from it (a probe still queued in a process kept waiting was not sent)
        self._unanswered: float | None = None
        self._echoes = 0  # echoes heard: a probe written after one is the next to answer
        self._silent = False  # the probe, not the connection, says the broker is down
        # the watch (its thread) and the echo (paho's) each decide and tell the table under
        # this lock: a link said down after an echo said it up again would stay down
        self._health = threading.Lock()
        self._fed_at = float("-inf")  # when an echo last went to the table
        self._sent_version = -1
        self._sent_events = 0
        self._game: int | None = None

    def start(self) -> None:
        self.facts = FactSubscriber(self.bus.subscribe, self.topics, self.table.on_fact)
        self.bus.subscribe(self.topics.device_info, self._on_device)
        self.bus.subscribe(self._probe_topic, self._on_echo)
        if self.home_assistant:
            self.bus.subscribe(birth(self.prefix), self._on_birth)
        self.bus.on_connect(self._on_connect)
        self.bus.on_disconnect(lambda reason: self.table.link(BROKER, False, reason))
        if not self.bus.connected.is_set():
            self.table.link(BROKER, False, "not connected yet")
        self.table.subscribe(self._on_change)
        if self.bus.connected.is_set():
            self._on_connect()

    def watch_broker(self, stop: threading.Event) -> None:
        """Notice a hung broker within a second: it keeps the connection open, so only
        MQTT's keep-alive would notice, after tens of seconds. The referee's own messages
        through the broker must come back. Silence is counted from the first probe put on
        the wire since the last echo, and a broker whose bytes wait unread on the socket
        has answered: a process kept waiting (a starved machine, a slow handler on paho's
        thread) neither sends nor reads, and that is not taken for the broker's silence."""
        while not stop.wait(PROBE_EVERY_S):
            if not self.bus.connected.is_set():
                continue
            with self._health:
                if not self._silent and self._unanswered is not None and \
                        _seconds() - self._unanswered > PROBE_SILENT_S and \
                        not self.bus.unread():
                    self._silent = True
                    self.table.link(BROKER, False, "not answering")
                echoes = self._echoes
            sent = self.table.clock.now_ms()  # (the table's clock: the echo is its watermark)
            info = self.bus.publish(self._probe_topic, f"{sent:.3f}".encode(), qos=0)
            if on_the_wire(info, PROBE_EVERY_S):
                with self._health:
                    if self._unanswered is None and self._echoes == echoes:
                        self._unanswered = _seconds()

    def _on_echo(self, _topic: str, payload: bytes) -> None:
        sent = probe_sent(payload)
        if sent is None:
            log.warning("referee probe: not a probe's send time (%r), ignored", payload[:40])
            return
        with self._health:
            self._echo_at, self._unanswered = _seconds(), None
            self._echoes += 1
            if self._silent:
                self._silent = False
                self.table.link(BROKER, True, "answering again")
        if self.table.stage.name in ("countdown", "kid") or \
                self._echo_at - self._fed_at >= ECHO_IDLE_S:
            self._fed_at = self._echo_at
            self.table.echo(sent)

    def _on_device(self, _topic: str, payload: bytes) -> None:
        """A sensor device online or not, and a hub's slot schedule (the order of the masks
        in `hub/seen`)."""
        schedule = hub_schedule(payload)
        if schedule is not None:
            self.table.schedule(*schedule)
        try:
            info = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            return
        if isinstance(info, dict) and isinstance(info.get("device"), str) and \
                isinstance(info.get("online"), bool):
            self.table.link(f"device:{info['device'][:32]}", info["online"],
                            str(info.get("reason", "?"))[:40])

    def _on_connect(self) -> None:
        with self._health:
            self._echo_at, self._unanswered, self._silent = _seconds(), None, False
            self.table.link(BROKER, True, "connected")  # (the client says `online` itself)
        if self.home_assistant:
            self._discovery()
        self._sent_version = -1
        self._on_change(0)

    def _on_change(self, _revision: int) -> None:
        """The game's state and its new events, from the views the table built."""
        frame = self.table.frame()
        if frame.version == self._sent_version:  # a sensor reading: not game state
            return
        self._sent_version = frame.version
        state = json.loads(frame.public_json())  # (the public view, as the streams send it)
        self.bus.publish(self.topics.game_state, json.dumps(state), retain=True)
        game = frame.t.game
        if game is None:
            return
        if self._game != game.id:
            self._game, self._sent_events = game.id, len(game.state.events)
        for e in game.state.events[self._sent_events:]:
            for out in published_events(e):
                payload = json.dumps(out)
                self.bus.publish(self.topics.game_event, payload)
                if out["type"] in PLAYER_EVENTS and out.get("player") in game.seat_of:
                    seat = game.seat_of[out["player"]]
                    self.bus.publish(self.topics.player_event(seat),
                                     json.dumps({"event_type": out["type"], **out}))
        self._sent_events = len(game.state.events)

    def _on_birth(self, topic: str, payload: bytes) -> None:
        """Home Assistant (re)started: it forgets what it was told, so tell it again."""
        if payload == ONLINE.encode():
            self._discovery()
        elif payload != OFFLINE.encode():
            log.warning("%s: neither %s nor %s (%r), ignored", topic, ONLINE, OFFLINE,
                        payload[:40])

    def _discovery(self) -> None:
        """The table's one device-based discovery message, retained; the per-seat messages
        of earlier versions cleared, so no entity is announced twice."""
        for seat in SEATS:
            self.bus.publish(self.topics.discovery(seat, self.prefix), b"", retain=True)
        self.bus.publish(self.topics.device_discovery(self.prefix),
                         json.dumps(device_discovery(self.topics)), retain=True)


def probe_sent(payload: bytes) -> float | None:
    """When an echoed probe was sent (the table's clock, in ms); None if it is not one."""
    try:
        sent = float(payload.decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        return None
    return sent if math.isfinite(sent) and sent >= 0 else None


def hub_schedule(payload: bytes) -> tuple[tuple[int, ...], int] | None:
    """(seats in slot order, slot_us) from a hub's device info; None for anything else."""
    try:
        info = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(info, dict) or info.get("kind") != "hub":
        return None
    seats, slot_us = info.get("seats"), info.get("slot_us")
    if (isinstance(seats, list) and 1 <= len(seats) <= 8 and len(set(seats)) == len(seats)
            and all(type(s) is int and 1 <= s <= 8 for s in seats)
            and type(slot_us) is int and 1000 <= slot_us <= 50_000):
        return tuple(seats), slot_us
    return None
