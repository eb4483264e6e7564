"""The hub link on a real pty, fed hand-written PROTO 2 lines: what counts, what is dropped."""

import queue
from types import SimpleNamespace

import pytest
from waiting import wait_for

from companion.clock import SYSTEM_CLOCK, FakeClock, MonotonicClock
from companion.sensors import serial_link
from companion.sensors.facts import CallbackSink
from companion.sensors.scheduler import Scheduler
from companion.sensors.serial_link import HubLink, find_port
from companion.sensors.settings import BoardSettings, Filters
from companion.sensors.sim.pty import PtyPort
from companion.wire.linecodec import encode

FILTERS = Filters(hold_ms=100)


class Rig:
    def __init__(self, tmp_path, expect_id=None, transport=SYSTEM_CLOCK,
                 filters=FILTERS):
        self.facts, self.devices = queue.Queue(), queue.Queue()
        self.port = PtyPort(str(tmp_path / "hub"))
        self.port.plug()
        self.scheduler = Scheduler(MonotonicClock())
        settings = BoardSettings(name="hub", port=self.port.link_path, board_id=expect_id)
        self.link = HubLink(settings, filters, CallbackSink(
            self.facts.put, self.devices.put), self.scheduler, self.scheduler.clock,
            transport=transport)
        self.seq = 0
        self.link.start()

    def send(self, *fields):
        self.port.write(encode([fields[0], self.seq, *fields[1:]]))
        self.seq += 1

    def opened(self):
        """Wait for the link's WHO: it has the port open and reads what comes."""
        wait_for(lambda: any(line.startswith(b"WHO") for line in self.port.read_lines()),
                 what="the link to open the port")

    def hello(self):
        self.opened()
        self.send("HELLO", 0, 3, "hub", "hub", "0.3.0", 0)
        self.send("SLOTS", 0, 2000, "1,2,3")
        assert self.devices.get(timeout=2).online

    def next_fact(self, kind, timeout=2.0):
        while True:
            fact = self.facts.get(timeout=timeout)
            if fact.kind == kind:
                return fact

    def close(self):
        self.link.stop()
        self.port.unplug()


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.close()


def test_seen_rounds_and_the_rounds_between_become_a_held_aim(rig):
    rig.hello()
    assert [rig.next_fact("aim").value for _ in range(3)] == [None, None, None]
    for r in range(10):  # 10 rounds of 8 ms: the window of a 100 ms hold is 13
        rig.send("SEEN", 1000 + 8 * r, r, "4,0,0", 0)
    rig.send("HB", 1100, 20)  # rounds 10..19 passed unreported: empty looks
    rig.send("SEEN", 1168, 21, "4,0,0", 0)
    for r in range(22, 36):
        rig.send("SEEN", 1000 + 8 * r, r, "4,0,0", 0)
    aim = rig.next_fact("aim")
    assert (aim.seat, aim.value) == (1, 3)
    assert aim.t_ms <= rig.scheduler.clock.now_ms()  # exact stamps: tests/sensors/test_looks.py
    wait_for(lambda: rig.link.looks.looks == 36, what="every round read as a look")


def test_bad_lines_are_counted_by_reason_and_the_link_carries_on(rig):
    rig.hello()
    for line in (b"SEEN 1 2 3 4*0000\n", b"\xff\xfe\n", b"X" * 300 + b"\n",
                 encode(["AIM", 1, 2, 3]), encode(["SEEN", 1, 2, 3, "1,2", 0]),
                 encode(["GUN", 1, 2, 9, "up", 0, 0])):
        rig.port.write(line)
    rig.send("GUN", 5, 2, "up", 10, 0)
    fact = rig.next_fact("raised")
    assert (fact.seat, fact.value) == (2, True)
    assert dict(rig.link.dropped) == {"bad_crc": 1, "not_ascii": 1, "unknown": 1,
                                      "schedule": 1, "range": 1, "too_long": 1}
    assert rig.link.dropped_total() == 6 and rig.link.online


def test_a_hub_goes_silent_by_the_links_own_clock(tmp_path, monkeypatch):
    """Liveness runs on the link's transport clock: here a fake one, moved by hand, so a
    minute of silence (the most a config may set) is counted exactly and at once."""
    # The link takes the real time its process was kept waiting off the silence
    # (tests/sensors/test_kept_waiting.py); here no real time is the wire's, so that is set
    # aside: a host that kept this process waiting just after the clock moved would take its
    # real milliseconds off the fake minute (a process stopped for 0.5 s there did so).
    monkeypatch.setattr(serial_link, "PASS_MS", float("inf"))
    wire = FakeClock()
    rig = Rig(tmp_path, transport=wire, filters=Filters(hold_ms=100, board_silence_ms=60_000))
    try:
        rig.hello()
        # the SLOTS line is the last valid one: read before the clock moves, or it would
        # count as heard a minute later
        assert rig.devices.get(timeout=5).reason == "slots"
        wire.advance(59_999)
        for n in (1, 2):  # bad lines: each read and dropped, then silence checked, in turn
            rig.port.write(b"SEEN 1 2 3 4*0000\n")
            wait_for(lambda n=n: rig.link.dropped["bad_crc"] == n, what=f"bad line {n} read")
        assert rig.link.online and rig.devices.empty(), "not silent yet"
        wire.advance(2)
        info = rig.devices.get(timeout=5)
        assert (info.online, info.reason) == (False, "silent")
    finally:
        rig.close()


def test_a_line_gone_missing_is_asked_again_and_only_what_changed_counts(rig):
    rig.hello()
    assert rig.devices.get(timeout=2).reason == "slots"
    for seat in (1, 2, 3):
        rig.send("GUN", 10, seat, "down", -60, 0)
        rig.send("POST", 10, seat, "up")
    rig.send("GUN", 20, 2, "up", 10, 0)
    assert [(f.seat, f.value) for f in (rig.next_fact("raised") for _ in range(4))][-1] == (2, True)
    rig.port.read_lines()  # the link's first WHO, read already
    rig.seq += 1  # "GUN 2 down" is lost: the hub's buffer was full
    rig.send("HB", 140, 30)
    wait_for(lambda: any(line.startswith(b"WHO") for line in rig.port.read_lines()),
             what="the link to ask the hub again")
    rig.send("HELLO", 150, 3, "hub", "hub", "0.3.0", 0)  # the hub restates itself
    for seat in (1, 2, 3):
        rig.send("GUN", 150, seat, "down", -60, 0)
        rig.send("POST", 150, seat, "up")
    rig.send("SLOTS", 150, 2000, "1,2,3")
    rig.send("GUN", 160, 3, "up", 10, 0)  # what happens next still counts, once
    facts = [rig.facts.get(timeout=2) for _ in range(2)]
    assert [(f.kind, f.seat, f.value) for f in facts] == [("raised", 2, False), ("raised", 3, True)]
    assert rig.facts.empty() and rig.devices.empty()  # no aim cleared, the hub never went away
    assert (rig.link.seq_gaps, rig.link.asked_again, rig.link.online) == (1, 1, True)


def test_a_hub_with_another_id_is_refused(tmp_path):
    r = Rig(tmp_path, expect_id="other")
    try:
        r.opened()
        r.send("HELLO", 0, 3, "hub", "hub", "0.3.0", 0)
        with pytest.raises(queue.Empty):
            r.devices.get(timeout=0.5)
        assert r.link.dropped["wrong_board"] == 1
    finally:
        r.close()


def test_ports_are_found_by_usb_id_and_serial_number():
    ports = [SimpleNamespace(vid=0x2E8A, pid=5, serial_number="A", device="/dev/ttyACM0"),
             SimpleNamespace(vid=0x2E8A, pid=5, serial_number="B", device="/dev/ttyACM1")]
    by_id = BoardSettings(name="x", usb=(0x2E8A, 5), serial_number="B")
    assert find_port(by_id, lambda: ports) == "/dev/ttyACM1"
    assert find_port(BoardSettings(name="x", usb=(0x2E8A, 5)), lambda: ports) == "/dev/ttyACM0"
    assert find_port(BoardSettings(name="x", usb=(1, 2)), lambda: ports) is None
    assert find_port(BoardSettings(name="x", port="/nonexistent/tty"), lambda: ports) is None
