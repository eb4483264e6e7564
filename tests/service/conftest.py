"""The service's tests drive a referee table as tests/referee does (its local_table)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "referee"))
