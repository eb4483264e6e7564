"""What the referee takes from the bus, and what it puts on it."""

from __future__ import annotations

import json
import re

import pytest

from companion.referee.inputs import fact_from_message
from companion.referee.mqtt_link import published_events
from companion.rules.events import event_from_dict

BASE = "cashnguns/t"


def test_a_sensor_message_becomes_a_fact():
    f = fact_from_message(f"{BASE}/gun/3/aim", b'{"seat": 3, "target": 5, "t": 12.5, "seq": 1}')
    assert (f.kind, f.seat, f.value, f.t_ms) == ("aim", 3, 5, 12.5)
    f = fact_from_message(f"{BASE}/standee/2/posture", b'{"posture": "down", "t": 3}')
    assert (f.kind, f.seat, f.value) == ("posture", 2, "down")
    assert fact_from_message(f"{BASE}/gun/1/aim", b'{"target": null, "t": 1}').value is None


@pytest.mark.parametrize("topic,payload,words", [
    (f"{BASE}/gun/3/aim", b"not json", "not JSON"),
    (f"{BASE}/gun/3/aim", b"[1, 2]", "not a JSON object"),
    (f"{BASE}/gun/3/aim", b'{"target": 5}', "t (the time"),
    (f"{BASE}/gun/3/aim", b'{"target": 5, "t": true}', "t (the time"),
    (f"{BASE}/gun/3/aim", b'{"target": 9, "t": 1}', "bad value 9"),
    (f"{BASE}/gun/3/aim", b'{"target": "5", "t": 1}', "bad value '5'"),
    (f"{BASE}/gun/3/raised", b'{"raised": 1, "t": 1}', "bad value 1"),
    (f"{BASE}/standee/3/posture", b'{"posture": "sideways", "t": 1}', "bad value"),
    (f"{BASE}/gun/x/aim", b'{"target": 1, "t": 1}', "not a sensor topic"),
    (f"{BASE}/gun/3/aim", b"\xff\xfe", "not JSON"),
])
def test_a_bad_sensor_message_says_what_is_wrong(topic, payload, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        fact_from_message(topic, payload)


def test_published_events_keep_secrets():
    shot = published_events(event_from_dict({"round": 1, "type": "revealed", "player": "Ana",
                                             "card": "bang", "target": "Bob"}))
    assert shot[0]["type"] == "shot" and shot[0]["target"] == "Bob"
    assert published_events(event_from_dict({"round": 1, "type": "revealed", "player": "Ana",
                                             "card": "click", "target": "Bob"})) == []
    took = published_events(event_from_dict({"round": 1, "type": "took", "player": "Ana",
                                             "loot": "godfather"}))
    assert took[0]["type"] == "godfather"
    junk = event_from_dict({"round": 1, "type": "junk", "player": "Ana", "gave": "bill5000",
                            "got": "painting", "pile": 3})
    assert published_events(junk) == []
    from companion.referee.views import public_event

    assert "painting" not in json.dumps(public_event(junk))
    theft = public_event(event_from_dict({"round": 2, "type": "professional", "player": "Ana",
                                          "target": "Bob", "loot": ["diamond10000"]}))
    assert "diamond" not in json.dumps(theft) and theft["loot_count"] == 1


def test_a_flood_of_bad_sensor_messages_is_counted_and_logged_once(mosquitto, caplog):
    import logging

    from local_table import LocalPort
    from waiting import wait_for

    from companion.bus.client import BusClient
    from companion.bus.topics import Topics
    from companion.referee.mqtt_link import RefereeLink

    topics = Topics("flood")
    port = LocalPort()
    bus = BusClient(mosquitto.settings, "flood-referee")
    referee = RefereeLink(port.table, bus, topics)
    referee.start()
    bus.start()
    sender = BusClient(mosquitto.settings, "flood-sender").start()
    bad = [b"not json", b'{"target": 2, "t": NaN}', b"[" * 3000, b"[" * 10_000,
           b'{"target": 9, "t": 1}', b'{"target": 2, "t": ' + b"9" * 5000 + b"}"]
    try:
        with caplog.at_level(logging.WARNING):
            for i in range(1200):  # in bursts the broker queues whole (QoS 0 beyond its
                sender.publish(f"{topics.base}/gun/{1 + i % 8}/aim", bad[i % len(bad)])
                if i % 200 == 199:  # 1,000 queued messages may be dropped on a busy machine)
                    wait_for(lambda n=i + 1: referee.facts.rejected.total() == n, 10,
                             f"{i + 1} bad messages counted")
            sender.publish(f"{topics.base}/standee/3/posture", b'{"posture": "down", "t": 5}')
            wait_for(lambda: port.table.readings.now(3, "posture", 10) == "down", 10,
                     "the good message after the flood")
        rejected = referee.facts.rejected
        assert rejected.total() == 1200 and len(rejected) == 8  # by topic
        assert bus.handler_errors == 0  # nothing escaped the referee's own checks
        warnings = [r for r in caplog.records if r.name == "companion.referee.inputs"]
        assert len(warnings) == 1  # a flood is one line (then one every 10 s at most)
        assert not any(r.exc_info for r in caplog.records)  # no traceback, not one
    finally:
        sender.stop()
        bus.stop()
