"""The slowest tests dealt first, one worker's share each, so no worker ends alone with one.

pytest-xdist's worksteal hands worker k the k-th of n contiguous slices of the collection
and a worker that runs dry takes the back half of the longest queue left: a 50 s test near
the end of a slice could run last while the other workers wait. The tests named in
slowest.txt (their seconds in a whole `./dev test`'s --durations table) are put at the
fronts of the slices, the longest first, each to the slice with the fewest known seconds;
the others keep their order. A name no longer collected is ignored; a new slow test only
runs where it would have.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

SLOWEST = Path(__file__).with_name("slowest.txt")


def known_seconds(text: str) -> dict[str, float]:
    """`seconds node-id` a line; `#` starts a comment."""
    seconds = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            figure, nodeid = line.split(None, 1)
            seconds[nodeid] = float(figure)
    return seconds


def slice_sizes(count: int, workers: int) -> list[int]:
    """How worksteal first splits `count` tests among `workers`: each what is left over
    the workers still to serve."""
    sizes = []
    for k in range(workers):
        sizes.append(count // (workers - k))
        count -= sizes[-1]
    return sizes


def deal(ids: list[str], items: list[T], seconds: dict[str, float], workers: int) -> list[T]:
    """`items` (named `ids`) reordered: the known-slow ones at the slices' fronts."""
    sizes = slice_sizes(len(items), workers)
    slices: list[list[T]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    slow = sorted((i for i, name in enumerate(ids) if name in seconds),
                  key=lambda i: (-seconds[ids[i]], i))
    for i in slow:
        k = min((k for k in range(workers) if len(slices[k]) < sizes[k]),
                key=lambda k: (load[k], k))
        slices[k].append(items[i])
        load[k] += seconds[ids[i]]
    chosen = set(slow)
    rest = iter([item for i, item in enumerate(items) if i not in chosen])
    for k in range(workers):
        slices[k] += islice(rest, sizes[k] - len(slices[k]))
    return [item for part in slices for item in part]
