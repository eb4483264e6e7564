"""The aim bench's sizes: --held-aims gives every grip, stance and table row as many
held aims a seed whatever its number of seats, and --accepted plays only the seatings
the seating check accepts for the grip."""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import aim_accuracy
import aim_scenes

from companion.tablesim.advice import seating_verdict
from companion.tablesim.geometry import GRIPS


def _cases(**how: object) -> list[tuple]:
    args = argparse.Namespace(grips=True, seed=1, trials=8, held_aims=0, accepted=False,
                              offsets=(1.0, 2.0, 3.0, 4.0, 5.0), only_grips=tuple(GRIPS),
                              only_tables=tuple(aim_scenes.GRIP_TABLES),
                              stances=("leaning",), optics="typical")
    vars(args).update(how)
    return aim_accuracy.cases(args)


def test_held_aims_size_each_row_by_its_seats():
    rows: dict[tuple, list[int]] = defaultdict(list)
    for case in _cases(held_aims=320):
        rows[case[2:5], case[8]].append(case[1])
    for ((_, _, seating), _), scenes in rows.items():
        seats = sum(int(n) for n in seating.split("+"))
        assert len(set(scenes)) == 1 and len(scenes) == 10  # five offsets, lock off and on
        expected = aim_scenes.HELD_SHARE * seats * sum(scenes)
        assert 320 <= expected < 320 + aim_scenes.HELD_SHARE * seats * 10, (seating, scenes)
    assert {c[1] for c in _cases()} == {8}  # without it, --trials


def test_the_held_share_is_what_the_scenes_play():
    """About 0.55 of a --grips scene's guns play a held aim (hold, swing, late swing)."""
    tally: dict = {}
    for case in _cases(trials=12, only_grips=("held out",))[:2]:
        for key, n in aim_scenes.run_case(case)["tally"].items():
            kind = key.split(":")[0]
            if kind != "held":  # the held aims' outcomes again
                tally[kind] = tally.get(kind, 0) + n
    guns = sum(tally.values())
    held = sum(n for kind, n in tally.items() if kind in aim_scenes.HELD)
    assert guns == 2 * 12 * 8
    assert abs(held / guns - aim_scenes.HELD_SHARE) < 0.1


def test_accepted_plays_only_what_the_check_accepts():
    played = {(c[2], c[3], c[4], c[8]) for c in _cases(accepted=True)}
    every = {(c[2], c[3], c[4], c[8]) for c in _cases()}
    assert played == {k for k in every if seating_verdict(*k) == "ok"}
    assert played and played != every
    assert not any(grip == "two-handed sternum" for *_, grip in played)


def test_only_tables_picks_tables_by_name():
    chosen = aim_accuracy._tables("round 0.9 4, rect 1.2 2+2+1+1")
    assert chosen == (("round", 0.9, "4"), ("rect", 1.2, "2+2+1+1"))
    assert {c[2:5] for c in _cases(only_tables=chosen)} == set(chosen)
    for bad in ("round 0.8 4", "oval 1.2 8", "round"):
        try:
            aim_accuracy._tables(bad)
        except argparse.ArgumentTypeError as e:
            assert "round 1.2 8" in str(e)
        else:
            raise AssertionError(bad)
