"""The one codec of the sensor wire: a Fact to its MQTT topic and JSON payload, and back.

The bridge encodes with it and the referee decodes with it, so both sides check the same
schema, the sensor fact's in companion.schema: known kinds, seats 1..8, finite times in a
sane range, values of the right type and range (no NaN, no booleans posing as numbers).
Layout and examples: docs/MQTT.md.
"""

from __future__ import annotations

import json
import re
from typing import Any

from companion import schema
from companion.bus.topics import Topics
from companion.sensors.facts import Fact

MAX_SEAT = schema.MAX_SEAT
RETAINED = frozenset({"aim", "raised", "posture"})  # state; `lock` and `seen` are events
VALUE_KEYS = {"aim": "target", "raised": "raised", "posture": "posture", "lock": "lock",
              "seen": "masks"}
TOPIC = re.compile(r".*/(?:(gun)/([^/]+)/(aim|raised|lock)|(standee)/([^/]+)/(posture)"
                   r"|(hub)/(seen))$")


MAX_PAYLOAD = 4096  # a fact is a few dozen bytes; a hub's `seen` under 200

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
    m = TOPIC.match(topic_name)
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
    _check_t(float(t), topic_name)
    if "seat" in data and (type(data["seat"]) is not int or data["seat"] != seat):
        raise CodecError(f"{topic_name}: seat {data['seat']!r} does not match the topic")
    key = VALUE_KEYS[kind]
    value = data.get(key, ...)
    if isinstance(value, list):
        value = tuple(value)
    _check_value(kind, value, f"{topic_name}: {key}")
    device = data.get("device", "?")
    return Fact(kind, seat, value, float(t),  # type: ignore[arg-type]  # kind: TOPIC's
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
