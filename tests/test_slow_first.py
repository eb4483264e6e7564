"""The slowest tests are dealt to the fronts of worksteal's first slices, longest first."""

from __future__ import annotations

from slow_first import SLOWEST, deal, known_seconds, slice_sizes


def test_the_slices_are_as_worksteal_first_sends_them() -> None:
    # 10 tests to 3 idle workers: 10 // 3, then 7 // 2, then the 4 left
    assert slice_sizes(10, 3) == [3, 3, 4]
    assert slice_sizes(2, 3) == [0, 1, 1]


def test_the_slow_ones_lead_the_slices_and_every_test_is_kept_once() -> None:
    ids = [f"t{i}" for i in range(12)]
    seconds = {"t10": 50.0, "t3": 40.0, "t7": 30.0, "t1": 25.0, "gone": 99.0}
    order = deal(ids, ids, seconds, 3)
    assert sorted(order) == sorted(ids)
    fronts = order[0], order[4], order[8]  # slices of 4
    assert fronts == ("t10", "t3", "t7")
    # the fourth goes where the fewest known seconds are: behind the 30 s one
    assert order[9] == "t1"
    # the others keep their order
    assert [i for i in order if i not in seconds] == [i for i in ids if i not in seconds]


def test_the_list_reads() -> None:
    seconds = known_seconds(SLOWEST.read_text())
    assert len(seconds) >= 10 and all(s > 0 for s in seconds.values())
    assert all("::" in name for name in seconds)
