"""The project's wheel as a user installs it, built from a copy of the sources.

pip builds in the tree it is given: two test workers building the checkout at once would
share its build/ folder, and a build/ left in the checkout changes what ruff takes for a
first-party module. A copy in the test's own folder has neither problem.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build_wheel(out: Path) -> Path:
    """Build the wheel into `out` (a fresh folder): its path."""
    source = out / "source"
    source.mkdir()
    for part in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / part, source / part)
    for part in ("companion", "web"):
        shutil.copytree(ROOT / part, source / part, ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w",
                           str(out), str(source)], check=True, capture_output=True, text=True,
                          cwd=out)
    (out / "build.log").write_text(done.stdout + done.stderr)  # what setuptools said
    return next(out.glob("*.whl"))
