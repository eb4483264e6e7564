"""Rounds into aims: SEEN lines and the rounds between them, through the one aim rule."""

from companion.sensors.looks import HubLooks

SEATS = (1, 2, 3, 4)
ROUND_MS = 10.0  # 5 slots of 2 ms


def looks(hold_ms=100):
    out = []
    hub = HubLooks(2000, SEATS, hold_ms, lambda *fact: out.append(fact))
    return hub, out


def gun1(masks_by_round, start=0):
    """SEEN lines for gun 1 only: round -> the mask it saw; rounds without one are skipped."""
    return [(r, start + r * ROUND_MS, (m, 0, 0, 0)) for r, m in masks_by_round]


def aims(out):
    return [(seat, value, t) for kind, seat, value, t in out if kind == "aim"]


def test_a_held_aim_counts_once_its_window_is_full_stamped_at_its_first_look():
    hub, out = looks()
    assert hub.window == 10
    for r, t, masks in gun1([(r, 0b100) for r in range(5, 20)]):
        assert hub.seen(r, t, masks)
    assert aims(out) == [(1, 3, 50.0)]


def test_a_sweep_shorter_than_the_window_never_counts():
    hub, out = looks()
    for r, t, masks in gun1([(r, 0b100) for r in range(5, 13)]):
        hub.seen(r, t, masks)
    hub.passed(40, 400.0)
    assert aims(out) == []


def test_unreported_rounds_saw_nothing_and_the_release_is_stamped_at_the_last_sight():
    hub, out = looks()
    for r, t, masks in gun1([(r, 0b10) for r in range(0, 12)]):
        hub.seen(r, t, masks)
    hub.seen(12, 120.0, (0, 0, 0, 0))  # the first empty round after
    hub.passed(30, 300.0)  # HB: rounds 13..29 were empty
    assert aims(out) == [(1, 2, 0.0), (1, None, 110.0)]
    assert hub.looks == 30


def test_two_targets_in_the_window_are_ambiguous_and_the_lock_blinks():
    hub, out = looks()
    for r, t, masks in gun1([(r, 0b110 if r % 2 else 0b10) for r in range(0, 12)]):
        hub.seen(r, t, masks)
    assert aims(out) == [(1, (2, 3), 0.0)]
    locks = [(seat, value) for kind, seat, value, _t in out if kind == "lock"]
    assert locks == [(1, 1), (1, 2)]


def test_a_stale_or_repeated_round_is_refused_and_a_wrap_is_not():
    hub, _out = looks()
    assert hub.seen(65534, 0.0, (0, 0, 0, 0))
    assert not hub.seen(65534, 0.0, (0, 0, 0, 0))
    assert hub.seen(1, 30.0, (0, 0, 0, 0))  # 65535 and 0 passed unreported
    assert hub.looks == 4
    assert not hub.seen(2, 40.0, (0, 0, 0))  # another schedule's line


def test_a_long_quiet_spell_costs_no_more_than_the_window():
    hub, out = looks()
    hub.seen(0, 0.0, (0, 0, 0, 0))
    hub.passed(30001, 300010.0)
    assert hub.looks == 30001 and out == []


def test_looks_of_rounds_before_the_schedule_was_announced_date_from_the_announcement():
    out = []
    hub = HubLooks(2000, SEATS, 100, lambda *fact: out.append(fact), start_ms=120.0)
    for r, t, masks in gun1([(r, 0b100) for r in range(5, 20)]):  # from 50 ms on
        hub.seen(r, t, masks)
    assert aims(out) == [(1, 3, 120.0)]  # not 50: the aim None of the schedule came first
