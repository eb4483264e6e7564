"""A tiny seeded generator whose whole state is one integer.

An int is copied for free with the game state, so a state can be copied,
replayed and compared without touching a `random.Random` object. SplitMix64
is small, fast and statistically sound for a game's handful of draws.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def seed_state(seed: int) -> int:
    return seed & _MASK


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new state, a uniform integer in [0, n)) by rejection, without bias.

    Each try is one SplitMix64 step: the state moves on by the golden gamma and the
    output is the state mixed (written out here: a game begins with 63 draws)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = _SPAN - _SPAN % n
    while True:
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        x = z ^ (z >> 31)
        if x < limit:
            return state, x % n


_LIMITS = tuple(_SPAN - _SPAN % n if n else 0 for n in range(65))  # `below`'s, for a deck


def shuffle(state: int, items: list[T]) -> int:
    """Fisher-Yates shuffle of `items` in place; returns the new state.

    Its draws are `below(state, i + 1)`, written out (a game begins with 63 of them)."""
    golden, mask, mix1, mix2 = _GOLDEN, _MASK, _MIX1, _MIX2
    limits = _LIMITS if len(items) < len(_LIMITS) else [
        _SPAN - _SPAN % n if n else 0 for n in range(len(items) + 1)]
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = limits[n]
        while True:
            state = (state + golden) & mask
            z = ((state ^ (state >> 30)) * mix1) & mask
            z = ((z ^ (z >> 27)) * mix2) & mask
            x = z ^ (z >> 31)
            if x < limit:
                break
        j = x % n
        items[i], items[j] = items[j], items[i]
    return state
