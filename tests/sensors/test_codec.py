"""The sensor wire, both halves: every fact the sensors write, the referee reads back
the same; nothing malformed passes either way."""

import contextlib
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.bus.topics import Topics
from companion.referee import inputs
from companion.schema import CodecError
from companion.sensors import codec
from companion.sensors.facts import Fact

TOPICS = Topics("t")
seats = st.integers(1, 8)
times = st.floats(0, 2.0**52, allow_nan=False).map(lambda t: round(t, 3))
ambiguous = st.sets(seats, min_size=2).map(lambda s: tuple(sorted(s)))
values = {
    "aim": st.one_of(st.none(), seats, ambiguous),
    "raised": st.booleans(),
    "posture": st.sampled_from(["up", "down"]),
    "lock": st.sampled_from([0, 1, 2]),
    "seen": st.lists(st.integers(0, 255), min_size=1, max_size=8).map(tuple),
}
facts = st.sampled_from(sorted(values)).flatmap(lambda kind: st.builds(
    Fact, st.just(kind), st.just(0) if kind == "seen" else seats, values[kind], times,
    st.text("abcdefgh0123456789-", min_size=1, max_size=16)))


@given(facts, st.integers(1, 2**40))
def test_every_fact_makes_the_round_trip(fact, seq):
    payload = codec.encode(fact, seq)
    assert json.loads(payload)["seq"] == seq
    assert inputs.fact_from_message(codec.topic(TOPICS, fact), payload.encode()) == fact


def test_topics_and_payloads_as_documented():
    held = Fact("aim", 3, 5, 1732233000123.4121, "hub")
    assert codec.topic(TOPICS, held) == "cashnguns/t/gun/3/aim"
    assert json.loads(codec.encode(held, 42)) == {
        "seat": 3, "target": 5, "t": 1732233000123.412, "seq": 42, "device": "hub"}
    both = Fact("aim", 3, (2, 5), 1.0, "hub")
    assert json.loads(codec.encode(both, 1))["target"] == [2, 5]
    assert codec.topic(TOPICS, Fact("lock", 3, 2, 1.0, "hub")) == "cashnguns/t/gun/3/lock"
    seen = Fact("seen", 0, (0, 4), 1.0, "hub")
    assert codec.topic(TOPICS, seen) == "cashnguns/t/hub/seen"
    assert "seat" not in json.loads(codec.encode(seen, 1))


@pytest.mark.parametrize("fact", [
    Fact("aim", 3, 9, 1.0, "hub"),
    Fact("aim", 3, (5, 2), 1.0, "hub"),  # not sorted
    Fact("aim", 3, (2,), 1.0, "hub"),  # one seat is a held aim, not an ambiguous one
    Fact("aim", 3, True, 1.0, "hub"),
    Fact("aim", 0, 1, 1.0, "hub"),
    Fact("aim", 9, 1, 1.0, "hub"),
    Fact("raised", 3, 1, 1.0, "hub"),
    Fact("lock", 3, 3, 1.0, "hub"),
    Fact("seen", 0, (256,), 1.0, "hub"),
    Fact("seen", 0, (), 1.0, "hub"),
    Fact("seen", 2, (1,), 1.0, "hub"),
    Fact("posture", 3, "up", math.nan, "hub"),
    Fact("posture", 3, "up", math.inf, "hub"),
    Fact("posture", 3, "up", -1.0, "hub"),
])
def test_a_malformed_fact_is_refused(fact):
    with pytest.raises(CodecError):
        codec.encode(fact, 1)


@pytest.mark.parametrize(("topic", "payload", "words"), [
    ("cashnguns/t/gun/3/aim", b'{"target": 5, "t": NaN}', "not JSON"),
    ("cashnguns/t/gun/3/aim", b'{"target": 5, "t": Infinity}', "not JSON"),
    ("cashnguns/t/gun/3/aim", b'{"target": 5, "t": 1e300}', "not a sane time"),
    ("cashnguns/t/gun/3/aim", b'{"target": 5, "t": 1' + b"0" * 330 + b"}", "not a sane time"),
    ("cashnguns/t/gun/3/aim", b'{"target": [5], "t": 1}', "bad value"),
    ("cashnguns/t/gun/3/aim", b'{"target": [5, 5], "t": 1}', "bad value"),
    ("cashnguns/t/gun/3/aim", b'{"target": 5, "t": 1, "seat": 4}', "does not match"),
    ("cashnguns/t/gun/9/aim", b'{"target": 5, "t": 1}', "not a sensor topic"),
    ("cashnguns/t/gun/3/lock", b'{"lock": 1.0, "t": 1}', "bad value"),
    ("cashnguns/t/hub/seen", b'{"masks": [1, 300], "t": 1}', "bad value"),
    ("cashnguns/t/hub/seen", b'{"masks": "1,2", "t": 1}', "bad value"),
])
def test_a_bad_payload_says_what_is_wrong(topic, payload, words):
    with pytest.raises(CodecError, match=words):
        inputs.fact_from_message(topic, payload)


@given(st.binary(max_size=120))
def test_any_payload_decodes_or_raises_codecerror_only(payload):
    with contextlib.suppress(CodecError):
        inputs.fact_from_message("cashnguns/t/gun/3/aim", payload)


def test_a_flood_of_bad_messages_is_logged_once_a_while_by_the_clock(caplog):
    """Every bad message is counted; one warning per REJECT_LOG_MS of the subscriber's clock
    (a fake one here: the interval is the clock's, not the machine's)."""
    from companion.bus.client import BusClient
    from companion.bus.settings import MqttSettings
    from companion.clock import FakeClock

    clock, heard = FakeClock(), []
    sub = inputs.FactSubscriber(BusClient(MqttSettings(), "t-codec").subscribe, TOPICS,
                                     heard.append, clock)
    bad = (TOPICS.standee_posture(1), b'{"posture": "sideways"}')
    with caplog.at_level("WARNING", logger=inputs.__name__):
        for _ in range(3):
            sub._message(*bad)  # as the bus hands a message on
        clock.advance(inputs.REJECT_LOG_MS - 1)
        sub._message(*bad)
        assert len(caplog.records) == 1
        clock.advance(1)
        sub._message(*bad)
    assert len(caplog.records) == 2 and "5 dropped so far" in caplog.records[1].getMessage()
    assert sub.rejected.total() == 5 and heard == []
