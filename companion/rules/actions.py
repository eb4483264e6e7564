"""Actions: what the people at the table did, one class per kind, in the words of the
scenario format.

Each class's `type` is the action's name on the wire, and its fields are those the format
gives it: a field without a default is required (it may still be null: an aim at nobody is
too slow), one with a default may be left out. `FIELDS` says the same for the scenario
loader and the API, `to_dict` writes an action as the journal, the API and the broker carry
it, `action_from_dict` reads it back, and `str` writes it as a scenario file does.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

Share = str | tuple[str, ...] | None  # one card or the token; the Greedy's two; or nothing
Value = str | int | bool | tuple[str, ...] | None  # any action's field


@dataclass(frozen=True, slots=True)
class Action:
    """One action by `player`; its kind is its class."""

    type: ClassVar[str]
    player: str

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "player": self.player}
        for name, required in FIELDS[self.type].items():
            value = getattr(self, name)
            if required or value is not None:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def __str__(self) -> str:
        inner = ", ".join(f"{k}: {_flow(v)}" for k, v in self.to_dict().items())
        return "{" + inner + "}"


def _sorted_loot(action: Take | Deal) -> None:
    """A double share or a pile is a multiset: kept sorted, as a tuple (one spelling)."""
    if isinstance(action.loot, (tuple, list)):
        object.__setattr__(action, "loot", tuple(sorted(action.loot)))


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """Physical loot: the Godfather enters the cards turned up this round (R2)."""

    type = "deal"
    loot: tuple[str, ...]

    def __post_init__(self) -> None:
        _sorted_loot(self)


@dataclass(frozen=True, slots=True)
class Hustle(Action):
    """The Hustler draws a card from `victim` and gives `give` back; no victim: passes (R23)."""

    type = "hustle"
    victim: str | None
    give: str | None = None


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """A card put down face down; no card with physical cards (R1)."""

    type = "choose"
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Aim(Action):
    """An aim at `target`; None: too slow (R4). Also the re-aim the Godfather orders (R5)."""

    type = "aim"
    target: str | None


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """The Cunning swaps the card down for `card` from the hand (R17)."""

    type = "swap"
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Privilege(Action):
    """The Godfather orders `order` to change target; None: no order (R5)."""

    type = "privilege"
    order: str | None


@dataclass(frozen=True, slots=True)
class Courage(Action):
    """A player lies down (`down`) or stands (R6)."""

    type = "courage"
    down: bool


@dataclass(frozen=True, slots=True)
class Smart(Action):
    """The Smart takes the card back and discards `discard` instead (R28); `keep`: the
    card stays down, the Smart passes (physical cards: the table needs a way to say so)."""

    type = "smart"
    discard: str | None = None
    keep: bool | None = None

    def __post_init__(self) -> None:
        if self.keep is False:  # (one spelling: not kept is taken back, the field left out)
            object.__setattr__(self, "keep", None)


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Physical cards: the card a player shows, when it counts (R7)."""

    type = "reveal"
    card: str | None


@dataclass(frozen=True, slots=True)
class Take(Action):
    """A share of the split: a card or the token, the Greedy's two, or nothing (R10, R22)."""

    type = "take"
    loot: Share

    def __post_init__(self) -> None:
        _sorted_loot(self)


@dataclass(frozen=True, slots=True)
class Forbid(Action):
    """The Dictator forbids `target` a `kind` of loot for this take (R19)."""

    type = "forbid"
    target: str | None
    kind: str | None


@dataclass(frozen=True, slots=True)
class Junk(Action):
    """The Junk Dealer swaps the card just taken with one of a later pile: `pile` (digital
    loot; None: one drawn at random) or the card `got` (physical piles) (R24)."""

    type = "junk"
    pile: int | None = None
    got: str | None = None


ACTIONS: dict[str, type[Action]] = {cls.type: cls for cls in (
    Hustle, Choose, Aim, Swap, Privilege, Courage, Smart, Reveal, Take, Forbid, Junk, Deal)}

# type -> {field: required}, in the order the fields are written
FIELDS: dict[str, dict[str, bool]] = {
    kind: {f.name: f.default is MISSING for f in fields(cls) if f.name != "player"}
    for kind, cls in ACTIONS.items()}


def _flow(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value)


def action_from_dict(data: dict[str, Any]) -> Action:
    """Build an action from a mapping already checked for field names and types (lists as
    tuples)."""
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                              for k, v in data.items() if k != "type"}
    return ACTIONS[data["type"]](**values)
