"""The hub core as the companion's simulated hub runs it: CPython, as companion.wire.hubcore
(the same cases on MicroPython are in tests/firmware/test_hubcore.py)."""

from companion.wire import linecodec
from companion.wire.aimrule import HELD
from companion.wire.hubcore import Hub
from companion.wire.proto import FW_VERSION


def test_a_simulated_hub_reports_and_holds_an_aim():
    hub = Hub("sim", [1, 2], 2000, 500, 30, 0b11)
    assert hub.schedule() == [0, 1, 2]
    for k in range(90):  # 540 ms of 6 ms rounds: gun 1 sees seat 2's badge
        for seat in hub.schedule():
            hub.slot(6 * (k + 1), seat, 0b01 if seat == 2 else 0)
    fields = [linecodec.decode(line) for line in hub.out]
    assert fields[0] == ["SEEN", "0", "6", "0", "2,0", "0"] and len(fields) == 90
    assert (hub.trackers[1].state, hub.trackers[1].value, hub.trackers[1].since) == (HELD, 2, 6)
    assert hub.locks == {1: 1, 2: 0}


def test_every_line_the_hub_core_sends_reads_back_as_it_meant_it():
    """One codec both ways: what the hub's core frames, the companion's `parse` reads back
    with the same values, message by message (the round trip of the line protocol)."""
    hub = Hub("hub-7", [2, 5], 2000, 500, 30, 0b00010)  # seat 5's standee lies down
    hub.imu(990, 2, (0.0, 0.0, 0.0, 0.5, 0.0, 0.866))  # gun 2 raised 30°, gun 5 not heard
    assert linecodec.parse(hub.out.pop()).value is True and not hub.out  # GUN 2 up
    hub.seq = 0
    hub.hello(1000)  # HELLO, then every reading and the schedule
    hub.tick(1100)  # heartbeat and STAT
    for seat in hub.schedule():
        hub.slot(1106, seat, 0b10000 if seat == 2 else 0)  # gun 5 sees badge 2
    hub.receive(linecodec.ping(0x1F)[:-1], 1110)
    hub.receive(linecodec.slots(2500, (5, 2))[:-1], 1120)
    hub.receive(b"SLOTS 900 2*0000", 1130)  # a damaged command: refused
    read = [linecodec.parse(line) for line in hub.out]
    assert [m.seq for m in read] == list(range(len(read)))
    meant = {"HELLO": ("board_id", "firmware"), "GUN": ("seat", "value", "elevation", "rate"),
             "POST": ("seat", "value"), "SLOTS": ("slot_us", "seats"), "HB": ("round",),
             "STAT": ("stat",), "SEEN": ("round", "masks", "moving"), "PONG": ("text",),
             "OK": ("text",), "ERR": ("text",)}
    said = [(m.type, *(getattr(m, name) for name in meant[m.type])) for m in read]
    assert said == [
        ("HELLO", "hub-7", FW_VERSION),
        ("GUN", 2, True, 30, 0), ("POST", 2, "up"), ("GUN", 5, False, None, None),
        ("POST", 5, "down"),
        ("SLOTS", 2000, (2, 5)),
        ("HB", 0), ("STAT", (0, 0, 0, 0, 0)),
        ("SEEN", 0, (0, 2), 0),
        ("PONG", "1f"),
        ("OK", "SLOTS"),
        ("ERR", "crc"),
    ]
    assert [m.t for m in read][:6] == [1000] * 6
