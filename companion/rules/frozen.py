"""Immutable records with `__slots__`, made without `dataclasses`.

Importing `dataclasses` (with `inspect`, `ast`, `dis` and `tokenize`) and making the engine's
records with it took about a third of `companion replay`'s start (docs/PERFORMANCE.md,
"Short commands"); the records need only what `Frozen` gives them.
"""

from __future__ import annotations

from itertools import repeat
from operator import attrgetter

TYPE_CHECKING = False  # (typing is not imported to run: a replay starts faster without it)
if TYPE_CHECKING:
    from typing import Any, ClassVar


class Frozen:
    """A record whose fields are its class's own `__slots__`, set once by its `__init__`
    (`_fill`): assigning or deleting one raises AttributeError, as on a frozen dataclass;
    records are equal when their classes and fields are, hash by their fields and show
    them in their repr. A subclass names its fields once, annotated, and then
    `__slots__ = tuple(__annotations__)`.
    """

    __slots__: tuple[str, ...] = ()
    _values: ClassVar[attrgetter[Any]]  # a record's fields, in order (one class each)

    def __init_subclass__(cls) -> None:
        cls._values = attrgetter(*cls.__slots__)

    def _fill(self, *values: object) -> None:
        """Set every field, in the order of `__slots__` (looped in C: the bots build many
        actions; `object.__setattr__` returns None, so `any` sets them all)."""
        any(map(object.__setattr__, repeat(self), self.__slots__, values))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of {type(self).__name__}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values(self) == self._values(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def __getstate__(self) -> tuple[object, ...]:  # (pickle and copy: a lab's processes)
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        self._fill(*state)
