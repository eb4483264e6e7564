"""Sensor facts onto MQTT: a Fact to its topic and JSON payload, and the publisher that
sends them.

This is the sensors' half of the wire. The referee reads with its own half
(companion.referee.mqtt_link), and both check the one schema in companion.schema: known
kinds, seats 1..8, finite times in a sane range, values of the right type and range (no
NaN, no booleans posing as numbers), each kind's value under its key (`VALUE_KEYS`).
Layout and examples: docs/MQTT.md.

The publisher holds one lock around numbering and publishing, so the wire order is the
`seq` order. State (aim, raised, posture, device info and health) is retained, and its
latest payload is published again on each reconnect, so a broker that restarted (and lost
its retained messages) learns the whole state again. `lock` and `seen` are events: QoS 0,
not retained. A fact the schema refuses is counted and logged, never published.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from companion import schema
from companion.bus.client import BusClient
from companion.bus.topics import OFFLINE, ONLINE, Topics
from companion.sensors.facts import DeviceInfo, Fact, FactSink

log = logging.getLogger(__name__)

RETAINED = frozenset({"aim", "raised", "posture"})  # state; `lock` and `seen` are events


def topic(topics: Topics, fact: Fact) -> str:
    if fact.kind == "seen":
        return topics.hub_seen
    if fact.kind == "posture":
        return topics.standee_posture(fact.seat)
    return topics.gun(fact.seat, fact.kind)


def encode(fact: Fact, seq: int) -> str:
    """The JSON payload of a fact, numbered `seq`; schema.CodecError when the fact is malformed."""
    where = f"{fact.kind} fact of seat {fact.seat}"
    schema.check_seat(fact.kind, fact.seat, where)
    schema.check_value(fact.kind, fact.value, where)
    schema.check_t(fact.t_ms, where)
    value: Any = list(fact.value) if isinstance(fact.value, tuple) else fact.value
    data: dict[str, Any] = {} if fact.kind == "seen" else {"seat": fact.seat}
    data.update({schema.VALUE_KEYS[fact.kind]: value, "t": round(fact.t_ms, 3), "seq": seq,
                 "device": fact.device})
    return json.dumps(data, allow_nan=False)


class MqttPublisher(FactSink):
    def __init__(self, bus: BusClient, topics: Topics) -> None:
        self.bus, self.topics = bus, topics
        self.seq = 0
        self.refused = 0
        self._lock = threading.Lock()
        self._latest: dict[str, str] = {}
        bus.on_connect(self._republish)

    def fact(self, fact: Fact) -> None:
        with self._lock:
            try:
                payload = encode(fact, self.seq + 1)
            except schema.CodecError as exc:
                self.refused += 1
                if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
                    log.error("fact not published (%d so far): %s", self.refused, exc)
                return
            self.seq += 1
            name = topic(self.topics, fact)
            if fact.kind in RETAINED:
                self._publish(name, payload)
            else:
                self.bus.publish(name, payload, qos=0)

    def device(self, info: DeviceInfo) -> None:
        with self._lock:
            self.seq += 1
            payload = json.dumps({
                "device": info.device, "online": info.online, "reason": info.reason,
                "backend": info.backend, "kind": info.kind, "seat": info.seat,
                "firmware": info.firmware, "port": info.port, "name": info.name,
                "slot_us": info.slot_us, "seats": list(info.seats),
                "t": round(info.t_ms, 3), "seq": self.seq,
            })
            self._publish(self.topics.device(info.device, "info"), payload)
            self._publish(self.topics.device(info.device, "availability"),
                          ONLINE if info.online else OFFLINE)

    def health(self, device: str, figures: dict[str, Any], t_ms: float) -> None:
        with self._lock:
            self.seq += 1
            payload = json.dumps({"device": device, **figures, "t": round(t_ms, 3),
                                  "seq": self.seq})
            self._publish(self.topics.device(device, "stat"), payload)

    def _publish(self, topic: str, payload: str) -> None:
        self._latest[topic] = payload
        self.bus.publish(topic, payload, retain=True)

    def _republish(self) -> None:
        with self._lock:
            for topic, payload in self._latest.items():
                self.bus.publish(topic, payload, retain=True)
