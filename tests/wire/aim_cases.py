"""Cases of the aim rule, run the same under CPython (tests/wire) and MicroPython.

Each case: a hold window in looks, the masks of successive looks (one round apart,
ROUND_MS), and the changes expected as [look index, state, value, t_ms]. Seat s is
bit s-1: 4 is seat 3, 8 is seat 4.
"""

from companion.wire.aimrule import AMBIGUOUS, HELD, NONE

ROUND_MS = 18  # 9 slots of 2 ms
T0 = 1000
S3, S4, S5 = 4, 8, 16


def t(i):
    return T0 + ROUND_MS * i


def _ramp(*parts):
    out = []
    for mask, n in parts:
        out += [mask] * n
    return out


def held_with_misses():
    # seen 0,1, missed 2, seen 3..9, missed 10 (tolerated), seen 11..12, missed 13, 14
    looks = _ramp((S3, 2), (0, 1), (S3, 7), (0, 1), (S3, 2), (0, 2))
    return looks, [[4, HELD, 3, t(0)], [14, NONE, 0, t(12)]]


CASES = {
    "a held aim counts, stamped at its window's first look": (
        5, _ramp((S3, 10)), [[4, HELD, 3, t(0)]]),
    "a release is stamped at the last look that saw the target": (
        5, _ramp((S3, 10), (0, 3)), [[4, HELD, 3, t(0)], [11, NONE, 0, t(9)]]),
    "one missed look is tolerated, two release": (5, *held_with_misses()),
    "a sweep shorter than the window never counts": (
        5, _ramp((0, 2), (S3, 4), (0, 2), (S4, 4), (0, 6)), []),
    "two misses inside the window wait for a cleaner window": (
        5, _ramp((S3, 1), (0, 1), (S3, 1), (0, 1), (S3, 6)), [[6, HELD, 3, t(2)]]),
    "the target must be seen in the window's first look": (
        5, _ramp((0, 1), (S3, 5)), [[5, HELD, 3, t(1)]]),
    "a window with one miss between its first and last look counts": (
        5, _ramp((0, 1), (S3, 3), (0, 1), (S3, 6)), [[5, HELD, 3, t(1)]]),
    "a second target in the window makes it ambiguous": (
        5, _ramp((S3, 2), (S3 | S4, 1), (S3, 4)), [[4, AMBIGUOUS, S3 | S4, t(0)]]),
    "a second target while held makes it ambiguous at that look": (
        5, _ramp((S3, 6), (S4, 1), (S3, 1), (0, 2)),
        [[4, HELD, 3, t(0)], [6, AMBIGUOUS, S3 | S4, t(6)], [9, NONE, 0, t(7)]]),
    "ambiguous grows with a third target and resolves to a clean hold": (
        5, _ramp((S3 | S4, 5), (S5, 1), (S4, 6)),
        [[4, AMBIGUOUS, S3 | S4, t(0)], [5, AMBIGUOUS, S3 | S4 | S5, t(5)],
         [10, HELD, 4, t(6)]]),
    "ambiguous tolerates one empty look and ends after two": (
        5, _ramp((S3 | S4, 5), (0, 1), (S4, 1), (0, 2)),
        [[4, AMBIGUOUS, S3 | S4, t(0)], [8, NONE, 0, t(6)]]),
    "a swing from one target to another releases, then holds the new one": (
        5, _ramp((S3, 6), (0, 2), (S4, 6)),
        [[4, HELD, 3, t(0)], [7, NONE, 0, t(5)], [12, HELD, 4, t(8)]]),
    # 8 seats: 18 ms rounds, a 500 ms hold is 28 looks; a sweep at 60°/s over ±10°
    # is inside for 333 ms (18 or 19 looks), a hand held for 600 ms is 33 looks
    "at 8 seats a 60°/s sweep across ±10° is never counted": (
        28, _ramp((0, 10), (S3, 19), (0, 5), (S4, 19), (0, 10)), []),
    "at 8 seats a 600 ms hold is counted": (
        28, _ramp((0, 3), (S3, 33), (0, 2)), [[30, HELD, 3, t(3)], [37, NONE, 0, t(35)]]),
}

LOCKS = [
    ([], 0), ([0, 0, 0], 0), ([0, 0, S3], 1), ([S3, S3, S3], 1), ([S3, 0, S3], 1),
    ([S3, S4, 0], 2), ([S3 | S4], 2), ([S3, 0, 0, 0], 0), ([S4, S3, S3, S3], 1),
]


def expected_changes(name):
    window, looks, changes = CASES[name]
    return window, [[t(i), m] for i, m in enumerate(looks)], changes
