"""The lab's peak resident memory by the number of games of a run (docs/PERFORMANCE.md).

Each run is `companion simulate` with random bots at a table of 4 on one process, writing
its store to a temporary folder, in a fresh interpreter that prints its VmHWM at the end:

    .venv/bin/python bench/lab_memory.py 1000 8000
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

PEAK = """
import sys
from companion.cli import main
code = main(sys.argv[1:])
status = open("/proc/self/status").read()
print("VmHWM", next(int(l.split()[1]) for l in status.splitlines() if l.startswith("VmHWM")))
sys.exit(code)
"""


def peak_kib(games: int) -> int:
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run([sys.executable, "-c", PEAK, "simulate", "--games", str(games),
                              "--players", "4", "--jobs", "1", "--seed", "3",
                              "--out", str(Path(folder) / "lab.sqlite3")],
                             capture_output=True, text=True, check=True)
    return int(run.stdout.split("VmHWM")[-1])


def main() -> None:
    counts = [int(a) for a in sys.argv[1:]] or [1000, 8000]
    print("| games | peak resident memory (VmHWM) |\n|---:|---:|")
    for games in counts:
        print(f"| {games:,} | {peak_kib(games) / 1024:.1f} MiB |", flush=True)


if __name__ == "__main__":
    main()
