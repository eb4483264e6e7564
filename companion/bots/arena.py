"""A whole game between bots, each asked only what its seat decides, from what it can see.

The engine lists the legal actions; the arena splits them into decisions: an optional
power's holder uses it or passes, then every player a step waits for decides. A pass is
applied before anyone else is asked, since what the engine lists beyond a window can tell
hidden cards (past the Smart's window, the shots are resolved). Steps the rules play at
once (the bullet choice, the hold-up, courage) are decided by everyone from the same
moment, before anyone's choice is applied, as at a real table on "three!"; the Kid, who
aims after the others (R25), decides once they have.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.bots.memory import Memory
from companion.bots.styles import Bot, Option
from companion.bots.view import my_options, seat_view
from companion.rules import Action, GameState, Setup, apply_in_place, legal_actions, new_game
from companion.rules.engine import pass_window

# Optional powers the game waits for (R3); the Dictator's forbid is open beside the take.
WINDOWS = frozenset(("hustle", "swap", "privilege", "smart", "junk"))
# Those whose holder passes by letting the game go on (the others list a pass action).
PASS_BY_WAITING = frozenset(("swap", "smart", "junk", "forbid"))
MAX_DECISIONS = 5000  # far more than a game takes (about 250 at 8 players)


class IllegalChoice(RuntimeError):
    """A bot chose an action the rules refuse now (only checked when asked for)."""


class Arena:
    """One game: the bots by player name, each with its own memory of the story."""

    def __init__(self, setup: Setup, bots: Mapping[str, Bot], checked: bool = False) -> None:
        if setup.loot_mode != "digital":
            raise ValueError("bots play with digital loot (the companion deals it)")
        self.state = new_game(setup)
        self.bots = bots
        self.checked = checked
        self.memories = {name: Memory(name, setup.players) for name in setup.players}
        self.actions = 0

    def play(self) -> GameState:
        """Play to the end; returns the final state."""
        s = self.state
        for _ in range(MAX_DECISIONS):
            if s.over:
                return s
            for action in self.next_actions():
                if self.checked and action not in legal_actions(s):
                    raise IllegalChoice(f"{action} is not legal at round {s.round}, {s.phase}")
                apply_in_place(s, action)
                self.actions += 1
        raise RuntimeError(f"the game did not end after {MAX_DECISIONS} decisions")

    def next_actions(self) -> list[Action]:
        """The actions decided now: one power used, or every choice of a step; none when
        an optional power was passed (the game has moved on: ask again)."""
        pending = legal_actions(self.state)
        window = _open_window(pending)
        if window is None:
            return self._step(pending, pending[0].type)
        kind, holder = window
        options: list[Option] = [*self.options_of(pending, kind, holder)]
        if kind in PASS_BY_WAITING:
            options.append(None)
        used = self.ask(holder, options)
        if used is not None:
            return [used]
        if kind in WINDOWS:  # passed for real: what comes next may hang on hidden cards
            pass_window(self.state, kind)
            return []
        return self._step([a for a in pending if a.type != kind], pending[0].type)

    def _step(self, pending: list[Action], kind: str) -> list[Action]:
        """Everyone this step waits for decides, all from the same moment."""
        players = dict.fromkeys(a.player for a in pending if a.type == kind)
        chosen = [self.ask(p, [*self.options_of(pending, kind, p)]) for p in players]
        return [a for a in chosen if a is not None]

    def options_of(self, pending: list[Action], kind: str, name: str) -> list[Action]:
        """`name`'s options among `pending` actions of one kind, as its seat may know them."""
        p = self.state.players[self.state.index[name]]
        return my_options([a for a in pending if a.type == kind], name, p.bang, p.click)

    def ask(self, name: str, options: list[Option]) -> Option:
        if len(options) == 1:
            return options[0]
        bot = self.bots[name]
        view = (seat_view(self.state, name, self.memories[name], masked=bot.needs_state)
                if bot.needs_view else None)
        return bot.decide(view, options)


def _open_window(pending: list[Action]) -> tuple[str, str] | None:
    """The optional power listed first, and its holder; the Dictator's beside the take."""
    first = pending[0]
    if first.type in WINDOWS:
        return first.type, first.player
    forbid = next((a for a in pending if a.type == "forbid"), None)
    return None if forbid is None else ("forbid", forbid.player)
