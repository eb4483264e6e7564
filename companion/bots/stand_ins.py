"""The demo's players: a bot with a style at each seat, standing in until a person takes it.

A seat is a person's while a phone holds it (its QR code scanned, or "Take this seat" on
the virtual table); the seat's bot plays it again once the phone hands it back. Each bot
decides as in the balance lab, from its own seat's view of the live game and its memory
of the story (`view.py`, `memory.py`), among the options the bot table offers it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.bots.lab import make_bot
from companion.bots.memory import Memory
from companion.bots.view import seat_view
from companion.referee.table import Table
from companion.rules.actions import action_from_dict

Choice = dict[str, Any] | None  # an action as the table lists it; None: pass


class StandIns:
    """The bot table's `Players` for a live table (companion/bots/table_bot.py)."""

    def __init__(self, table: Table, styles: Mapping[int, str], seed: int) -> None:
        self.table = table
        self.styles = dict(styles)
        self.bots = {seat: make_bot(style, seed + seat) for seat, style in styles.items()}
        self._memories: dict[str, Memory] = {}
        self._game: int | None = None

    def plays(self, seat: int) -> bool:
        """Whether the seat's bot plays it now: no phone holds the seat."""
        return seat in self.bots and seat not in self.table.access.claimed

    def pick(self, name: str, options: list[Choice]) -> Choice:
        if len(options) == 1:
            return options[0]
        game = self.table.game
        assert game is not None
        s = game.state.copy()  # the referee's threads may move on meanwhile
        if game.id != self._game:
            self._game, self._memories = game.id, {}
        memory = self._memories.get(name)
        if memory is None or memory.read > len(s.events):  # a new game, or an undo
            memory = self._memories[name] = Memory(name, tuple(p.name for p in s.players))
        bot = self.bots[game.seat_of[name]]
        offered = [None if o is None else action_from_dict(o) for o in options]
        view = seat_view(s, name, memory, masked=bot.needs_state) if bot.needs_view else None
        return options[offered.index(bot.decide(view, offered))]
