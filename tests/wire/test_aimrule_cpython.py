"""The aim rule under CPython: the shared cases, then properties over random looks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wire.aim_cases import CASES, LOCKS, expected_changes

from companion.wire import aimrule
from companion.wire.aimrule import AMBIGUOUS, HELD, NONE, AimTracker


def run(window, looks):
    """The changes of a tracker fed `looks` ([t, mask]) as [index, state, value, t]."""
    tracker = AimTracker(window)
    out = []
    for i, (t, mask) in enumerate(looks):
        change = tracker.look(t, mask)
        if change is not None:
            out.append([i, *change])
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name):
    window, looks, changes = expected_changes(name)
    assert run(window, looks) == changes


@pytest.mark.parametrize(("masks", "want"), LOCKS)
def test_lock(masks, want):
    assert aimrule.lock(masks) == want


def test_window_rounds_and_the_round_limit():
    assert aimrule.window_rounds(500, 18000) == 28  # 8 seats
    assert aimrule.window_rounds(500, 10000) == 50  # 4 seats
    assert aimrule.window_rounds(500, 20000) == 25  # exact
    assert aimrule.round_fits(500, 45000) and not aimrule.round_fits(500, 166667)
    with pytest.raises(ValueError):
        AimTracker(1)


def test_masks_are_the_last_looks_oldest_first():
    tracker = AimTracker(4)
    for i, m in enumerate([1, 2, 4, 8, 16, 32]):
        tracker.look(i, m)
    assert tracker.masks(3) == [8, 16, 32]
    assert tracker.masks(9) == [4, 8, 16, 32]


# -- properties over random looks: a few seats, sparse detections, occasional noise

SEATS = 4
look_masks = st.lists(
    st.one_of(st.just(0), st.sampled_from([1, 2, 4, 8]), st.integers(0, (1 << SEATS) - 1)),
    min_size=1,
    max_size=120,
)
held_runs = st.lists(st.tuples(st.sampled_from([0, 1, 2, 4, 8, 3]), st.integers(1, 40)),
                     min_size=1, max_size=8)


def looks_of(masks):
    return [[10 * i, m] for i, m in enumerate(masks)]


def check(window, masks):
    looks = looks_of(masks)
    changes = run(window, looks)
    state, last_t = NONE, None
    for i, kind, value, t in changes:
        start = i - window + 1
        if kind == HELD:
            bit = 1 << (value - 1)
            span = masks[start : i + 1] if start >= 0 else []
            assert state != HELD and len(span) == window, (i, changes)
            # seen in the window's first and last look, missed at most once between
            assert span[0] & bit and span[-1] & bit
            assert sum(1 for m in span[1:-1] if not m & bit) <= 1
            # and no other target anywhere in that window
            assert all(m & ~bit == 0 for m in span)
            assert t == looks[start][0]
        elif kind == NONE:
            assert state != NONE and value == 0
            # stamped at a look that saw something, followed by two empty looks
            j = t // 10
            assert masks[j] and masks[j + 1 : i + 1] == [0] * (i - j)
            assert i - j >= 2
        else:
            assert kind == AMBIGUOUS and value & (value - 1)  # two targets at least
        if last_t is not None:
            assert t >= last_t, changes  # stamps never go back
        state, last_t = kind, t
    return changes


@settings(max_examples=400, deadline=None)
@given(st.integers(2, 12), look_masks)
def test_random_looks_follow_the_rule(window, masks):
    check(window, masks)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 12), held_runs)
def test_runs_of_looks_follow_the_rule(window, runs):
    check(window, [m for m, n in runs for _ in range(n)])


@settings(max_examples=300, deadline=None)
@given(st.integers(3, 30), st.integers(0, 40), st.integers(1, 29), st.sampled_from([1, 2, 4, 8]))
def test_a_target_seen_for_fewer_looks_than_the_window_never_counts(window, before, n, bit):
    if n >= window:
        n = window - 1
    masks = [0] * before + [bit] * n + [0] * (window + 3)
    assert not [c for c in check(window, masks) if c[1] == HELD]


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 30), st.integers(0, 10), st.sampled_from([1, 2, 4, 8]),
       st.integers(0, 60))
def test_a_target_held_for_a_window_counts_once(window, before, bit, extra):
    masks = [0] * before + [bit] * (window + extra) + [0, 0]
    changes = check(window, masks)
    assert [c[1:] for c in changes] == [[HELD, bit.bit_length(), 10 * before],
                                        [NONE, 0, 10 * (before + window + extra - 1)]]
