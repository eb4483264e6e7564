"""The arena applies the choices of a bullet choice, a hold-up or courage together, and
plays the split's turns one after the other, itself (`fastplay.play_chosen`,
`Arena.split_turns`): at every such step of many style-bot games, at tables of 4 to 8 with
and without powers, the state reached is the one the rules reach applying each choice
through `engine.apply_in_place`, each legal when applied, and the actions counted are those
choices."""

from __future__ import annotations

import random
from typing import Any

from companion.bots.arena import Arena
from companion.bots.lab import make_bot
from companion.bots.random_bot import random_setup
from companion.bots.styles import Option
from companion.rules import Action, apply_in_place, legal_actions, state_to_dict
from companion.rules.engine import settle
from companion.rules.fastplay import asked_at_step, play_chosen, plays_chosen, taking_turn
from companion.rules.state import CHOOSE, COURAGE, HOLDUP, SPLIT


class Compared(Arena):
    """An arena that, at each step it plays itself, plays the bots' choices again on a copy
    through the rules, and, at a step of everyone, all at once on another."""

    def __init__(self, setup: Any, bots: Any) -> None:
        super().__init__(setup, bots)
        self.steps: dict[str, int] = {}
        self.pending: list[Option] = []

    def step_actions(self) -> list[Action] | None:
        s = self.state
        before = s.copy() if plays_chosen(s) else None
        counted = self.actions
        self.pending = []
        actions = super().step_actions()
        chosen = [a for a in self.pending if a is not None]
        if (before is not None and chosen
                and (asked_at_step(before) is not None or taking_turn(before))):
            plain = before.copy()
            for a in chosen:  # (the split's: the Dictator's ban, then a take, ... in turn)
                assert a in legal_actions(plain), (a, plain.phase)
                apply_in_place(plain, a)
            if not taking_turn(before):
                fast, played = before.copy(), []
                play_chosen(fast, chosen, played)
                settle(fast)
                assert played == chosen
                assert state_to_dict(fast) == state_to_dict(plain)
            assert state_to_dict(plain) == state_to_dict(s)
            assert self.actions - counted == len(chosen)
            self.steps[before.phase] = self.steps.get(before.phase, 0) + 1
        return actions

    def ask(self, name: str, options: list[Option]) -> Option:
        choice = super().ask(name, options)
        self.pending.append(choice)
        return choice

    def decide_together(self, asked: list[tuple[str, list[Option]]]) -> list[Option]:
        chosen = super().decide_together(asked)  # (each seat's rule called, not `ask`)
        self.pending += chosen
        return chosen


def test_choices_applied_together_reach_the_state_the_rules_reach_one_by_one():
    rnd = random.Random(27)
    styles = ("cautious", "aggressive", "greedy", "vengeful", "random")
    steps: dict[str, int] = {}
    for game in range(15):
        setup = random_setup(rnd, 4 + game % 5, rnd.getrandbits(32), powers=game % 3 != 0)
        bots = {n: make_bot(styles[(game + i) % 5], rnd.getrandbits(32))
                for i, n in enumerate(setup.players)}
        arena = Compared(setup, bots)
        assert arena.play().over
        for phase, n in arena.steps.items():
            steps[phase] = steps.get(phase, 0) + n
    assert set(steps) == {CHOOSE, HOLDUP, COURAGE, SPLIT} and min(steps.values()) > 50, steps
