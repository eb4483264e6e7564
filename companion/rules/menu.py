"""Legal actions as sequences that are counted at once and built by index.

`random.choice` on a sequence asks its length, draws an index and takes that one item:
a bot drawing from a `Menu` or an `Offer` builds one action instead of listing every aim
of a hold-up, and draws exactly what it would have drawn from the list (same length, same
order).
Actions are immutable values: the same few are built once (`act`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, overload

from companion.rules.actions import Action, Value, action_from_dict

if TYPE_CHECKING:
    from companion.rules.state import GameState


@lru_cache(maxsize=2048)  # a few hundred bytes each, whatever the names at the table
def act(type_: str, player: str, key: str, value: Value, key2: str = "", value2: Value = None,
        ) -> Action:
    """The action with these fields, built once."""
    fields = {key: value, key2: value2} if key2 else {key: value}
    return action_from_dict({"type": type_, "player": player, **fields})


class Row(dict[Value, Action]):
    """One player's actions of one type, by the value of one field, each built once."""

    __slots__ = ("_key", "_player", "_type")

    def __init__(self, type_: str, player: str, key: str) -> None:
        super().__init__()
        self._type, self._player, self._key = type_, player, key

    def __missing__(self, value: Value) -> Action:
        action = self[value] = act(self._type, self._player, self._key, value)
        return action


class Rows(dict[str, Row]):
    """Each player's `Row` of actions of one type, by name: `ROWS[name][value]` is two
    dictionary reads, where the steps most actions are played in build theirs."""

    __slots__ = ("_key", "_type")

    def __init__(self, type_: str, key: str) -> None:
        super().__init__()
        self._type, self._key = type_, key

    def __missing__(self, player: str) -> Row:
        row = self[player] = Row(self._type, player, self._key)
        return row


class Built(Sequence[Action]):
    """Actions known by their number, each built when asked for (`built`)."""

    __slots__ = ()

    def built(self, i: int) -> Action:  # (0 <= i < len(self))
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        n = len(self)
        if isinstance(i, slice):
            return [self.built(j) for j in range(*i.indices(n))]
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("legal action index out of range")
        return self.built(i)


class Menu(Built):
    """`count` actions of `s`; the i-th is `at(s, i)`, all of them in order `listed(s)`."""

    __slots__ = ("_at", "_count", "_listed", "_s")

    def __init__(self, s: GameState, count: int, at: Callable[[GameState, int], Action],
                 listed: Callable[[GameState], list[Action]]) -> None:
        self._s, self._count, self._at, self._listed = s, count, at, listed

    def __len__(self) -> int:
        return self._count

    def built(self, i: int) -> Action:
        return self._at(self._s, i)

    def __iter__(self) -> Iterator[Action]:  # (a bot listing them all: one call, not one each)
        return iter(self._listed(self._s))


class Offer(Built):
    """One player's actions of one type, one for each value of one field."""

    __slots__ = ("_key", "_player", "_type", "_values")

    def __init__(self, type_: str, player: str, key: str, values: Sequence[Value]) -> None:
        self._type, self._player, self._key, self._values = type_, player, key, values

    def __len__(self) -> int:
        return len(self._values)

    def built(self, i: int) -> Action:
        return act(self._type, self._player, self._key, self._values[i])

    def __iter__(self) -> Iterator[Action]:
        type_, player, key = self._type, self._player, self._key
        return iter([act(type_, player, key, value) for value in self._values])


class Paired(Offer):
    """One player's actions of one type, one for each pair of values of two fields."""

    __slots__ = ("_key2", "_pairs")

    def __init__(self, type_: str, player: str, key: str, key2: str,
                 pairs: Sequence[tuple[Value, Value]]) -> None:
        super().__init__(type_, player, key, [value for value, _ in pairs])
        self._key2, self._pairs = key2, pairs

    def built(self, i: int) -> Action:
        value, value2 = self._pairs[i]
        return act(self._type, self._player, self._key, value, self._key2, value2)

    def __iter__(self) -> Iterator[Action]:
        return iter([self.built(i) for i in range(len(self._pairs))])


class Joined(Built):
    """Sequences of actions one after the other (the windows passed in a row)."""

    __slots__ = ("_parts",)

    def __init__(self, parts: Sequence[Sequence[Action]]) -> None:
        self._parts = parts

    def __len__(self) -> int:
        return sum(map(len, self._parts))

    def built(self, i: int) -> Action:
        for part in self._parts:
            if i < len(part):
                return part[i]
            i -= len(part)
        raise IndexError(i)
