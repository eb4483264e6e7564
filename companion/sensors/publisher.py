"""Sensor facts and device states onto the bus: retained JSON, numbered, in order.

One lock around numbering and publishing keeps the wire order equal to the `seq` order.
The latest payload of every topic is kept and published again on each reconnect, so a
broker that restarted (and lost its retained messages) learns the whole state again.
"""

from __future__ import annotations

import json
import threading

from companion.bus.client import BusClient
from companion.bus.topics import OFFLINE, ONLINE, Topics
from companion.sensors.facts import DeviceInfo, Fact, FactSink

VALUE_KEYS = {"aim": "target", "raised": "raised", "posture": "posture"}


def fact_topic(topics: Topics, fact: Fact) -> str:
    if fact.kind == "aim":
        return topics.gun_aim(fact.seat)
    if fact.kind == "raised":
        return topics.gun_raised(fact.seat)
    return topics.standee_posture(fact.seat)


class MqttPublisher(FactSink):
    def __init__(self, bus: BusClient, topics: Topics) -> None:
        self.bus, self.topics = bus, topics
        self.seq = 0
        self._lock = threading.Lock()
        self._latest: dict[str, str] = {}
        bus.on_connect(self._republish)

    def fact(self, fact: Fact) -> None:
        with self._lock:
            self.seq += 1
            payload = json.dumps({
                "seat": fact.seat, VALUE_KEYS[fact.kind]: fact.value, "t": round(fact.t_ms, 3),
                "seq": self.seq, "device": fact.device,
            })
            self._publish(fact_topic(self.topics, fact), payload)

    def device(self, info: DeviceInfo) -> None:
        with self._lock:
            self.seq += 1
            payload = json.dumps({
                "device": info.device, "online": info.online, "reason": info.reason,
                "backend": info.backend, "kind": info.kind, "seat": info.seat,
                "firmware": info.firmware, "port": info.port, "name": info.name,
                "t": round(info.t_ms, 3), "seq": self.seq,
            })
            self._publish(self.topics.device_info(info.device), payload)
            self._publish(self.topics.availability(info.device), ONLINE if info.online else OFFLINE)

    def _publish(self, topic: str, payload: str) -> None:
        self._latest[topic] = payload
        self.bus.publish(topic, payload, retain=True)

    def _republish(self) -> None:
        with self._lock:
            for topic, payload in self._latest.items():
                self.bus.publish(topic, payload, retain=True)
