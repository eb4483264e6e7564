"""The hub core as the companion's simulated hub runs it: CPython, as companion.wire.hubcore
(the same cases on MicroPython are in tests/firmware/test_hubcore.py)."""

from companion.wire import linecodec
from companion.wire.aimrule import HELD
from companion.wire.hubcore import Hub


def test_a_simulated_hub_reports_and_holds_an_aim():
    hub = Hub("sim", [1, 2], 2000, 500, 30, 0b11, 0b11)
    assert hub.schedule() == [0, 1, 2]
    for k in range(90):  # 540 ms of 6 ms rounds: gun 1 sees seat 2's badge
        for seat in hub.schedule():
            hub.slot(6 * (k + 1), seat, 0b01 if seat == 2 else 0)
    fields = [linecodec.decode(line) for line in hub.out]
    assert fields[0] == ["SEEN", "0", "6", "0", "2,0"] and len(fields) == 90
    assert (hub.trackers[1].state, hub.trackers[1].value, hub.trackers[1].since) == (HELD, 2, 6)
    assert hub.locks == {1: 1, 2: 0}
