"""The strong bot: it plans by playing each of its options out in many guessed games.

Flat Monte Carlo over determinized hidden information, with common random numbers: it
samples a game consistent with what its seat knows (`determinize.py`), then for each option
applies it to a copy of that game and plays the rest with fast sensible players
(`playout.py`), the same random draws for every option, and scores the end (a win, plus a
little for the money margin). Comparing options on the same guessed games removes most of
the luck from their differences. The option with the best average wins. A decision is
bounded by a number of playouts and, for a table where people watch, by a time limit (then
its choices depend on the machine's speed).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from companion.bots.determinize import determinize
from companion.bots.playout import play_out, take_value, utility
from companion.bots.styles import Bot, Option
from companion.bots.view import SeatView
from companion.clock import SYSTEM_CLOCK, Clock
from companion.rules import GameState, apply_in_place
from companion.rules.actions import Aim, Junk, Take

PLAYOUTS = 48  # per decision, by default: split among the options, 4 guessed games at least
MIN_GAMES = 4
MAX_DOUBLES = 6  # the Greedy's double shares tried, the best by face value


class StrongBot(Bot):
    style = "strong"
    summary = ("Strong: before each choice, plays each option out in dozens of possible "
               "games (guessing the hands and piles it cannot see) and picks what wins most.")
    needs_state = True

    def __init__(self, seed: int, playouts: int = PLAYOUTS,
                 time_limit_s: float | None = None, clock: Clock = SYSTEM_CLOCK) -> None:
        super().__init__(seed)
        self.playouts, self.time_limit_s, self.clock = playouts, time_limit_s, clock
        # what it decided and the CPU seconds it took, for the lab's decisions a second
        # (`process_time`: a measurement of this process, never read by the decisions)
        self.decisions, self.thinking_s = 0, 0.0

    def decide(self, view: SeatView | None, options: Sequence[Option]) -> Option:
        start = time.process_time()
        choice = self._decide(view, options)
        self.thinking_s += time.process_time() - start
        self.decisions += 1
        return choice

    def _decide(self, view: SeatView | None, options: Sequence[Option]) -> Option:
        assert view is not None and view.state is not None  # (needs_state)
        tried = _worth_trying(options)
        if len(tried) == 1:
            return tried[0]
        deadline = None if self.time_limit_s is None else \
            self.clock.now_ms() + self.time_limit_s * 1000
        kind = next(a.type for a in tried if a is not None)
        totals = [0.0] * len(tried)
        for game in range(max(MIN_GAMES, self.playouts // len(tried))):
            if game and deadline is not None and self.clock.now_ms() > deadline:
                break
            guess, seed = determinize(view, self.rnd), self.rnd.getrandbits(64)
            for k, option in enumerate(tried):
                totals[k] += _play(guess.copy(), option, (kind, view.me), random.Random(seed))
        return tried[max(range(len(tried)), key=totals.__getitem__)]


def _play(world: GameState, option: Option, mine: tuple[str, str], rnd: random.Random,
          ) -> float:
    """`option` played in `world`, then the game to its end: its worth to the seat."""
    if option is None:  # a pass: the power's actions are left out at the first step
        play_out(world, rnd, skip=mine)
    else:
        apply_in_place(world, option)
        play_out(world, rnd)
    return utility(world, mine[1])


def _worth_trying(options: Sequence[Option]) -> list[Option]:
    """The options, less those that cannot be better than another: a gun left down when a
    target is allowed, all but the best few double shares, the same blind draw twice."""
    actions = [a for a in options if a is not None]
    kind = actions[0].type if actions else ""
    aims = [a for a in actions if isinstance(a, Aim) and a.target is not None]
    if kind == "aim" and aims:
        return list(aims)
    if kind == "take":
        takes = [a for a in actions if isinstance(a, Take)]
        singles = [a for a in takes if not isinstance(a.loot, tuple)]
        doubles = sorted((a for a in takes if isinstance(a.loot, tuple)),
                         key=take_value, reverse=True)
        return [*singles, *doubles[:MAX_DOUBLES]]
    if kind == "junk":
        return [None, *[a for a in actions if isinstance(a, Junk) and a.pile is None][:1]]
    return list(options)
