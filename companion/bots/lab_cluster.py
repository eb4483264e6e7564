"""The lab's games on a Dask cluster (`companion simulate --cluster tcp://host:8786`).

Dask rather than Ray: its scheduler and worker are pure Python (`dask scheduler`,
`dask worker`), a small wheel that runs on a Pi, 32-bit ARM included; Ray's wheels are
hundreds of megabytes and not built for it. A chunk is the same task as on local processes
and a game draws everything from the run's seed and its index, so a cluster plays the very
games a laptop does. Only a bounded number of chunks is in flight, so the run's memory and
the scheduler's stay flat however many games it holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from companion.bots.lab import Chunk, GameRecord, LabError, _chunk

IN_FLIGHT_PER_THREAD = 4  # chunks queued for each worker thread


def on_cluster(address: str, chunks: Iterator[Chunk]) -> Iterator[tuple[int, list[GameRecord]]]:
    """Each chunk's records as they finish on the cluster's workers."""
    try:
        from distributed import Client, as_completed
    except ImportError as e:
        raise LabError("--cluster needs Dask: pip install 'companion[cluster]'") from e
    try:
        client = Client(address, timeout="10s")
    except OSError as e:
        raise LabError(f"--cluster: no Dask scheduler answers at {address} ({e})") from e
    with client:
        threads = max(1, sum(client.nthreads().values()))
        first = [client.submit(_chunk, c, pure=False) for c in
                 islice(chunks, threads * IN_FLIGHT_PER_THREAD)]
        running = as_completed(first)
        for done in running:
            yield done.result()
            done.release()
            nxt = next(chunks, None)
            if nxt is not None:
                running.add(client.submit(_chunk, nxt, pure=False))
