"""Actions: what the people at the table did, in the words of the scenario format.

One small immutable class serves every action type; `FIELDS` says which fields
each type carries, so the scenario loader, the journal and the API all check
and serialise actions the same way.
"""

from __future__ import annotations

from companion.rules.frozen import Frozen

TYPE_CHECKING = False  # (typing is not imported to run: a replay starts faster without it)
if TYPE_CHECKING:
    from typing import Any

# type -> {field: required}. Unlisted fields are unknown for that type.
FIELDS: dict[str, dict[str, bool]] = {
    "hustle": {"victim": True, "give": False},
    "choose": {"card": False},
    "aim": {"target": True},
    "swap": {"card": False},
    "privilege": {"order": True},
    "courage": {"down": True},
    "smart": {"discard": False},
    "reveal": {"card": True},
    "take": {"loot": True},
    "forbid": {"target": True, "kind": True},
    "junk": {"pile": False, "got": False},
    "deal": {"loot": True},
}


class Action(Frozen):
    """One action; a `loot` given as a list or tuple is kept sorted, as a tuple."""

    type: str
    player: str
    card: str | None
    target: str | None
    victim: str | None
    give: str | None
    order: str | None
    down: bool | None
    discard: str | None
    loot: str | tuple[str, ...] | None
    kind: str | None
    pile: int | None
    got: str | None
    __slots__ = tuple(__annotations__)

    def __init__(self, type: str, player: str, card: str | None = None,
                 target: str | None = None, victim: str | None = None, give: str | None = None,
                 order: str | None = None, down: bool | None = None, discard: str | None = None,
                 loot: str | tuple[str, ...] | list[str] | None = None, kind: str | None = None,
                 pile: int | None = None, got: str | None = None) -> None:
        if isinstance(loot, (tuple, list)):  # a double share is a multiset: one spelling
            loot = tuple(sorted(loot))
        self._fill(type, player, card, target, victim, give, order, down, discard, loot, kind,
                   pile, got)

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


def _flow(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value)


def action_from_dict(data: dict[str, Any]) -> Action:
    """Build an action from a mapping already checked for field names and types."""
    fields = {k: v for k, v in data.items() if k not in ("type", "player")}
    return Action(type=data["type"], player=data["player"], **fields)
