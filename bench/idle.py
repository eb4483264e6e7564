"""What an idle table costs: `companion run` on the simulated table, nobody playing.

    .venv/bin/python bench/idle.py [--seconds 30] [--ref GIT_REF]

Starts `companion run` (simulated sensors, its broker, the referee, the dashboard) with
a fresh journal, waits until the dashboard answers, lets it settle, then reads the CPU
time its process (and any child, such as a broker) used over `--seconds`, as a share of
one core. `--ref` runs the same measurement on an older commit, side by side, from a
temporary git worktree with this checkout's virtual environment.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system time of a process and its children still running."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def measure(tree: Path, seconds: float, settle: float) -> float:
    """Percent of one core used by an idle `companion run` from the source in `tree`."""
    port, mqtt = free_port(), free_port()
    with tempfile.TemporaryDirectory() as tmp:
        config = (tree / "config" / "table.sim.yaml").read_text()
        if "port: 1883" in config:  # a tree whose example wrote the default port out
            config = config.replace("port: 1883", f"port: {mqtt}")
        else:
            config += f"mqtt: {{embedded_port: {mqtt}}}\n"
        (Path(tmp) / "table.yaml").write_text(config)
        env = {**os.environ, "PYTHONPATH": str(tree)}
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--config", f"{tmp}/table.yaml",
             "--journal", f"{tmp}/journal.sqlite3", "--port", str(port)],
            cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=1)
                    break
                except OSError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit(f"companion run from {tree} did not start") from None
                    time.sleep(0.2)
            time.sleep(settle)
            start_cpu, start = cpu_seconds(proc.pid), time.monotonic()
            time.sleep(seconds)
            return 100 * (cpu_seconds(proc.pid) - start_cpu) / (time.monotonic() - start)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("--ref", help="also measure this older commit, for a side-by-side")
    args = parser.parse_args()
    print(f"idle companion run, this tree: {measure(ROOT, args.seconds, args.settle):.2f} % "
          "of a core")
    if args.ref:
        with tempfile.TemporaryDirectory() as tmp:
            old = Path(tmp) / "old"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                            args.ref], check=True, capture_output=True)
            try:
                print(f"idle companion run, {args.ref}: "
                      f"{measure(old, args.seconds, args.settle):.2f} % of a core")
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(old)], check=True, capture_output=True)


if __name__ == "__main__":
    main()
