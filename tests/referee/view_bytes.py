"""The views of one whole bot game on a fake clock, as bytes: public, control and every
seat's after each step. `python tests/referee/view_bytes.py` prints their digest; the
figure kept in test_view_model.py was printed by the code before the views were typed."""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parents[1])]

from local_table import NAMES8, LocalPort  # noqa: E402

from companion.bots.table_bot import TableBot  # noqa: E402
from companion.referee.views import compact_json  # noqa: E402


class Recorded(LocalPort):
    """A port that hashes every view after each command and each tick."""

    def __init__(self) -> None:
        super().__init__()
        self.hash, self.views = hashlib.sha256(), 0

    def _views(self) -> None:
        table = self.table
        seats = sorted(table.game.player_at) if table.game else []
        for view in [table.public_state(), table.control_state(),
                     *(table.seat_state(seat) for seat in seats)]:
            self.hash.update(compact_json(view))
            self.views += 1

    def command(self, cmd, auth=None):
        answer = super().command(cmd, auth)
        self._views()
        return answer

    def settle(self, _state=None, ms: float = 50.0) -> None:
        super().settle(_state, ms)
        self._views()


def game_views(seed: int, players: int) -> tuple[int, str]:
    """(views hashed, their digest) of one bot game."""
    port = Recorded()
    bot = TableBot(port, random.Random(seed))
    bot.new_game(NAMES8[:players], powers="random", seed=seed, cards="digital")
    bot.play()
    return port.views, port.hash.hexdigest()


if __name__ == "__main__":
    for seed, players in ((3, 4), (7, 6), (11, 8)):
        print(seed, players, *game_views(seed, players))
