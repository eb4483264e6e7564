"""A game's seats share one memory until one learns a secret of its own (`memory.Story`):
at every decision of style-bot games with every power, each seat's memory holds exactly
what a memory of its own reading the whole story alone holds, and the diamonds it counts
for each player are those among the loot it saw going to them."""

from __future__ import annotations

import random
from typing import Any

from companion.bots.arena import Arena
from companion.bots.lab import make_bot
from companion.bots.memory import Memory
from companion.bots.random_bot import random_setup
from companion.bots.styles import Option
from companion.rules.cards import LOOT_KIND

KEPT = ("seen", "maybe", "shot_by", "shots", "diamonds", "read")


def kept(memory: Memory) -> dict[str, Any]:
    out = {name: getattr(memory, name) for name in KEPT}
    out["bullets"] = {n: (b.bang, b.click) for n, b in memory.bullets.items()}
    return out


class Compared(Arena):
    """An arena whose seats' memories are compared, at each decision, with memories of
    their own that read the whole story alone."""

    def __init__(self, setup: Any, bots: Any) -> None:
        super().__init__(setup, bots)
        self.alone = {n: Memory(n, setup.players) for n in self.memories}
        self.compared = 0

    def ask(self, name: str, options: list[Option]) -> Option:
        self.decides(name)
        return super().ask(name, options)

    def decide_together(self, asked: list[tuple[str, list[Option]]]) -> list[Option]:
        for name, _ in asked:  # (the seats deciding at one moment, not through `ask`)
            self.decides(name)
        return super().decide_together(asked)

    def decides(self, name: str) -> None:
        """`name` is about to decide: its memory compared."""
        events = self.state.events
        shared, alone = self.memories[name], self.alone[name]
        shared.update(events)
        alone.update(events)
        assert kept(shared) == kept(alone), name
        for who, cards in shared.seen.items():
            assert shared.diamonds[who] == sum(LOOT_KIND[c] == "diamond" for c in cards)
        self.compared += 1


def test_memories_sharing_the_story_remember_what_each_alone_would():
    rnd = random.Random(31)
    styles = ("cautious", "aggressive", "greedy", "vengeful")
    diamonds = forked = 0
    for game in range(12):
        setup = random_setup(rnd, 4 + game % 5, rnd.getrandbits(32), powers=True)
        bots = {n: make_bot(styles[(game + i) % 4], rnd.getrandbits(32))
                for i, n in enumerate(setup.players)}
        arena = Compared(setup, bots)
        arena.play()
        assert arena.compared > 100
        diamonds += sum(sum(m.diamonds.values()) for m in arena.memories.values())
        forked += len(arena.story.own)
    assert diamonds > 0 and forked > 3
