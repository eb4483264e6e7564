"""Bots with a style: each decides from its seat's view (`view.py`) among its legal options.

A decision's options are the seat's legal actions of one kind (a card to choose, a target,
lie down or stand, a share, a power's use), plus `None` where the seat may pass. Each style
is a few readable rules over rough estimates (`estimate.py`); its `summary` is the sentence
shown to players (docs/BOTS.md, the lab report, the demo).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cached_property
from itertools import compress, repeat
from operator import attrgetter, eq
from typing import ClassVar, TypeVar, cast

from companion.bots import estimate as est
from companion.bots.view import SeatView
from companion.rules import Action
from companion.rules.actions import (
    Choose,
    Courage,
    Forbid,
    Hustle,
    Junk,
    Privilege,
    Smart,
    Swap,
)
from companion.rules.cards import BANG, CLICK, kind_of
from companion.rules.phases import ACTION_TYPES

Option = Action | None
Rule = Callable[[SeatView | None, Sequence[Option]], Option]  # (a bot's rule for one kind)
# (an option's field read in C: a step has many options)
TARGET, LOOT, VICTIM = attrgetter("target"), attrgetter("loot"), attrgetter("victim")
A = TypeVar("A", bound=Action)
# The Greedy's later turns weigh this much against a double share: measured over 1,500 games
# of 6 style bots, the Greedy won 8.7 % at 1, 10.2 % at 1.5, 13.0 % at 2, 14.4 % at 3, and
# 12.6 % never taking two shares.
LATER_WEIGHT = 3.0


class Bot:
    """A player at one seat. `decide` returns one of `options`."""

    style: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    needs_view: ClassVar[bool] = True  # False: decides without looking (no view is built)
    needs_state: ClassVar[bool] = False  # True: plans on the masked game (`SeatView.state`)
    # True: draws uniformly among its options with `self.rnd` (`options[randrange(n)]`,
    # drawn only among two or more), so the engine may draw for it (`fastplay.by_seat`)
    draws_uniformly: ClassVar[bool] = False

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)

    @cached_property
    def rules(self) -> dict[str, Rule]:
        """The rule each kind of decision goes to, by the options' kind, which the arena
        calls itself (`Arena.decide_together`, `Arena.decide`): `decide` for every kind."""
        return dict.fromkeys(ACTION_TYPES, self.decide)

    def decide(self, view: SeatView | None, options: Sequence[Option]) -> Option:
        raise NotImplementedError


class RandomBot(Bot):
    style = "random"
    summary = "Random: does anything the rules allow, each choice as likely as the others."
    needs_view = False
    draws_uniformly = True

    def decide(self, view: SeatView | None, options: Sequence[Option]) -> Option:
        return options[self.rnd.randrange(len(options))]


class StyleBot(Bot):
    """The rules every style shares; a style changes its rates, targets and nerve."""

    bang_rate: ClassVar[float] = 0.35  # how often it puts a Bang! down when it has one
    bonus_weight: ClassVar[float] = 0.5  # how much it cares for the diamond bonus
    painting_weight: ClassVar[float] = 1.0

    @cached_property
    def rules(self) -> dict[str, Rule]:
        """Each kind's own rule below (each given a view: needs_view)."""
        return cast(dict[str, Rule], {
            "choose": self.choose, "aim": self.aim, "courage": self.courage,
            "take": self.take, "hustle": self.hustle, "swap": self.swap,
            "privilege": self.privilege, "smart": self.smart, "junk": self.junk,
            "forbid": self.forbid, "reveal": self.anything, "deal": self.anything})

    def decide(self, view: SeatView | None, options: Sequence[Option]) -> Option:
        assert view is not None  # (needs_view)
        if len(options) == 1:
            return options[0]
        return self.rules[kind_of_options(options)](view, options)

    def best(self, items: Sequence[str], key: Callable[[str], float]) -> str:
        """The item of highest `key`, a tie broken at random (never by seat order, which
        would make the first seats everybody's target)."""
        keys = [*map(key, items)]  # (each worked out once)
        top = max(keys)
        if keys.count(top) == 1:
            return items[keys.index(top)]
        return self.rnd.choice([*compress(items, map(eq, keys, repeat(top)))])  # (the tied)

    # -- what a style changes --------------------------------------------------------------

    def wants_bang(self, view: SeatView) -> bool:
        return self.rnd.random() < self.bang_rate

    def target(self, view: SeatView, names: list[str]) -> str:
        return self.rnd.choice(names)

    def lies_down(self, view: SeatView) -> bool:
        return est.hit_chance(view) > 0.3 or (est.deadly(view) and bool(view.aimed_by()))

    def swaps_in_bang(self, view: SeatView) -> bool:
        """The Cunning, once every gun is pointed: put a Bang! down instead of a Click!."""
        return False

    # -- the decisions -----------------------------------------------------------------------

    def anything(self, view: SeatView, options: Sequence[Option]) -> Option:
        return self.rnd.choice(list(options))

    def choose(self, view: SeatView, options: Sequence[Option]) -> Option:
        card = BANG if self.wants_bang(view) else CLICK
        for a in options:  # (`_pick`, written out: one of a game's most common decisions)
            if isinstance(a, Choose) and a.card == card:
                return a
        return options[0]

    def aim(self, view: SeatView, options: Sequence[Option]) -> Option:
        # (the options are all aims, none a pass: `decide` sends them here by their kind)
        targets = [*map(TARGET, options)]
        named = [*filter(None, targets)]  # (None: too slow)
        if not named:
            return options[0]
        return options[targets.index(self.target(view, named))]

    def courage(self, view: SeatView, options: Sequence[Option]) -> Option:
        down = self.lies_down(view) or (est.lie_down_gain(view) > 0 and bool(view.aimed_by()))
        for a in options:  # (`_pick`, written out: one of a game's most common decisions)
            if isinstance(a, Courage) and a.down is down:
                return a
        return options[0]

    def values(self, view: SeatView) -> dict[str, float]:
        """What each share (every card and the token) is worth to me, worked out once a
        view from one reading of its figures (`estimate.worths`; a take weighs each share
        alone and again in pairs)."""
        known = view.memo.get("values")
        if known is None:
            known = view.memo["values"] = est.worths(
                view, self.bonus_weight, self.painting_weight)
        return known  # type: ignore[return-value]

    def take(self, view: SeatView, options: Sequence[Option]) -> Option:
        # (the options are all takes, none a pass: `decide` sends them here by their kind)
        values = self.values(view)
        keys: list[float | None] = [*map(values.get, map(LOOT, options))]  # (a single share)
        if None in keys:  # (a pair, the Greedy's, less its later turns, or nothing)
            later = None
            for i, key in enumerate(keys):
                if key is None:
                    loot: tuple[str, str] | None = options[i].loot  # type: ignore[union-attr]
                    if loot is None:
                        keys[i] = -1.0
                        continue
                    if later is None:
                        later = view.memo.get("later")
                        if later is None:
                            later = view.memo["later"] = _later_shares(view, self)
                    keys[i] = sum(map(values.__getitem__, loot)) - later  # type: ignore[operator]
        # (the first of the most worth, as `max` finds it)
        return options[keys.index(max(keys))]  # type: ignore[type-var]

    def hustle(self, view: SeatView, options: Sequence[Option]) -> Option:
        """Draw from the hand most likely to hold a Bang!, give back a Click! if I can."""
        # (the options are the Hustler's draws and a pass: `decide` sends them here)
        victims = [*dict.fromkeys(filter(None, map(VICTIM, filter(None, options))))]
        if not victims:
            return _pick(options, Hustle, lambda a: a.victim is None)
        bullets = view.memory.bullets  # (each one's `Seen.bullets`, without the record)
        victim = self.best(victims, lambda n: bullets[n].bang_share())
        give = CLICK if view.click else BANG
        return _pick(options, Hustle, lambda a: a.victim == victim and a.give in (give, None))

    def swap(self, view: SeatView, options: Sequence[Option]) -> Option:
        if view.card == CLICK and self.swaps_in_bang(view):
            return _pick(options, Swap, lambda a: a.card == BANG)
        return None

    def privilege(self, view: SeatView, options: Sequence[Option]) -> Option:
        """As Godfather: turn away the gun most likely to fire a Bang! at me."""
        threats = view.aimed_by()
        if not threats:
            return _pick(options, Privilege, lambda a: a.order is None)
        bullets = view.memory.bullets  # (each one's `Seen.bullets`, without the record)
        worst = self.best(threats, lambda n: bullets[n].bang_share())
        return _pick(options, Privilege, lambda a: a.order == worst)

    def smart(self, view: SeatView, options: Sequence[Option]) -> Option:
        """The Smart's target lay down: take the card back, let a Click! go."""
        return _pick(options, Smart, lambda a: a.discard == CLICK)

    def junk(self, view: SeatView, options: Sequence[Option]) -> Option:
        """Swap a card worth less than an average one for a blind card of a later pile."""
        taken = view.loot[-1]
        keep = est.wealth(view.loot, view.power) - est.wealth(view.loot[:-1], view.power)
        if keep >= est.UNKNOWN_CARD or (kind_of(taken) == "diamond" and self.bonus_weight >= 1):
            return None
        return _pick(options, Junk, lambda a: a.pile is None)

    def forbid(self, view: SeatView, options: Sequence[Option]) -> Option:
        """Forbid the kind of the best share on the table, if it is worth a fight."""
        shares = list(view.table) + (["godfather"] if view.token else [])
        if not shares:
            return None
        values = self.values(view)
        best = max(shares, key=values.__getitem__)
        if values[best] < 10000:
            return None
        return _pick(options, Forbid, lambda a: a.kind == kind_of(best))


class CautiousBot(StyleBot):
    style = "cautious"
    summary = ("Cautious: lies down as soon as a gun that may hold a Bang! points at it, "
               "rarely fires a Bang!, and takes the surest money.")
    bang_rate = 0.2

    def lies_down(self, view: SeatView) -> bool:
        return est.hit_chance(view) >= 0.15 or (est.deadly(view) and bool(view.aimed_by()))


class AggressiveBot(StyleBot):
    style = "aggressive"
    summary = ("Aggressive: points at the richest player, fires its Bang! cards early, and "
               "lies down only when the next wound would kill it.")
    bang_rate = 0.75

    def target(self, view: SeatView, names: list[str]) -> str:
        riches = est.riches(view)
        return self.best(names, riches.__getitem__)

    def lies_down(self, view: SeatView) -> bool:
        return view.wounds + 1 >= view.wound_limit and est.hit_chance(view) > 0.4

    def swaps_in_bang(self, view: SeatView) -> bool:
        return True

    def privilege(self, view: SeatView, options: Sequence[Option]) -> Option:
        if est.deadly(view):
            return super().privilege(view, options)
        return _pick(options, Privilege, lambda a: a.order is None)


class GreedyBot(StyleBot):
    style = "greedy"
    summary = ("Greedy: goes for paintings and diamonds, fights for the diamond bonus, "
               "aims at its diamond rival, and stands when the loot is worth the risk.")
    bonus_weight = 1.0
    painting_weight = 1.5

    def target(self, view: SeatView, names: list[str]) -> str:
        # (the others' diamonds as the table saw them go: `diamond_counts` less my own, which
        # no target is, read without the copy that counts mine exactly)
        counts = est.seen_diamonds(view)
        rival = self.best(names, counts.__getitem__)
        if counts[rival] > 0:
            return rival
        riches = est.riches(view)
        return self.best(names, riches.__getitem__)

    def lies_down(self, view: SeatView) -> bool:
        risk = est.hit_chance(view)
        if not risk:  # (no Bang! can come my way: no share's worth is below nothing)
            return False
        values = self.values(view)
        shares = sorted(map(values.__getitem__, view.table), reverse=True)
        gain = sum(shares[:2]) / 2 if shares else 0
        loss = est.WOUND_COST
        if est.deadly(view):
            loss += est.wealth(view.loot, view.power) + 50000
        return risk * loss > gain


class VengefulBot(StyleBot):
    style = "vengeful"
    summary = ("Vengeful: aims at whoever last fired a Bang! at it and answers with its own "
               "Bang!; otherwise plays safe.")

    def grudge(self, view: SeatView, names: Sequence[str]) -> str | None:
        shooter = view.memory.shot_by.get(view.me)
        if shooter is None:  # (nobody ever fired a Bang! at me)
            return None
        if shooter in names:
            return shooter
        fired = {n: view.memory.shots.get((n, view.me), 0) for n in names}
        if max(fired.values(), default=0) == 0:
            return None
        return self.best(list(names), fired.__getitem__)

    def wants_bang(self, view: SeatView) -> bool:
        me = view.me  # (the living others' names, without their records)
        grudge = me in view.memory.shot_by and self.grudge(
            view, [name for name in view.living_names() if name != me])
        return self.rnd.random() < (0.85 if grudge else 0.25)

    def target(self, view: SeatView, names: list[str]) -> str:
        return self.grudge(view, names) or self.rnd.choice(names)

    def swaps_in_bang(self, view: SeatView) -> bool:
        target = view.target
        return target is not None and target == self.grudge(view, [target])

    def lies_down(self, view: SeatView) -> bool:
        return est.hit_chance(view) >= 0.4 or (est.deadly(view) and bool(view.aimed_by()))


def kind_of_options(options: Sequence[Option]) -> str:
    """The kind of decision `options` make: their actions' type (a pass is never the only
    option, nor, but at a window, the first)."""
    first = options[0]
    if first is None:
        first = next(a for a in options if a is not None)
    return first.type


def _pick(options: Sequence[Option], kind: type[A], test: Callable[[A], bool]) -> Option:
    """The first option of `kind` passing `test`; else the first option (always a legal one)."""
    return next((a for a in options if isinstance(a, kind) and test(a)), options[0])


def _later_shares(view: SeatView, bot: StyleBot) -> float:
    """What the Greedy gives up by leaving the split after a double share: its later turns.
    Taking one share, it would get the best now, then one in `standing` of the rest in order
    of worth; counted `LATER_WEIGHT` times, since the others do not all want what it wants."""
    standing = view.standing() or 1
    table = [*view.table, *(["godfather"] if view.token else [])]
    shares = sorted(map(bot.values(view).__getitem__, table), reverse=True)
    return LATER_WEIGHT * sum(shares[standing::standing])
