"""Sensor facts on MQTT: the one codec (a Fact to its topic and JSON payload, and back),
the publisher that sends them and the subscriber that receives them.

The bridge publishes with it and the referee subscribes with it, so both sides check the
same schema, the sensor fact's in companion.schema: known kinds, seats 1..8, finite times
in a sane range, values of the right type and range (no NaN, no booleans posing as
numbers). Layout and examples: docs/MQTT.md.

The publisher holds one lock around numbering and publishing, so the wire order is the
`seq` order. State (aim, raised, posture, device info and health) is retained, and its
latest payload is published again on each reconnect, so a broker that restarted (and lost
its retained messages) learns the whole state again. `lock` and `seen` are events: QoS 0,
not retained. A fact the codec refuses is counted and logged, never published; a payload
it refuses on the way in is counted by topic, logged at most once every REJECT_LOG_MS, and
never applied.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from companion import schema
from companion.bus.client import BusClient
from companion.bus.topics import FACT_LEAVES, FACT_TOPIC, OFFLINE, ONLINE, Topics
from companion.clock import SYSTEM_CLOCK, Clock
from companion.sensors.facts import DeviceInfo, Fact, FactSink

log = logging.getLogger(__name__)

MAX_SEAT = schema.MAX_SEAT
RETAINED = frozenset({"aim", "raised", "posture"})  # state; `lock` and `seen` are events
VALUE_KEYS = {"aim": "target", "raised": "raised", "posture": "posture", "lock": "lock",
              "seen": "masks"}


MAX_PAYLOAD = 4096  # a fact is a few dozen bytes; a hub's `seen` under 200
REJECT_LOG_MS = 10_000.0  # bad sensor messages are logged at most this often

class CodecError(ValueError):
    """A fact or payload outside the schema; the message says which field and why."""


def topic(topics: Topics, fact: Fact) -> str:
    if fact.kind == "seen":
        return topics.hub_seen
    if fact.kind == "posture":
        return topics.standee_posture(fact.seat)
    return topics.gun(fact.seat, fact.kind)


def encode(fact: Fact, seq: int) -> str:
    """The JSON payload of a fact, numbered `seq`; CodecError when the fact is malformed."""
    where = f"{fact.kind} fact of seat {fact.seat}"
    _check_seat(fact.kind, fact.seat, where)
    _check_value(fact.kind, fact.value, where)
    _check_t(fact.t_ms, where)
    value: Any = list(fact.value) if isinstance(fact.value, tuple) else fact.value
    data: dict[str, Any] = {} if fact.kind == "seen" else {"seat": fact.seat}
    data.update({VALUE_KEYS[fact.kind]: value, "t": round(fact.t_ms, 3), "seq": seq,
                 "device": fact.device})
    return json.dumps(data, allow_nan=False)


def fact_from_message(topic_name: str, payload: bytes) -> Fact:
    """A sensor fact from its topic and JSON payload; CodecError says what is wrong."""
    m = FACT_TOPIC.match(topic_name)
    if not m:
        raise CodecError(f"not a sensor topic: {topic_name}")
    kind = m.group(3) or m.group(6) or m.group(8)
    seat_text = m.group(2) or m.group(5)
    seat = 0
    if seat_text is not None:
        if not (seat_text.isdigit() and 1 <= int(seat_text) <= MAX_SEAT):
            raise CodecError(f"not a sensor topic: {topic_name}")
        seat = int(seat_text)
    if len(payload) > MAX_PAYLOAD:
        raise CodecError(f"{topic_name}: payload of {len(payload)} bytes (at most {MAX_PAYLOAD})")
    try:
        data = json.loads(payload, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError):
        raise CodecError(f"{topic_name}: payload is not JSON") from None
    except RecursionError:
        raise CodecError(f"{topic_name}: payload nested too deep") from None
    if not isinstance(data, dict):
        raise CodecError(f"{topic_name}: payload is not a JSON object")
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise CodecError(f"{topic_name}: t (the time it happened, ms) is missing or not a "
                         "number")
    _check_t(t, topic_name)
    if "seat" in data and (type(data["seat"]) is not int or data["seat"] != seat):
        raise CodecError(f"{topic_name}: seat {data['seat']!r} does not match the topic")
    key = VALUE_KEYS[kind]
    value = data.get(key, ...)
    if isinstance(value, list):
        value = tuple(value)
    _check_value(kind, value, f"{topic_name}: {key}")
    device = data.get("device", "?")
    return Fact(kind, seat, value, float(t),  # type: ignore[arg-type]  # kind: FACT_TOPIC's
                device if isinstance(device, str) else "?")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number")


def _check_seat(kind: str, seat: object, where: str) -> None:
    problem = schema.seat_problem(kind, seat)
    if problem:
        raise CodecError(f"{where}: {problem}")


def _check_t(t: object, where: str) -> None:
    problem = schema.time_problem(t)
    if problem:
        raise CodecError(f"{where}: {problem}")


def _check_value(kind: str, value: object, where: str) -> None:
    problem = schema.value_problem(kind, value)
    if problem:
        raise CodecError(f"{where} has a {problem}" if problem.startswith("bad value")
                         else f"{where}: {problem}")


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
            except CodecError as exc:
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


class FactSubscriber:
    """Facts from the bus to `sink`, each decoded and checked by this codec."""

    def __init__(self, bus: BusClient, topics: Topics, sink: Callable[[Fact], None],
                 clock: Clock = SYSTEM_CLOCK) -> None:
        self.sink, self.clock = sink, clock
        self.rejected: Counter[str] = Counter()  # bad sensor messages, by topic
        self._logged_at = float("-inf")
        for leaf in FACT_LEAVES:
            bus.subscribe(topics.leaf(leaf), self._message)

    def _message(self, topic_name: str, payload: bytes) -> None:
        try:
            fact = fact_from_message(topic_name, payload)
        except ValueError as e:
            self.rejected[topic_name[:120]] += 1
            now = self.clock.now_ms()
            if now - self._logged_at >= REJECT_LOG_MS:  # a flood is one line a while
                self._logged_at = now
                log.warning("sensor message dropped: %s (%d dropped so far on %d topics)",
                            str(e)[:200], self.rejected.total(), len(self.rejected))
            return
        self.sink(fact)
