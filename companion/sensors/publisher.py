"""Sensor facts and device states onto the bus: JSON by the one codec, numbered, in order.

One lock around numbering and publishing keeps the wire order equal to the `seq` order.
State (aim, raised, posture, device info and health) is retained, and its latest payload
is published again on each reconnect, so a broker that restarted (and lost its retained
messages) learns the whole state again. `lock` and `seen` are events: QoS 0, not retained.
A fact the codec refuses is counted and logged, never published.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from companion.bus.client import BusClient
from companion.bus.topics import OFFLINE, ONLINE, Topics
from companion.sensors import codec
from companion.sensors.facts import DeviceInfo, Fact, FactSink

log = logging.getLogger(__name__)


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
                payload = codec.encode(fact, self.seq + 1)
            except codec.CodecError as exc:
                self.refused += 1
                if self.refused in (1, 10, 100) or self.refused % 1000 == 0:
                    log.error("fact not published (%d so far): %s", self.refused, exc)
                return
            self.seq += 1
            topic = codec.topic(self.topics, fact)
            if fact.kind in codec.RETAINED:
                self._publish(topic, payload)
            else:
                self.bus.publish(topic, payload, qos=0)

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
            self._publish(self.topics.device_info(info.device), payload)
            self._publish(self.topics.availability(info.device), ONLINE if info.online else OFFLINE)

    def health(self, device: str, figures: dict[str, Any], t_ms: float) -> None:
        with self._lock:
            self.seq += 1
            payload = json.dumps({"device": device, **figures, "t": round(t_ms, 3),
                                  "seq": self.seq})
            self._publish(self.topics.device_stat(device), payload)

    def _publish(self, topic: str, payload: str) -> None:
        self._latest[topic] = payload
        self.bus.publish(topic, payload, retain=True)

    def _republish(self) -> None:
        with self._lock:
            for topic, payload in self._latest.items():
                self.bus.publish(topic, payload, retain=True)
