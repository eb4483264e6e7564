"""The typed view model (view_model.py) changed no byte of any view: three whole bot games'
views (public, control and every seat's after each step) hash to what the views gave
before they were typed (printed by `python tests/referee/view_bytes.py` on that code, with
the phones' results and the called-off reason since added to it, at fb7fd6a)."""

from __future__ import annotations

import pytest
from view_bytes import game_views

BEFORE = {  # (seed, players): (views, SHA-256 of their JSON, one after the other)
    (3, 4): (7110, "fa7afecf9a35df78c36d9d1e17d35551f237ea49ab450c40e1e9a09b7b0f6716"),
    (7, 6): (8288, "242f6332389387e584200367ce91b4c91812b3526370e483fb09625fa7675933"),
    (11, 8): (10710, "1383280e4c41292da2deeab168ddc7221b7a38d417e5fd54c7cd2bf41e4bc385"),
}


@pytest.mark.parametrize(("seed", "players"), sorted(BEFORE))
def test_every_view_of_a_whole_game_is_byte_for_byte_what_it_was(seed, players) -> None:
    assert game_views(seed, players) == BEFORE[seed, players]
