"""What happened in a game, one class per kind of event.

The engine appends these to `GameState.events`, the game's story. Each class's `type` is
the event's name on the wire: `to_dict` gives the JSON the scenario format, the API and the
broker carry (`{"round": .., "type": .., ...}`, the fields in the order declared here), and
`event_from_dict` reads it back. Lists of names or cards are tuples here (an event never
changes) and lists in JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Event:
    """An event of round `round`; its kind is its class."""

    type: ClassVar[str]
    secret: ClassVar[tuple[str, ...]] = ()  # fields only the event's player may see
    round: int

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "type": self.type}
        for name in self.__slots__:  # (a kind's own fields, in order: those after `round`)
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out


# -- the turn ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundBegun(Event):
    """A round begins: who is the Godfather, the loot turned up (R2)."""

    type = "round"
    godfather: str
    loot: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Physical loot: the Godfather entered the cards turned up (R2)."""

    type = "dealt"
    player: str
    loot: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hustled(Event):
    """The Hustler drew a card from `victim` and gave one back (R23)."""

    type = "hustled"
    player: str
    victim: str


@dataclass(frozen=True, slots=True)
class Swapped(Event):
    """The Cunning swapped the card down (R17)."""

    type = "swapped"
    player: str


@dataclass(frozen=True, slots=True)
class Ordered(Event):
    """The Godfather ordered `order` to change target (R5)."""

    type = "ordered"
    player: str
    order: str


@dataclass(frozen=True, slots=True)
class LaidDown(Event):
    """A player lay down (R6)."""

    type = "lay_down"
    player: str


@dataclass(frozen=True, slots=True)
class Healed(Event):
    """The Doctor, lying down, healed a wound (R20); `wounds` are those left."""

    type = "healed"
    player: str
    wounds: int
    by: str


@dataclass(frozen=True, slots=True)
class StealthyTook(Event):
    """The Stealthy, lying down, took a $10,000 bill (R29)."""

    type = "stealthy"
    player: str
    loot: str


@dataclass(frozen=True, slots=True)
class SmartTookBack(Event):
    """The Smart took the card down back (R28)."""

    type = "smart"
    player: str


@dataclass(frozen=True, slots=True)
class SmartPassed(Event):
    """The Smart kept the card down: the power not used (R28)."""

    type = "smart_pass"
    player: str


# -- the card effects (R4, R6 to R9, R26, R27, R31) ----------------------------------------


@dataclass(frozen=True, slots=True)
class TooSlow(Event):
    """A player stood without aiming: the card is discarded face down (R4)."""

    type = "too_slow"
    player: str


@dataclass(frozen=True, slots=True)
class ProfessionalStole(Event):
    """The Professional's Bang! at a player lying down stole loot (R27); `loot` is secret."""

    type = "professional"
    secret = ("loot",)
    player: str
    target: str
    loot: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """A card that counts, shown: `card` at `target`."""

    type = "revealed"
    player: str
    card: str
    target: str


@dataclass(frozen=True, slots=True)
class Lucky(Event):
    """The Lucky Man was hit by two or more Bang! cards and took no wound (R26)."""

    type = "lucky"
    player: str
    by: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Wounded(Event):
    """A player was shot by `by`; `wounds` is the count now (R7)."""

    type = "wounded"
    player: str
    by: tuple[str, ...]
    wounds: int


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """A player is out of the game (R8)."""

    type = "eliminated"
    player: str


@dataclass(frozen=True, slots=True)
class VultureTook(Event):
    """The Vulture took loot from `prey`, who died (R31); `loot` is secret."""

    type = "vulture"
    secret = ("loot",)
    player: str
    prey: str
    loot: tuple[str, ...]


# -- the split (R10 to R14, R18, R19, R21, R24) --------------------------------------------


@dataclass(frozen=True, slots=True)
class CuteTook(Event):
    """The Cute took a $5,000 bill before the split (R18)."""

    type = "cute"
    player: str
    loot: str


@dataclass(frozen=True, slots=True)
class Took(Event):
    """A share taken: a loot card or the New Godfather token (R10)."""

    type = "took"
    player: str
    loot: str


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A player's turn of the split passed with nothing to take (R19)."""

    type = "passed"
    player: str


@dataclass(frozen=True, slots=True)
class FirstAid(Event):
    """A first aid kit healed `healed` wounds (R13)."""

    type = "first_aid"
    player: str
    healed: int


@dataclass(frozen=True, slots=True)
class Clipped(Event):
    """A Clip taken: `reloaded`, a Bang! came back from the discard (R14)."""

    type = "clip"
    player: str
    reloaded: bool


@dataclass(frozen=True, slots=True)
class GoodFriend(Event):
    """The Good Friend took a Bang! back too (R21)."""

    type = "good_friend"
    player: str


@dataclass(frozen=True, slots=True)
class Forbade(Event):
    """The Dictator forbade `target` a kind of loot for this take (R19)."""

    type = "forbid"
    player: str
    target: str
    kind: str


@dataclass(frozen=True, slots=True)
class JunkSwapped(Event):
    """The Junk Dealer swapped `gave` for `got` from the pile of round `pile` (R24);
    `got` is secret; `pile` is None with physical piles."""

    type = "junk"
    secret = ("got",)
    player: str
    gave: str
    got: str
    pile: int | None


@dataclass(frozen=True, slots=True)
class Unclaimed(Event):
    """Loot nobody took: `carried` to the next round, or discarded (R11)."""

    type = "unclaimed"
    loot: tuple[str, ...]
    carried: bool


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended (R9, R15)."""

    type = "game_over"
    winners: tuple[str, ...]


EVENTS: dict[str, type[Event]] = {cls.type: cls for cls in (
    RoundBegun, Dealt, Hustled, Swapped, Ordered, LaidDown, Healed, StealthyTook,
    SmartTookBack, SmartPassed, TooSlow, ProfessionalStole, Revealed, Lucky, Wounded, Eliminated,
    VultureTook, CuteTook, Took, Passed, FirstAid, Clipped, GoodFriend, Forbade, JunkSwapped,
    Unclaimed, GameOver)}


def _init_through_slots(cls: type[Event]) -> None:
    """Give `cls` an `__init__` that sets each field through its slot, where the frozen
    dataclass's own goes through `object.__setattr__` field by field: the same event,
    still frozen after, built in about two thirds of the time (a game of 8 builds some
    160; `bench/engine.py`). Written as `dataclasses` writes its own: as source."""
    names = [f.name for f in fields(cls)]
    setters = {f"set_{name}": getattr(cls, name).__set__ for name in names}
    body = "; ".join(f"set_{name}(self, {name})" for name in names)
    code = f"def __init__(self, {', '.join(names)}):\n    {body}\n"
    exec(code, setters)  # (source made above from the field names alone)
    init = setters["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010  (a method assigned to a class)


for _cls in EVENTS.values():
    _init_through_slots(_cls)


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event `to_dict` gave (its lists as tuples); KeyError or TypeError if it is not one."""
    cls = EVENTS[data["type"]]
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                              for k, v in data.items() if k != "type"}
    return cls(**values)
