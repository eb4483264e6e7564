"""Bots at a table with physical bullet cards hold the cards a real player holds (issue 27).

Each bot is dealt 3 Bang! and 5 Click! (R1), puts down a card it holds, reveals the card it
put down, and gains a Bang! only as the rules give one (a Clip, the Good Friend, the
Hustler's draw). Checked over hundreds of games of every style; and the deaths a game then
agree with the same games played with digital cards.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from companion.bots import lab
from companion.bots.arena import Arena
from companion.bots.hands import Hands
from companion.bots.random_bot import random_setup
from companion.bots.styles import Option
from companion.rules import GameState
from companion.rules.actions import Choose, Swap
from companion.rules.cards import BANG
from companion.rules.events import Event, Hustled, JunkSwapped, ProfessionalStole, Revealed, Took

STYLES = ("cautious", "aggressive", "greedy", "vengeful", "random")


class Watched(Hands):
    """The table's cards, with each card a player put down noted by round."""

    def __init__(self, names, seed) -> None:
        super().__init__(names, seed)
        self.put_down: dict[tuple[int, str], str] = {}
        self.round = 0
        self.lowest = 0

    def play(self, name: str, choice: Option) -> Option:
        if isinstance(choice, Choose | Swap) and choice.card is not None:
            assert self.held[name][choice.card] > 0, f"{name} put down a card it did not hold"
            self.put_down[self.round, name] = choice.card
        out = super().play(name, choice)
        self.lowest = min(self.lowest, *(n for h in self.held.values() for n in h.values()))
        return out

    def follow(self, s: GameState) -> None:
        super().follow(s)
        self.round = s.round


def physical_game(rnd: random.Random, players: int, game: int) -> tuple[Arena, Watched]:
    setup = random_setup(rnd, players, rnd.getrandbits(32), powers=True, cards="physical")
    bots = {n: lab.make_bot(STYLES[(game + i) % len(STYLES)], rnd.getrandbits(32))
            for i, n in enumerate(setup.players)}
    arena = Arena(setup, bots)
    watched = arena.hands = Watched(setup.players, setup.seed)
    arena.play()
    return arena, watched


def most_bangs(events: list[Event], name: str, good_friend: bool) -> int:
    """The Bang! cards `name` could ever hold, read from the story alone: the 3 dealt, one
    for each Clip it took (or drew as the Junk Dealer), each Clip another took if it is the
    Good Friend, and one for each hustle it was part of (a card may change hands)."""
    bound = 3
    for e in events:
        if (isinstance(e, Took) and e.loot == "clip") or (
                isinstance(e, JunkSwapped) and e.got == "clip"):
            bound += e.player == name or good_friend
        elif isinstance(e, Hustled) and name in (e.player, e.victim):
            bound += 1
    return bound


def test_every_reveal_is_the_card_put_down_and_nobody_fires_more_bangs_than_held():
    rnd = random.Random(27)
    reveals = 0
    for game in range(500):
        arena, watched = physical_game(rnd, 4 + game % 5, game)
        s = arena.state
        assert s.over and watched.lowest >= 0
        fired: Counter[str] = Counter()
        for e in s.events:
            if isinstance(e, Revealed):
                assert e.card == watched.put_down[e.round, e.player], (game, e)
                reveals += 1
                fired[e.player] += e.card == BANG
            elif isinstance(e, ProfessionalStole):
                fired[e.player] += 1
        for p in s.players:
            assert fired[p.name] <= most_bangs(s.events, p.name, p.power == "good_friend"), (
                game, p.name)
    assert reveals > 3000


def deaths(cards: str, games: int) -> list[int]:
    plan = lab.Plan(games=games, players=6, styles=STYLES, seed=5, cards=cards)
    return [sum(seat["died"] is not None for seat in lab.play_game(plan, i)["seats"])
            for i in range(games)]


def test_deaths_with_physical_cards_agree_with_digital_cards_on_the_same_setups():
    digital, physical = deaths("digital", 300), deaths("physical", 300)
    mean = [sum(x) / len(x) for x in (digital, physical)]
    var = [sum((v - m) ** 2 for v in x) / (len(x) - 1)
           for x, m in zip((digital, physical), mean, strict=True)]
    error = math.sqrt(sum(v / len(digital) for v in var))
    assert abs(mean[0] - mean[1]) < 3 * error, (mean, error)
