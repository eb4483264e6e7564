"""The referee's readings: each gun's lock indicator and the bounded visibility matrix."""

from __future__ import annotations

from local_table import NAMES8, LocalPort

from companion.referee.core import keep
from companion.referee.mqtt_link import hub_schedule
from companion.referee.readings import MAX_LOOKS, Readings, VisibilityMatrix
from companion.sensors.facts import Fact

SEATS = (1, 2, 3, 4)
SLOT_US = 2000  # a round of 5 slots: 10 ms, 100 looks a second


def looks(matrix: VisibilityMatrix, start_ms: float, rounds: int, masks: tuple[int, ...]) -> float:
    """`rounds` reported rounds from start_ms on; the time of the last."""
    t = start_ms
    for k in range(rounds):
        t = start_ms + 10.0 * k
        matrix.add(t, masks)
    return t


def test_the_lock_is_kept_per_gun_and_shown_with_the_seats_sensors():
    port = LocalPort()
    port.do("new_game", players=NAMES8[:4], powers="none")
    port.fact("lock", 2, 1)
    port.fact("lock", 3, 2)
    sensors = {p["seat"]: p["sensors"] for p in port.table.public_state()["players"]}
    assert [sensors[s]["lock"] for s in (1, 2, 3, 4)] == [0, 1, 2, 0]
    revision = port.table.revision
    port.fact("lock", 2, 0)  # let down: the indicator goes off
    assert port.table.revision == revision + 1
    assert port.table.view().sensors[2]["lock"] == 0
    assert port.table.readings.manual(2) == []  # nobody overrides a lock


def test_seen_rounds_fill_the_matrix_without_waking_the_pages():
    port = LocalPort()
    port.table.readings.matrix.schedule(SEATS, SLOT_US)
    revision = port.table.revision
    now = port.clock.now_ms()
    for k in range(100):  # gun 1 holds seat 3 for a second; gun 2 sees 3 and 4 at times
        masks = (0b0100, 0b1100 if k % 2 else 0b0100, 0, 0)
        port.table.on_fact(Fact("seen", 0, masks, now - 990 + 10 * k, "hub"))
    assert port.table.revision == revision  # dozens a second: read on demand, not pushed
    m = port.table.readings.matrix.shares(now)
    assert m["seats"] == [1, 2, 3, 4] and m["looks"] == 100
    assert m["shares"][0] == [0.0, 0.0, 1.0, 0.0]
    assert m["shares"][1] == [0.0, 0.0, 1.0, 0.5]
    assert m["sees"] == {1: 3, 2: None, 3: None, 4: None}  # gun 2 sees two: not exactly


def test_the_matrix_is_a_share_of_every_round_and_forgets_after_a_second():
    matrix = VisibilityMatrix()
    matrix.schedule(SEATS, SLOT_US)
    last = looks(matrix, 0.0, 50, (0b10, 0, 0, 0))  # half a second on seat 2, then nothing
    half = matrix.shares(last + 500)
    assert half["shares"][0][1] == 0.5 and half["sees"][1] is None  # held too short
    assert matrix.shares(last + 1000)["shares"][0][1] == 0.0


def test_the_matrix_is_bounded():
    matrix = VisibilityMatrix()
    matrix.schedule(SEATS, SLOT_US)
    looks(matrix, 0.0, 10 * MAX_LOOKS, (0b10, 0, 0, 0))
    assert len(matrix._looks) == MAX_LOOKS


def test_without_the_hubs_schedule_the_seats_are_1_to_n_and_a_new_schedule_restarts():
    matrix = VisibilityMatrix()
    t = looks(matrix, 0.0, 20, (0b10, 0b1))
    m = matrix.shares(t)
    assert m["seats"] == [1, 2] and m["looks"] == 20 and m["sees"] == {1: 2, 2: 1}
    matrix.schedule((1, 2, 3), SLOT_US)
    assert matrix.shares(t)["shares"] == [[0.0] * 3] * 3
    matrix.add(t, (1, 2))  # masks of another schedule: dropped
    assert matrix.shares(t)["looks"] == 125 and not any(map(any, matrix.shares(t)["shares"]))


def test_a_hubs_device_info_gives_the_slot_order():
    info = b'{"device": "hub", "kind": "hub", "seats": [1, 2, 3], "slot_us": 2000}'
    assert hub_schedule(info) == ((1, 2, 3), 2000)
    for bad in (b"nope", b'{"kind": "pins", "seats": [1], "slot_us": 2000}',
                b'{"kind": "hub", "seats": [1, 1], "slot_us": 2000}',
                b'{"kind": "hub", "seats": [9], "slot_us": 2000}',
                b'{"kind": "hub", "seats": [1], "slot_us": true}'):
        assert hub_schedule(bad) is None


def test_readings_of_other_kinds_are_unchanged():
    r = Readings()
    keep(r, Fact("aim", 1, 3, 10.0, "hub"))
    assert r.now(1, "aim", 11.0) == 3 and r.now(1, "raised", 11.0) is False
    assert r.locks == {}
