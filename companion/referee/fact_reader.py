"""Sensor facts off MQTT, as the referee reads them: the referee's half of the sensor wire.

The sensors write facts with their half (companion.sensors.codec: a Fact to its topic and
payload, and the publisher); the referee reads with this one (a topic and payload back to
a checked Fact, and the subscriber that hands it to the table). The two halves share no
code path, only the contract: the topics (companion.bus.topics) and the schema
(companion.schema: each kind's value key and the checks of seat, time and value), so
each side runs its own job and the round trip is tested across them
(tests/sensors/test_codec.py). `companion doctor --ir-matrix` reads the hub's looks with
this half too: what it shows is what the referee accepts.

A payload refused on the way in is counted by topic, logged at most once every
REJECT_LOG_MS of the table's clock, and never applied. Layout and examples: docs/MQTT.md.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable

from companion.bus.topics import FACT_LEAVES, FACT_TOPIC, Topics
from companion.clock import SYSTEM_CLOCK, Clock
from companion.schema import MAX_SEAT, VALUE_KEYS, CodecError, check_t, check_value
from companion.sensors.facts import Fact

log = logging.getLogger(__name__)

MAX_PAYLOAD = 4096  # a fact is a few dozen bytes; a hub's `seen` under 200
REJECT_LOG_MS = 10_000.0  # bad sensor messages are logged at most this often

Handler = Callable[[str, bytes], None]


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
    check_t(t, topic_name)
    if "seat" in data and (type(data["seat"]) is not int or data["seat"] != seat):
        raise CodecError(f"{topic_name}: seat {data['seat']!r} does not match the topic")
    key = VALUE_KEYS[kind]
    value = data.get(key, ...)
    if isinstance(value, list):
        value = tuple(value)
    check_value(kind, value, f"{topic_name}: {key}")
    device = data.get("device", "?")
    return Fact(kind, seat, value, float(t),  # type: ignore[arg-type]  # kind: FACT_TOPIC's
                device if isinstance(device, str) else "?")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number")


class FactSubscriber:
    """Facts from the bus to `sink`, each read and checked here; `subscribe` is the bus
    client's (a topic filter and its handler)."""

    def __init__(self, subscribe: Callable[[str, Handler], object], topics: Topics,
                 sink: Callable[[Fact], None], clock: Clock = SYSTEM_CLOCK) -> None:
        self.sink, self.clock = sink, clock
        self.rejected: Counter[str] = Counter()  # bad sensor messages, by topic
        self._logged_at = float("-inf")
        for leaf in FACT_LEAVES:
            subscribe(topics.leaf(leaf), self._message)

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
