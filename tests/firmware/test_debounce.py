"""The switch debouncer both boards use, run on the MicroPython unix port."""

STABLE = 30


def test_a_bouncing_contact_changes_once_after_it_settles(micropython):
    bounces = [[t, (t // 4) % 2] for t in range(0, 24, 4)]  # toggles every 4 ms
    settled = [[t, 0] for t in range(24, 100, 2)]
    [changes] = micropython.ask(["debounce", STABLE, 1, bounces + settled])
    assert changes == [[24 + STABLE, 0]]


def test_a_glitch_shorter_than_the_hold_time_changes_nothing(micropython):
    readings = [[0, 1], [10, 0], [10 + STABLE - 2, 0], [10 + STABLE - 1, 1], [200, 1]]
    assert micropython.ask(["debounce", STABLE, 1, readings]) == [[]]


def test_a_held_change_is_accepted_each_way(micropython):
    readings = [[t, 0] for t in range(0, 50, 5)] + [[t, 1] for t in range(50, 120, 5)]
    assert micropython.ask(["debounce", STABLE, 1, readings]) == [[[30, 0], [80, 1]]]


def test_the_wrapping_board_clock_is_handled(micropython):
    wrap = 1 << 30
    readings = [[wrap - 10, 0], [wrap - 1, 0], [5, 0], [19, 0], [20, 0]]
    assert micropython.ask(["debounce", STABLE, 1, readings]) == [[[20, 0]]]
