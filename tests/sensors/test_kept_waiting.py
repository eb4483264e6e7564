"""A companion kept waiting does not take its hub for silent.

A starved host (the suite's own loaded runs found it) or a pause stops every thread of the
companion at once. A real hub goes on writing meanwhile and its lines wait in the port's
buffer; the simulated hub runs in the companion's process, so it stops too and writes its
lines only once the process runs again. Either way the hub was not silent: the link counts
silence only while it listened. This process is stopped from outside (SIGSTOP, then
SIGCONT a second later) while the simulated hub carries a held aim.
"""

from __future__ import annotations

import os
import subprocess

import pytest
from waiting import wait_for

from companion.config import parse
from companion.sensors import build_bridge
from companion.sensors.facts import CallbackSink, DeviceInfo, Fact

SILENCE_MS = 700  # the default board_silence_ms, under the second the process stops


def stop_this_process_for(seconds: float) -> None:
    """Every thread of this process stopped from outside, as a starved host stops it; the
    stopper continues it even if it is itself interrupted."""
    pid = os.getpid()
    subprocess.run(["sh", "-c", f"trap 'kill -CONT {pid}' EXIT; kill -STOP {pid}; "
                    f"sleep {seconds}"], check=True, timeout=30)


@pytest.fixture
def table(tmp_path):
    config = parse(f"""
table: kept
sensors:
  filters: {{debounce_ms: 10, hold_ms: 100, board_silence_ms: {SILENCE_MS}}}
  sim:
    guns: [1, 2, 3, 4]
    hand: {{ideal: true}}
    slot_us: 1500
    link_dir: {tmp_path / "links"}
""")
    bridge = build_bridge(config, publish=False)
    facts: list[Fact] = []
    devices: list[DeviceInfo] = []
    bridge.add_sink(CallbackSink(facts.append, devices.append))
    bridge.start()
    try:
        link = bridge.links[0]
        wait_for(lambda: link.looks is not None, 10, "the simulated hub online")
        yield bridge, facts, devices
    finally:
        bridge.stop()


def test_a_process_stopped_for_a_second_keeps_its_hub_and_its_aim(table):
    bridge, facts, devices = table
    link = bridge.links[0]
    reported = len(devices)
    bridge.sim.aim(1, 2)
    wait_for(lambda: any(f.kind == "seen" and f.value[0] & 0b10 for f in facts), 10,
             "gun 1 seeing seat 2")
    for _ in range(3):
        stop_this_process_for(1.0)
        read = link.lines
        # the hub's lines read again after the stop: the link has judged the gap
        wait_for(lambda read=read: link.lines >= read + 20, 10, "the hub's lines after it")
        assert link.online and devices[reported:] == [], [
            (d.online, d.reason) for d in devices[reported:]]
    seen = [f for f in facts if f.kind == "seen"][-10:]
    assert all(f.value[0] & 0b10 for f in seen), "gun 1 still sees seat 2, every round"


def test_a_hub_that_hangs_while_the_process_is_stopped_is_still_called_silent(table):
    bridge, _facts, devices = table
    reported = len(devices)
    bridge.sim.hang()
    stop_this_process_for(1.0)
    wait_for(lambda: len(devices) > reported, 5, "the hung hub called")
    assert [(d.online, d.reason) for d in devices[reported:]] == [(False, "silent")]
