"""The snapshot rules around "three", on timestamps alone."""

from __future__ import annotations

import random

import pytest

from companion.referee.timing import (
    Timing,
    Track,
    aim_snapshot,
    aim_spans,
    new_aim,
    posture_snapshot,
)

T = Timing()  # hold 500, too slow 1000 (so begun by three + 500), posture 700
THREE = 10_000.0
SEATS = {2, 3, 4}


def gun(*changes: tuple[float, int | tuple[int, ...] | None],
        raised: list[tuple[float, bool]] | None = None,
        shuffle: bool = False) -> tuple[Track, Track | None]:
    """An aim track from (offset from three, target) changes, added in any order."""
    aim_changes = [(THREE + dt, v) for dt, v in changes]
    raise_changes = [(THREE + dt, v) for dt, v in raised] if raised is not None else None
    if shuffle:
        random.Random(len(changes)).shuffle(aim_changes)
    aim = Track()
    for t, v in aim_changes:
        aim.add(t, v)
    if raise_changes is None:
        return aim, None
    up = Track(False)
    for t, v in raise_changes:
        up.add(t, v)
    return aim, up


# The sensors report an aim once held 500 ms, stamped when it began (the aim rule).
@pytest.mark.parametrize("changes,expected", [
    ([(-2000, 2)], 2),  # held since long before "three" (players anticipate the rhythm)
    ([(400, 3)], 3),  # begun 400 ms after three: held by the too-slow limit
    ([(500, 3)], 3),  # begun at the very last moment
    ([(501, 3)], None),  # begun too late: held only after the too-slow limit
    ([(-3000, 2), (-100, None)], None),  # lowered before "three": holds nobody up
    ([(-1000, 2), (300, 4)], 4),  # switched inside the window: the latest aim counts
    ([(-1000, 2), (900, 4)], 2),  # switched after the window: the first aim stands
    ([(1200, 3)], None),  # after the cut-off: never counts
    ([(-500, 1)], None),  # seat 1 is not a valid target (oneself, or out of the game)
    ([(-500, (2, 3))], (2, 3)),  # the gun saw two players: the Godfather decides
    ([(-500, (1, 3))], 3),  # ... unless only one of them can be a target
    ([(-900, (2, 3)), (200, 4)], 4),  # a clear aim after an ambiguous one counts
    ([(-900, 4), (200, (2, 4))], 4),  # a clear aim at "three" stands if the gun wavers after
    ([(-900, (2, 4)), (700, 3)], (2, 4)),  # a clear aim begun too late does not settle it
])
def test_aim_snapshot(changes, expected):
    assert aim_snapshot(*gun(*changes), THREE, T, SEATS) == expected
    assert aim_snapshot(*gun(*changes, shuffle=True), THREE, T, SEATS) == expected


def test_a_gun_must_be_raised_while_aiming():
    assert aim_snapshot(*gun((-500, 2), raised=[(-600, True)]), THREE, T, SEATS) == 2
    assert aim_snapshot(*gun((-500, 2), raised=[(-600, False)]), THREE, T, SEATS) is None
    assert aim_snapshot(*gun((-500, 2), raised=[(-600, False), (400, True)]),
                        THREE, T, SEATS) == 2  # raised 400 ms after three, then held
    assert aim_snapshot(*gun((-500, 2), raised=[(-600, False), (600, True)]),
                        THREE, T, SEATS) is None  # raised too late
    assert aim_snapshot(*gun((-500, 2), raised=[(-600, True), (100, False)]),
                        THREE, T, SEATS) == 2  # held 600 ms, then lowered: it counted


def test_an_override_reads_as_held_forever():
    assert aim_snapshot(Track(3), None, THREE, T, SEATS) == 3
    assert aim_snapshot(Track(None), None, THREE, T, SEATS) is None


def test_new_aim_after_an_order():
    aim, raised = gun((-3000, 2), (1000, 4))
    order = THREE + 500
    assert new_aim(aim, raised, order, THREE + 1400, T, {3, 4}) is None  # not held long enough
    assert new_aim(aim, raised, order, THREE + 1500, T, {3, 4}) == 4
    assert new_aim(aim, raised, order, THREE + 1500, T, {3}) is None  # 4 is the old target


def test_an_ambiguous_aim_does_not_obey_an_order():
    aim, raised = gun((-3000, 2), (1000, (3, 4)))
    assert new_aim(aim, raised, THREE + 500, THREE + 3000, T, {3, 4}) is None
    assert new_aim(aim, raised, THREE + 500, THREE + 3000, T, {3}) == 3  # 4 not allowed


def test_a_gun_already_on_an_allowed_target_counts_once_held_after_the_order():
    aim, raised = gun((-3000, 4))  # on 4 before the order (the rules had it too slow)
    order = THREE + 500
    assert new_aim(aim, raised, order, order + 450, T, {3, 4}) is None  # not yet held after it
    assert new_aim(aim, raised, order, order + 510, T, {3, 4}) == 4
    assert new_aim(aim, raised, order, order + 510, T, {3}) is None


@pytest.mark.parametrize("changes,down", [
    ([(-5000, "up"), (500, "down")], True),
    ([(-5000, "up"), (700, "down")], True),
    ([(-5000, "up"), (701, "down")], False),
    ([(-5000, "down"), (-100, "up")], False),
    ([(-200, "down")], True),
])
def test_posture_snapshot(changes, down):
    track = Track("up")
    for dt, v in reversed(changes):  # arrival order does not matter
        track.add(THREE + dt, v)
    assert posture_snapshot(track, THREE, T) is down


def test_a_track_stays_bounded_and_still_answers_for_the_recent_past():
    aim = Track()
    for i in range(20_000):  # an hour of a gun switching between two players every 180 ms
        aim.add(i * 180.0, 2 + i % 2)
    assert len(aim.times) <= 60_000 / 180 + 1
    last = 19_999 * 180.0
    assert aim.at(last) == 3 and aim.at(last - 100) == 2
    aim.add(0.0, None)  # a very late message from long ago changes nothing recent
    assert len(aim.times) <= 60_000 / 180 + 1 and aim.at(last) == 3
    steady = Track()
    steady.add(0.0, 4)
    steady.add(100_000.0, 4)  # still on 4: held since long before, as far as "three" cares
    assert aim_snapshot(steady, None, 100_500.0, T, {4}) == 4


@pytest.mark.parametrize("changes,whys", [
    ([(-1000, 2), (300, 4)], ["replaced", "counted"]),  # a player may correct
    ([(-1000, 2), (900, 4)], ["counted", "late"]),
    ([(-3000, 2), (-100, None)], ["dropped"]),
    ([(-500, 1)], ["not_target"]),
    ([(-900, (2, 4)), (700, 3)], ["two", "late"]),
])
def test_every_span_says_why_it_counted_or_not(changes, whys):
    """The replay's words come from the same classification the snapshot decides by."""
    spans = aim_spans(*gun(*changes), THREE, T, SEATS)
    assert [s.why for s in spans] == whys
