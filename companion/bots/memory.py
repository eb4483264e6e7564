"""What one seat remembers of the game's public story: who took which loot, which bullets
were seen, who shot whom.

A player with a good memory at a real table knows every share taken face up, every card
revealed, every Clip that brought a Bang! back; not the cards drawn or stolen in secret
(the Hustler's draw, the Junk Dealer's card, the Professional's and the Vulture's theft),
nor the cards discarded face down. `Memory` reads the engine's events and uses only their
public fields (`companion.referee.views.SECRET_FIELDS` lists the others), except for the
seat's own secret gains, which its player sees.
"""

from __future__ import annotations

from typing import Any

from companion.referee.views import SECRET_FIELDS
from companion.rules.cards import BANG, TOKEN

KEPT_AT_ONCE = frozenset(("clip", "first_aid", TOKEN))  # shares used at once, never held


class Bullets:
    """The cards a player may still hold, as candidates: every Bang! and Click! it had,
    less those seen leaving face up. Those that left face down are among them."""

    __slots__ = ("bang", "click")

    def __init__(self, bang: int = 3, click: int = 5) -> None:
        self.bang, self.click = bang, click

    def bang_share(self) -> float:
        """The chance that a card of this hand is a Bang!, knowing nothing else."""
        total = self.bang + self.click
        return self.bang / total if total > 0 else 0.0


class Memory:
    """One seat's memory, fed with the game's events as they come (`update`)."""

    def __init__(self, me: str, names: tuple[str, ...]) -> None:
        self.me = me
        self.read = 0  # events read so far
        self.seen: dict[str, list[str]] = {n: [] for n in names}  # loot seen going to each
        self.maybe: dict[str, list[str]] = {n: [] for n in names}  # loot it may have stolen
        self.bullets = {n: Bullets() for n in names}
        self.shot_by: dict[str, str] = {}  # player -> who last fired a Bang! at them
        self.shots: dict[tuple[str, str], int] = {}  # (shooter, target) -> Bang! cards fired

    def update(self, events: list[dict[str, Any]]) -> None:
        for e in events[self.read:]:
            self._learn(e if e.get("player") == self.me else _public(e))
        self.read = len(events)

    def _learn(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        if (kind == "took" and e["loot"] not in KEPT_AT_ONCE) or kind in ("cute", "stealthy"):
            self.seen[e["player"]].append(e["loot"])
        elif kind == "junk":
            _drop(self.seen[e["player"]], e["gave"])
            got = e.get("got")  # only in its own memory: the Junk Dealer saw what it drew
            if got is not None and got not in KEPT_AT_ONCE:
                self.seen[e["player"]].append(got)
        elif kind == "revealed":
            self._fired(e["player"], e["target"], e["card"])
        elif kind == "professional":  # the Bang! was discarded face up (R27)
            self._fired(e["player"], e["target"], BANG)
            self._stole(e["player"], e["target"], e.get("loot"))
        elif kind == "vulture":
            self._stole(e["player"], e["prey"], e.get("loot"))
        elif kind == "clip" and e["reloaded"]:
            b = self.bullets[e["player"]]
            b.bang, b.click = b.bang + 1, b.click - 1
        elif kind == "good_friend":
            self.bullets[e["player"]].bang += 1
        elif kind == "hustled":  # a card of either kind may have gone either way
            for name in (e["player"], e["victim"]):
                b = self.bullets[name]
                b.bang, b.click = b.bang + 1, b.click + 1

    def _fired(self, shooter: str, target: str, card: str) -> None:
        b = self.bullets[shooter]
        if card == BANG:
            b.bang -= 1
            self.shot_by[target] = shooter
            self.shots[shooter, target] = self.shots.get((shooter, target), 0) + 1
        else:
            b.click -= 1

    def _stole(self, thief: str, victim: str, loot: list[str] | None) -> None:
        if loot is not None:  # the thief's own memory: it saw what it took
            self.seen[thief] += loot
            for card in loot:
                _drop(self.seen[victim], card)
        else:  # any of the victim's cards may have changed hands
            self.maybe[thief] += self.seen[victim] + self.maybe[victim]


def _public(e: dict[str, Any]) -> dict[str, Any]:
    secret = SECRET_FIELDS.get(e["type"])
    return e if secret is None else {k: v for k, v in e.items() if k not in secret}


def _drop(cards: list[str], card: str) -> None:
    if card in cards:
        cards.remove(card)
