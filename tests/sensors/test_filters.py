"""Debounce, fed with explicit times: what counts, and when it happened."""

from companion.sensors.filters import Debouncer


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
