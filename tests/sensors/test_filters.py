"""Debounce and aim stability, fed with explicit times: what counts, and when it happened."""

from companion.sensors.filters import AimFilter, Debouncer


def run(flt, readings, until):
    """Feed (t, value) readings in order, polling at every millisecond up to `until`."""
    readings = list(readings)
    for now in range(until + 1):
        while readings and readings[0][0] <= now:
            t, value = readings.pop(0)
            flt.feed(value, t)
        flt.poll(now)


def debouncer(hold=20):
    out = []
    deb = Debouncer(hold, lambda v, t: out.append((v, t)))
    deb.set(True, 0)
    out.clear()
    return deb, out


def test_a_change_counts_once_held_and_is_stamped_when_it_began():
    deb, out = debouncer(20)
    run(deb, [(100, False)], 130)
    assert out == [(False, 100)]


def test_bounces_shorter_than_the_hold_change_nothing():
    deb, out = debouncer(20)
    run(deb, [(100, False), (103, True), (105, False), (109, True)], 200)
    assert out == []
    assert deb.bounces >= 2


def test_chatter_then_settle_counts_from_the_last_edge():
    deb, out = debouncer(20)
    run(deb, [(100, False), (103, True), (105, False)], 200)
    assert out == [(False, 105)]
    assert deb.next_deadline() is None


def test_zero_hold_emits_at_once():
    deb, out = debouncer(0)
    deb.feed(False, 7)
    deb.poll(7)
    assert out == [(False, 7)]


def aim(acquire=120, release=250):
    out = []
    return AimFilter(acquire, release, lambda v, t: out.append((v, t))), out


def test_first_reading_of_nothing_is_reported():
    flt, out = aim()
    run(flt, [(5, None)], 10)
    assert out == [(None, 5)]


def test_a_target_counts_after_steady_sight_stamped_at_first_sight():
    flt, out = aim(120)
    run(flt, [(0, None), (100, 5)], 219)
    assert out == [(None, 0)]
    run(flt, [], 220)
    assert out == [(None, 0), (5, 100)]


def test_a_sweep_across_a_seat_does_not_count():
    flt, out = aim(120, 250)
    run(flt, [(0, None), (100, 4), (160, 5), (230, 6), (300, None)], 1000)
    assert [v for v, _ in out] == [None]


def test_a_brief_dropout_neither_clears_nor_restarts_acquisition():
    flt, out = aim(120, 250)
    run(flt, [(0, None), (100, 5), (150, None), (200, 5), (400, None), (500, 5)], 1000)
    assert out == [(None, 0), (5, 100)]
    assert flt.dropouts == 2


def test_a_long_dropout_clears_the_aim_stamped_when_sight_was_lost():
    flt, out = aim(120, 250)
    run(flt, [(0, 5), (400, None)], 649)
    assert out == [(5, 0)]
    run(flt, [], 700)
    assert out == [(5, 0), (None, 400)]


def test_switching_target_needs_steady_sight_of_the_new_one():
    flt, out = aim(120, 250)
    run(flt, [(0, 5), (300, 6)], 1000)
    assert out == [(5, 0), (6, 300)]


def test_reset_forgets_everything():
    flt, out = aim(120, 250)
    run(flt, [(0, 5)], 200)
    flt.reset()
    flt.poll(300)
    assert out == [(5, 0)]
    assert flt.next_deadline() is None
