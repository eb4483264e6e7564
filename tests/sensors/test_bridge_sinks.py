"""The bridge hands each backend's facts to its sinks: with one (a plain run: the
publisher) straight to it, with several to each in the order they were added."""

from __future__ import annotations

import os

import pytest
from waiting import wait_for

from companion.config import parse
from companion.sensors import build_bridge
from companion.sensors.facts import CallbackSink, Fact
from companion.sensors.sim.pty import PtyPort
from companion.wire.linecodec import encode


def _config(hub: str) -> str:
    return (f"table: sinks\nsensors:\n  filters: {{board_silence_ms: 60000}}\n"
            f"  serial:\n    - {{name: hub, port: {hub}}}\n")


@pytest.fixture
def pty(tmp_path):
    port = PtyPort(str(tmp_path / "hub"))
    port.plug()
    yield port
    port.unplug()


def test_a_plain_run_hands_the_facts_straight_to_the_publisher(pty):
    bridge = build_bridge(parse(_config(pty.link_path)))
    assert bridge.publisher is not None
    assert [link.sink for link in bridge.links] == [bridge.publisher]


def test_each_sink_gets_every_fact_in_the_order_they_were_added(pty):
    bridge = build_bridge(parse(_config(pty.link_path)), publish=False)
    heard: list[tuple[str, Fact]] = []
    for name in ("first", "second"):
        bridge.add_sink(CallbackSink(lambda f, name=name: heard.append((name, f))))
    bridge.start()
    try:
        link = bridge.links[0]
        wait_for(lambda: link.port is not None, what="the hub link to open the pty")
        lines = [("HELLO", 0, 0, 3, "hub", "hub", "0.3.0", 0),
                 ("SLOTS", 1, 0, 2000, "1,2,3"), ("POST", 2, 500, 3, "down")]
        for line in lines:
            os.write(pty._master, encode(list(line)))
        wait_for(lambda: len([f for _, f in heard if f.kind == "posture"]) == 2,
                 what="the standee's fact at both sinks")
    finally:
        bridge.stop()
    posture = [(name, f.seat, f.value) for name, f in heard if f.kind == "posture"]
    assert posture == [("first", 3, "down"), ("second", 3, "down")]
