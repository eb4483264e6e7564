"""The bot table's choices: whoever it plays decides; a power passed lets the game go on."""

from __future__ import annotations

import random
from typing import Any

from companion.bots.table_bot import Choice, RandomPlayers, TableBot
from tests.referee.local_table import LocalPort
from tests.smart_step import to_the_smarts_step


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


class BotsAt(RandomPlayers):
    """The demo's mix: bots at some seats, people (who do nothing yet) at the others."""

    def __init__(self, rnd: random.Random, seats: set[int]) -> None:
        super().__init__(rnd)
        self.seats = seats

    def plays(self, seat: int) -> bool:
        return seat in self.seats


def test_a_bot_smart_with_physical_cards_takes_the_card_back_or_passes_out_loud(tmp_path):
    """With real cards the table rests at the Smart's step until the Smart speaks (R28,
    docs/API.md): a bot Smart among people never leaves it waiting; each of its turns there
    ends the step, by the card taken back or by the pass, both told as such."""
    told = set()
    for seed in range(12):
        port = LocalPort(tmp_path / f"j{seed}.sqlite3")
        to_the_smarts_step(port.table, "physical")
        ana = port.table.game.seat_of["Ana"]
        bot = TableBot(port, random.Random(seed), players=BotsAt(random.Random(seed), {ana}))
        state = port.control()
        assert state["waiting"]["key"] == "wait.smart"
        bot.step(state)
        after = port.control()
        assert after["phase"] == "reveal", f"seed {seed}: the table rests at the Smart's step"
        told |= {e["type"] for e in port.table.public_state()["events"]
                 if e["type"].startswith("smart")}
        port.table.close()
    assert told == {"smart", "smart_pass"}  # it took the card back, and it passed out loud
