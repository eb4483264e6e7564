"""Free TCP ports on 127.0.0.1 that parallel test workers never share.

A port found free is closed again before its server binds it, so two workers asking the
kernel for "any port" at once could be handed the same one, and an outgoing connection may
take it in between. Each worker therefore hands out ports from its own block, below the
kernel's ephemeral range (where outgoing connections never land), starting at a random
place so that several suites run side by side on one machine rarely meet either.
"""

from __future__ import annotations

import itertools
import os
import random
import socket
from pathlib import Path

LOWEST = 10_000


def _below_ephemeral() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def worker_block() -> range:
    """This worker's ports (`PYTEST_XDIST_WORKER` gwN of `PYTEST_XDIST_WORKER_COUNT`)."""
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    size = (_below_ephemeral() - LOWEST) // count
    return range(LOWEST + worker * size, LOWEST + (worker + 1) * size)


_BLOCK = worker_block()
_turn = itertools.count(random.randrange(len(_BLOCK)))


def free_port() -> int:
    """A port of this worker's block that nothing listens on now."""
    for _ in range(len(_BLOCK)):
        port = _BLOCK[next(_turn) % len(_BLOCK)]
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {_BLOCK}")
