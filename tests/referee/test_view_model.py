"""The typed view model (view_model.py) changed no byte of any view: three whole bot games'
views (public, control and every seat's after each step) hash to what the views gave
before they were typed (printed by `python tests/referee/view_bytes.py` on that code)."""

from __future__ import annotations

import pytest
from view_bytes import game_views

BEFORE = {  # (seed, players): (views, SHA-256 of their JSON, one after the other)
    (3, 4): (7110, "ae914aa39c8e0154f15d6c35270e6080926b2d86c1dedab54c6e085627c5fa60"),
    (7, 6): (8288, "6c8ae425f279d825af62637a6b0a814698b98c98a616a0e795cfb512666736c8"),
    (11, 8): (10710, "dec6ec93507942252c7637e7e5a2dcfb0bbeba7e9731702af09faa060c6af2fb"),
}


@pytest.mark.parametrize(("seed", "players"), sorted(BEFORE))
def test_every_view_of_a_whole_game_is_byte_for_byte_what_it_was(seed, players) -> None:
    assert game_views(seed, players) == BEFORE[seed, players]
