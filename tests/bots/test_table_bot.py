"""The bot table's choices: whoever it plays decides; a power passed lets the game go on."""

from __future__ import annotations

import random
from typing import Any

from companion.bots.table_bot import Choice, TableBot


class Passing:
    """Players who pass every optional power and otherwise take the first option."""

    def __init__(self) -> None:
        self.asked: list[list[Choice]] = []

    def plays(self, seat: int) -> bool:
        return True

    def pick(self, name: str, options: list[Choice]) -> Choice:
        self.asked.append(options)
        return None if None in options else options[0]


def test_a_window_passed_by_its_only_player_goes_on_with_that_players_next_step():
    """The Junk Dealer passes the swap: the bots go on with the take that passes it,
    instead of waiting for a table that waits for them."""
    players = Passing()
    bot = TableBot(port=None, rnd=random.Random(1), players=players)  # type: ignore[arg-type]
    junk: list[dict[str, Any]] = [{"type": "junk", "player": "Dee", "loot": "painting"}]
    take = [{"type": "take", "player": "Dee", "loot": "bill5000"},
            {"type": "take", "player": "Dee", "loot": "bill10000"}]
    assert bot._tap(junk + take, {"Dee"}) == take[0]
    assert players.asked == [[*junk, None], take]


def test_nothing_is_chosen_for_the_seats_people_play():
    bot = TableBot(port=None, rnd=random.Random(1), players=Passing())  # type: ignore[arg-type]
    assert bot._tap([{"type": "take", "player": "Ana", "loot": "bill5000"}], {"Bob"}) is None
