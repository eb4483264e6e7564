"""The style bots decide exactly as they did before they were made faster: every decision
of N games of each style, digested, equals the digest the code at 2c277c8 gave (recorded
there, before any change, by this same test's `digest`).

A digest covers each decision in order: who decided, among which options, and what. So a
bot that draws one random number more or less, weighs a share differently or breaks a tie
another way changes it."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

import pytest

from companion.bots.arena import Arena
from companion.bots.lab import make_bot
from companion.bots.random_bot import random_setup
from companion.bots.styles import Bot, Option
from companion.bots.view import SeatView

GAMES = 40


class Recorded:
    """A bot's `decide`, each call's seat, options and choice written to `log`."""

    def __init__(self, name: str, bot: Bot, log: list[str]) -> None:
        self.name, self.inner, self.log = name, bot.decide, log

    def __call__(self, view: SeatView | None, options: Sequence[Option]) -> Option:
        choice = self.inner(view, options)
        self.log.append(f"{self.name}|{options!r}|{choice!r}")
        return choice


def digest(styles: Sequence[str], players: int, powers: bool, cards: str, seed: int,
           games: int = GAMES) -> tuple[int, str]:
    """How many decisions `games` games made, and the SHA-256 of them all, in order."""
    log: list[str] = []
    for i in range(games):
        rnd = random.Random(f"style-digest:{seed}:{i}")
        setup = random_setup(rnd, players, rnd.getrandbits(63), powers, cards)
        bots = {}
        for k, name in enumerate(setup.players):
            bot = make_bot(styles[(i + k) % len(styles)], rnd.getrandbits(63))
            bot.decide = Recorded(name, bot, log)  # type: ignore[method-assign]
            bots[name] = bot
        s = Arena(setup, bots).play()
        log.append(f"end|{s.round}|{[p.loot for p in s.players]}|{[p.alive for p in s.players]}")
    return len(log), hashlib.sha256("\n".join(log).encode()).hexdigest()


# (styles, players, powers, cards) -> (decisions, digest), from the code at 2c277c8
RECORDED = {
    (("cautious",), 8, True, "digital"):
        (10335, "3543f76af34169b30f1cbaede2060670d17e42c710a689e269a792a7a512e6f5"),
    (("aggressive",), 8, True, "digital"):
        (8063, "82ef49ee1ece0fafe14417d6986716933261f366e7149ee648c385256618e9e7"),
    (("greedy",), 8, True, "digital"):
        (9986, "4f14d6c4336aec8337f4b90b7e62efe911ea02a819a2b9b8814839b8b3f6f7ec"),
    (("vengeful",), 8, True, "digital"):
        (10248, "78da1c9072b2a73b4cc1e2ed13d549124a53a1829397e15e2830c94a84d43f3e"),
    (("cautious", "aggressive", "greedy", "vengeful", "random"), 8, True, "digital"):
        (9986, "5ea713aa73bc4d93f4be7a6148ab664ad8480c72d42bcb9422c7664f442e4b59"),
    (("cautious", "aggressive", "greedy", "vengeful"), 5, True, "digital"):
        (7347, "7fd888d5c726474d12dbd9f8228839c4242c91954438bcc2c95e4f262c51f3f9"),
    (("cautious", "aggressive", "greedy", "vengeful"), 8, False, "digital"):
        (9499, "80f44d8dbb4089c0cbaa48a76da868cf3fdbba2d8698280fd70a14cb0c3daa03"),
    (("cautious", "aggressive", "greedy", "vengeful", "random"), 6, True, "physical"):
        (8304, "cab127dfe1a913dc4241acef3ae2e1367bfafa48b9ab6ff9f8fca39cfb545199"),
}


@pytest.mark.parametrize("case", list(RECORDED),
                         ids=lambda c: f"{'+'.join(c[0])}-{c[1]}{'p' * c[2]}-{c[3]}")
def test_the_same_decisions_as_before(case: tuple[tuple[str, ...], int, bool, str]) -> None:
    styles, players, powers, cards = case
    assert digest(styles, players, powers, cards, seed=7) == RECORDED[case]
