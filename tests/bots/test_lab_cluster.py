"""The lab on a Dask cluster started with the real CLIs on loopback: a scheduler and two
workers, each its own process; the store's rows equal a local run's, byte for byte."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from ports import free_port

distributed = pytest.importorskip("distributed")

DASK = str(Path(sys.executable).with_name("dask"))
ROOT = Path(__file__).resolve().parents[2]
PLAN = ("--games", "120", "--players", "5", "--powers", "--seed", "9",
        "--bots", "random,cautious,aggressive,greedy,vengeful")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[str]:
    """`dask scheduler` and two `dask worker` processes on free loopback ports (their logs
    beside the test's files)."""
    address = f"tcp://127.0.0.1:{free_port()}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # (the workers play this tree's games)
    commands = {"scheduler": [DASK, "scheduler", "--host", "127.0.0.1", "--port",
                              address.rsplit(":", 1)[1], "--no-dashboard"]}
    for n in range(2):
        commands[f"worker{n}"] = [DASK, "worker", address, "--host", "127.0.0.1", "--nthreads",
                                  "1", "--no-nanny", "--no-dashboard", "--name", f"w{n}"]
    with contextlib.ExitStack() as stack:
        for name, command in commands.items():
            log = stack.enter_context(open(tmp_path / f"{name}.log", "w"))
            proc = stack.enter_context(subprocess.Popen(
                command, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=log))
            stack.callback(proc.terminate)
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", "simulate", *args],
                          capture_output=True, text=True, timeout=280, check=False)


def dump(path: Path) -> str:
    """The store's rows as SQL text (`.dump`), the plan's command aside."""
    with sqlite3.connect(path) as db:
        return "\n".join(line for line in db.iterdump() if "'command'" not in line)


def test_a_cluster_plays_the_very_games_of_a_local_run(cluster, tmp_path):
    local, remote = tmp_path / "local.sqlite3", tmp_path / "cluster.sqlite3"
    run = simulate(*PLAN, "--jobs", "1", "--out", str(local))
    assert run.returncode == 0, run.stderr
    run = simulate(*PLAN, "--cluster", cluster, "--out", str(remote))
    assert run.returncode == 0, run.stderr
    assert dump(remote) == dump(local)
    assert "INSERT INTO \"seats\" VALUES(119,5," in dump(local)
    with distributed.Client(cluster, timeout="30s") as client:  # both workers played
        played = client.run(lambda dask_worker: dask_worker.state.executed_count)
    assert len(played) == 2 and all(n > 0 for n in played.values()), played


def test_no_scheduler_at_the_address_is_said_in_a_sentence(tmp_path):
    address = f"tcp://127.0.0.1:{free_port()}"
    run = simulate("--games", "4", "--cluster", address)
    assert run.returncode == 1
    assert f"companion simulate: --cluster: no Dask scheduler answers at {address}" in run.stderr
