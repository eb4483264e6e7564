"""Ratings with openskill's Plackett-Luce model: every player of a game is a team of one.

A game's placing follows the rules' own end: the winners first (a shared win is a tie),
then the other players still standing by their score (equal scores tie), then the players
who were shot out, all tied (their loot no longer counts). The standings rank players by
openskill's ordinal (mu - 3 sigma): a rating the league is sure of, not a lucky evening.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START = (MODEL.mu, MODEL.sigma)


class Placed(Protocol):
    @property
    def winner(self) -> bool: ...
    @property
    def alive(self) -> bool: ...
    @property
    def score(self) -> int: ...


def ranks(placings: Sequence[Placed]) -> list[int]:
    """1 for the best; players who tie share a rank (competition ranking: 1, 1, 3)."""
    keys = [(p.winner, p.alive, p.score if p.alive else 0) for p in placings]
    return [1 + sum(other > key for other in keys) for key in keys]


def rate(before: Sequence[tuple[float, float]],
         placing_ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Each player's (mu, sigma) after a game, from before it and the game's ranks."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=list(placing_ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma
