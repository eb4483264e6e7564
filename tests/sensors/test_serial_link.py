"""A board on a real pty speaking the real protocol, read by the serial backend."""

import os
import queue
from types import SimpleNamespace

import pytest

from companion.clock import MonotonicClock
from companion.sensors.facts import CallbackSink
from companion.sensors.scheduler import Scheduler
from companion.sensors.serial_link import BoardLink, find_port
from companion.sensors.settings import BoardSettings, Filters
from companion.sensors.sim.board import SimBoard
from companion.wire.linecodec import encode


class Rig:
    def __init__(self, tmp_path, board_id="g3", expect_id=None, filters=None):
        self.facts, self.devices = queue.Queue(), queue.Queue()
        self.board = SimBoard(board_id, 3, str(tmp_path / "gun3")).start()
        self.scheduler = Scheduler(MonotonicClock())
        self.scheduler.start()
        settings = BoardSettings(name="gun-3", port=self.board.link_path, board_id=expect_id)
        sink = CallbackSink(self.facts.put, self.devices.put)
        self.link = BoardLink(settings, filters or Filters(), sink, self.scheduler,
                              self.scheduler.clock)
        self.link.start()

    def next_device(self, timeout=2.0):
        return self.devices.get(timeout=timeout)

    def online(self):
        """Wait for the HELLO and the two readings that follow it."""
        info = self.next_device()
        assert info.online
        return info, {f.kind: f.value for f in (self.facts.get(timeout=2),
                                                self.facts.get(timeout=2))}

    def next_fact(self, kind, timeout=2.0):
        while True:
            fact = self.facts.get(timeout=timeout)
            if fact.kind == kind:
                return fact

    def close(self):
        self.link.stop()
        self.board.stop()
        self.scheduler.stop()


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.close()


def test_a_board_comes_online_with_its_hello_and_readings(rig):
    info, first = rig.online()
    assert (info.device, info.online, info.kind, info.seat, info.firmware) == (
        "g3", True, "gun", 3, "0.0.0")
    assert first == {"aim": None, "raised": False}


def test_aim_and_tilt_reach_the_facts_with_board_time(rig):
    rig.online()
    before = rig.scheduler.clock.now_ms()
    rig.board.set_aim(5)
    rig.board.set_tilt(True)
    assert rig.next_fact("raised").value is True
    aim = rig.next_fact("aim")
    assert (aim.seat, aim.value, aim.device) == (3, 5, "g3")
    assert before - 5 <= aim.t_ms <= rig.scheduler.clock.now_ms() - 100  # stamped at sight


def test_unplugged_goes_offline_at_once_and_comes_back(rig):
    assert rig.next_device().online
    rig.board.unplug()
    gone = rig.next_device(timeout=1.0)
    assert (gone.online, gone.reason) == (False, "unplugged")
    rig.board.set_aim(2)  # moved while unplugged
    rig.board.plug()
    back = rig.next_device(timeout=2.0)
    assert (back.online, back.reason) == (True, "hello")
    while (fact := rig.next_fact("aim")).value is None:
        pass
    assert fact.value == 2


def test_garbage_is_counted_and_dropped_and_the_board_still_works(rig, poll_until):
    rig.online()
    junk = [b"AIM 1 2 5*0000\n", encode(["AIM", 1, 2, 9]), b"\xff" * 300 + b"\n",
            b"TILT 1 2 1\n", b"\x00garbage\r\n"]
    for batch in range(250):  # in batches, so the pty never fills and all 10,000 arrive
        for i in range(40):
            noise = os.urandom(50).replace(b"\n", b"") + b"\n"
            rig.board.write(junk[i % len(junk)] if i % 7 else noise)
        poll_until(lambda n=batch: rig.link.dropped_total() >= 40 * (n + 1), what="lines read")
    rig.board.set_tilt(True)
    assert rig.next_fact("raised", timeout=5).value is True
    assert rig.facts.empty()
    assert rig.board.overflows == 0
    assert rig.link.dropped_total() == 10_000  # heartbeats were never merged into garbage
    assert set(rig.link.dropped) >= {"bad_crc", "range", "too_long", "no_crc", "not_ascii"}
    assert rig.link.online


def test_silence_takes_a_board_offline_and_who_brings_it_back(tmp_path):
    r = Rig(tmp_path, filters=Filters(board_silence_ms=300))
    try:
        assert r.next_device().online
        r.board._stop.set()  # the board hangs: no heartbeat, no answers
        r.board._thread.join(2)
        silent = r.next_device(timeout=1.5)
        assert (silent.online, silent.reason) == (False, "silent")
        assert r.link.send(encode(["PING", "1"]))
    finally:
        r.close()


def test_a_board_with_another_id_is_refused(tmp_path):
    r = Rig(tmp_path, expect_id="g9")
    try:
        with pytest.raises(queue.Empty):
            r.devices.get(timeout=0.5)
        assert r.link.dropped["wrong_board"] >= 1
    finally:
        r.close()


def test_ping_round_trip(rig):
    rig.next_device()
    assert rig.link.ping(timeout_s=2) is not None


def test_ports_are_found_by_usb_id_and_serial_number():
    ports = [SimpleNamespace(vid=0x2E8A, pid=5, serial_number="A", device="/dev/ttyACM0"),
             SimpleNamespace(vid=0x2E8A, pid=5, serial_number="B", device="/dev/ttyACM1")]
    by_id = BoardSettings(name="x", usb=(0x2E8A, 5), serial_number="B")
    assert find_port(by_id, lambda: ports) == "/dev/ttyACM1"
    assert find_port(BoardSettings(name="x", usb=(0x2E8A, 5)), lambda: ports) == "/dev/ttyACM0"
    assert find_port(BoardSettings(name="x", usb=(1, 2)), lambda: ports) is None
    assert find_port(BoardSettings(name="x", port="/nonexistent/tty"), lambda: ports) is None
