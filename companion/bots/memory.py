"""What one seat remembers of the game's public story: who took which loot, which bullets
were seen, who shot whom.

A player with a good memory at a real table knows every share taken face up, every card
revealed, every Clip that brought a Bang! back; not the cards drawn or stolen in secret
(the Hustler's draw, the Junk Dealer's card, the Professional's and the Vulture's theft),
nor the cards discarded face down. `Memory` reads the engine's events and uses only their
public fields (`Event.secret` names the others), except for the seat's own secret gains,
which its player sees.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.rules.cards import BANG, LOOT_KIND, TOKEN
from companion.rules.events import (
    Clipped,
    CuteTook,
    Event,
    GoodFriend,
    Hustled,
    JunkSwapped,
    ProfessionalStole,
    Revealed,
    StealthyTook,
    Took,
    VultureTook,
)

KEPT_AT_ONCE = frozenset(("clip", "first_aid", TOKEN))  # shares used at once, never held
# The events `Memory._learn` learns from (each a direct subclass of `Event`); the others, most
# of a game's, tell nothing it keeps and are passed over at the cost of one look-up.
LEARNED = frozenset((Took, CuteTook, StealthyTook, JunkSwapped, Revealed, ProfessionalStole,
                     VultureTook, Clipped, GoodFriend, Hustled))
# The events whose secret fields its player learns (`Memory._learn`: `p == self.me`).
OWN_SECRETS = frozenset((JunkSwapped, ProfessionalStole, VultureTook))
DIAMONDS = frozenset(card for card, kind in LOOT_KIND.items() if kind == "diamond")


def diamonds(loot: Iterable[str]) -> int:
    """How many of `loot`'s cards are diamonds."""
    return sum(map(DIAMONDS.__contains__, loot))


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

    def __init__(self, me: str | None, names: tuple[str, ...], story: Story | None = None,
                 ) -> None:
        self.me = me  # (None: the memory of the seats that learned no secret of their own)
        self.read = 0  # events read so far
        self.story = story  # a game's shared reading (`Story`), or None: reads alone
        self.heard = 0  # the story's learned events read so far
        self.seen: dict[str, list[str]] = {n: [] for n in names}  # loot seen going to each
        # the diamonds among each player's `seen`, counted again as it changes
        self.diamonds = dict.fromkeys(names, 0)
        self.maybe: dict[str, list[str]] = {n: [] for n in names}  # loot it may have stolen
        self.bullets = {n: Bullets() for n in names}
        self.shot_by: dict[str, str] = {}  # player -> who last fired a Bang! at them
        self.shots: dict[tuple[str, str], int] = {}  # (shooter, target) -> Bang! cards fired

    def update(self, events: Sequence[Event]) -> None:
        story = self.story
        if story is None:
            for e in events[self.read:]:
                if type(e) in LEARNED:
                    self._learn(e)
        else:
            if story.read < len(events):
                story.catch_up(events)
            self.hear()
        self.read = len(events)

    def hear(self) -> None:
        """Learn the events its `story` picked out since last heard."""
        learned = self.story.learned  # type: ignore[union-attr]  # (a story's memory)
        if self.heard < len(learned):
            for e in learned[self.heard:]:
                self._learn(e)
            self.heard = len(learned)

    def forked(self, me: str) -> Memory:
        """A copy of this memory, from now on `me`'s own."""
        m = Memory.__new__(Memory)
        m.me, m.read, m.story, m.heard = me, self.read, self.story, self.heard
        m.seen = {n: list(cards) for n, cards in self.seen.items()}
        m.diamonds = dict(self.diamonds)
        m.maybe = {n: list(cards) for n, cards in self.maybe.items()}
        m.bullets = {n: Bullets(b.bang, b.click) for n, b in self.bullets.items()}
        m.shot_by, m.shots = dict(self.shot_by), dict(self.shots)
        return m

    def _learn(self, e: Event) -> None:
        """What a seat learns from `e`: its secret fields (`Event.secret`) only if its own.
        (The cases in order of how often they come.)"""
        match e:
            case Took(player=p, loot=card):
                if card not in KEPT_AT_ONCE:
                    self.seen[p].append(card)
                    if card in DIAMONDS:
                        self.diamonds[p] += 1
            case Revealed(player=p, target=target, card=card):
                self._fired(p, target, card)
            case CuteTook(player=p, loot=card) | StealthyTook(player=p, loot=card):
                self.seen[p].append(card)
                self._recount(p)
            case JunkSwapped(player=p, gave=gave, got=got):
                _drop(self.seen[p], gave)
                if p == self.me and got not in KEPT_AT_ONCE:  # the Junk Dealer saw its draw
                    self.seen[p].append(got)
                self._recount(p)
            case ProfessionalStole(player=p, target=target, loot=loot):
                self._fired(p, target, BANG)  # the Bang! was discarded face up (R27)
                self._stole(p, target, loot if p == self.me else None)
            case VultureTook(player=p, prey=prey, loot=loot):
                self._stole(p, prey, loot if p == self.me else None)
            case Clipped(player=p, reloaded=True):
                self.reloaded(p)
            case GoodFriend(player=p):
                self.befriended(p)
            case Hustled(player=p, victim=victim):  # a card of either kind may have gone
                for name in (p, victim):  # either way
                    b = self.bullets[name]
                    b.bang, b.click = b.bang + 1, b.click + 1

    def reloaded(self, name: str) -> None:
        """`name`'s Clip brought a Bang! back for a Click!, face up (R14)."""
        b = self.bullets[name]
        b.bang, b.click = b.bang + 1, b.click - 1

    def befriended(self, name: str) -> None:
        """The Good Friend, `name`, took a Bang! from the discard pile too (R21)."""
        self.bullets[name].bang += 1

    def _fired(self, shooter: str, target: str, card: str) -> None:
        b = self.bullets[shooter]
        if card == BANG:
            b.bang -= 1
            self.shot_by[target] = shooter
            self.shots[shooter, target] = self.shots.get((shooter, target), 0) + 1
        else:
            b.click -= 1

    def _stole(self, thief: str, victim: str, loot: tuple[str, ...] | None) -> None:
        if loot is not None:  # the thief's own memory: it saw what it took
            self.seen[thief] += loot
            for card in loot:
                _drop(self.seen[victim], card)
            self._recount(thief)
            self._recount(victim)
        else:  # any of the victim's cards may have changed hands
            self.maybe[thief] += self.seen[victim] + self.maybe[victim]


    def _recount(self, name: str) -> None:
        self.diamonds[name] = diamonds(self.seen[name])


class Story:
    """A game's story as its seats' memories learn it: the events worth learning from
    (`LEARNED`), picked out once for all, and one memory shared by every seat that has
    learned no secret of its own (a seat's own secret gains: the Junk Dealer's draw, the
    Professional's and the Vulture's thefts), learned once for all of them: each of 8
    seats reading the whole story took a tenth of a style-bot game. A seat gets a memory
    of its own (a copy of the shared one) just before the first event whose secret is its."""

    __slots__ = ("learned", "own", "read", "shared")

    def __init__(self, names: tuple[str, ...]) -> None:
        self.learned: list[Event] = []
        self.read = 0  # events of the story looked at so far
        self.shared = Memory(None, names, self)
        self.own: dict[str, Memory] = {}

    def memory_of(self, name: str, events: Sequence[Event]) -> Memory:
        """`name`'s memory, the story read up to `events`' end."""
        if self.read < len(events):
            self.catch_up(events)
        memory = self.own.get(name, self.shared)
        if memory.heard < len(self.learned):
            memory.hear()
        return memory

    def memories(self) -> list[Memory]:
        """Every memory, each once."""
        return [self.shared, *self.own.values()]

    def catch_up(self, events: Sequence[Event]) -> None:
        """Pick out the events worth learning from since last read; the shared memory, if
        it has heard all the others, learns each at once (not heard again later)."""
        learned, own, shared = self.learned, self.own, self.shared
        heard = shared.heard == len(learned)
        for e in events[self.read:]:
            kind = type(e)
            if kind in LEARNED:
                if kind in OWN_SECRETS:
                    mine: str = e.player  # type: ignore[attr-defined]  # (OWN_SECRETS')
                    if mine not in own:
                        if heard:  # (what it learned so far in this loop)
                            shared.heard = len(learned)
                        shared.hear()
                        own[mine] = shared.forked(mine)
                learned.append(e)
                if heard:
                    shared._learn(e)
        if heard:
            shared.heard = len(learned)
        self.read = len(events)


def _drop(cards: list[str], card: str) -> None:
    if card in cards:
        cards.remove(card)
