"""The real bullet cards at a table that plays with physical cards, as the bots hold them.

With physical cards the companion sees no hand: a choice is entered without its card, a
revealed card is entered as it is turned up, and the Cunning's, the Smart's and the
Hustler's cards are handled at the table. A bot must still hold what a real player holds:
dealt 3 Bang! and 5 Click! (R1), one put down each turn and discarded once the cards are
resolved (R4, R6, R7), swapped by the Cunning (R17), taken back by the Smart for another
(R28), traded by the Hustler (R23), reloaded by a Clip (R14, R21), gone with a dead
player (R8). `Hands` keeps them: a decision about a card is offered as in digital mode
(the cards really held), the choice is kept here, and the game is given the action as it
is entered at a physical table. A revealed card is the one put down: no choice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from companion.bots.memory import Memory
from companion.bots.view import Held
from companion.rules import Action, GameState
from companion.rules.actions import Choose, Hustle, Reveal, Smart, Swap
from companion.rules.cards import BANG, BULLETS, CLICK
from companion.rules.events import Eliminated, JunkSwapped, Took
from companion.rules.menu import act
from companion.rules.powers import GOOD_FRIEND

Option = Action | None


class Hands:
    """Every player's hand and face-down card, and the discard pile, at one table."""

    def __init__(self, names: tuple[str, ...], seed: int) -> None:
        self.held = {n: {BANG: 3, CLICK: 5} for n in names}  # R1
        self.down: dict[str, str] = {}  # the cards put down this turn
        self.discard = {BANG: 0, CLICK: 0}
        self.rnd = random.Random(seed)  # the Hustler's draw from a hand, at the table
        self.read = 0  # events read so far
        # what the table saw the Clips do, face up, since last asked (`seen`): the engine
        # tells it with digital cards only
        self.reloads: list[tuple[str, str | None]] = []  # (reloaded, the Good Friend too)

    def hand_of(self, name: str) -> Held:
        """`name`'s cards, and the discard pile's size, for its view."""
        hand = self.held[name]
        return Held(hand[BANG], hand[CLICK], self.down.get(name),
                    self.discard[BANG] + self.discard[CLICK])

    def card_options(self, name: str, options: list[Option]) -> list[Option]:
        """`options` as the seat decides them: with the cards it really holds."""
        first = next((a for a in options if a is not None), None)
        hand = self.held[name]
        kinds = [k for k in BULLETS if hand[k] > 0]
        if isinstance(first, Choose):
            return [act("choose", name, "card", k) for k in kinds]
        if isinstance(first, Reveal):
            return [act("reveal", name, "card", self.down[name])]
        if isinstance(first, Swap):
            return [*(act("swap", name, "card", k) for k in kinds), None]
        if isinstance(first, Smart):
            back = {k: hand[k] + (self.down[name] == k) for k in BULLETS}
            return [*(act("smart", name, "discard", k) for k in BULLETS if back[k]), None]
        if isinstance(first, Hustle):
            victims = [v for v in dict.fromkeys(a.victim for a in options
                                                if isinstance(a, Hustle) and a.victim)
                       if v is not None and self.held[v][BANG] + self.held[v][CLICK]]
            return [act("hustle", name, "victim", None, "give", None),
                    *(act("hustle", name, "victim", v, "give", k) for v in victims
                      for k in kinds)]
        return options

    def play(self, name: str, choice: Option) -> Option:
        """Keep what `choice` does to the cards; the action as the game is given it."""
        hand = self.held[name]
        match choice:
            case Choose(card=str(card)):
                hand[card] -= 1
                self.down[name] = card
                return act("choose", name, "card", None)
            case Swap(card=str(card)):
                hand[self.down[name]] += 1
                hand[card] -= 1
                self.down[name] = card
                return act("swap", name, "card", None)
            case Smart(discard=str(card)):
                hand[self.down.pop(name)] += 1
                hand[card] -= 1
                self.discard[card] += 1
                return act("smart", name, "discard", None)
            case Hustle(victim=str(victim), give=str(give)):
                self._hustle(hand, self.held[victim], give)
                return act("hustle", name, "victim", victim, "give", None)
        return choice

    def _hustle(self, hand: dict[str, int], victim: dict[str, int], give: str) -> None:
        """R23: one of the victim's cards drawn at random, then one given back."""
        drawn = BANG if self.rnd.randrange(victim[BANG] + victim[CLICK]) < victim[BANG] else CLICK
        victim[drawn] -= 1
        hand[drawn] += 1
        hand[give] -= 1
        victim[give] += 1

    def follow(self, s: GameState) -> None:
        """What the game did to the cards since last asked: the cards down discarded once
        resolved (the state keeps none), the Clips, the hands of the dead."""
        for name in [n for n in self.down if s.players[s.index[n]].card is None]:
            self.discard[self.down.pop(name)] += 1
        for e in s.events[self.read:]:
            if (type(e) is Took and e.loot == "clip") or (
                    type(e) is JunkSwapped and e.got == "clip"):
                self._clip(s, e.player)
            elif type(e) is Eliminated:
                self.held[e.player] = {BANG: 0, CLICK: 0}  # R8: the hand leaves the game
        self.read = len(s.events)

    def _clip(self, s: GameState, name: str) -> None:
        """R14, R21: a Click! for a Bang! of the discard; then the Good Friend's Bang!."""
        hand = self.held[name]
        if not (self.discard[BANG] and hand[CLICK]):
            return
        hand[CLICK] -= 1
        self.discard[CLICK] += 1
        hand[BANG] += 1
        self.discard[BANG] -= 1
        friend = s.holder(GOOD_FRIEND)
        if friend is not None and friend.name != name and self.discard[BANG]:
            self.held[friend.name][BANG] += 1
            self.discard[BANG] -= 1
            self.reloads.append((name, friend.name))
        else:
            self.reloads.append((name, None))

    def seen(self, memories: Iterable[Memory]) -> None:
        """Tell every seat's memory what the Clips did since last asked, as the table saw."""
        for name, friend in self.reloads:
            for memory in memories:
                memory.reloaded(name)
                if friend is not None:
                    memory.befriended(friend)
        self.reloads.clear()
