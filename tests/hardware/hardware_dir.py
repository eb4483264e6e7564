"""Where hardware/ is; conftest.py puts it on the path, since it is scripts, not a package."""

from pathlib import Path

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
