"""The service's tests: a root shaped like a fresh Raspberry Pi OS; a referee table driven
as tests/referee drives it (its local_table)."""

import sys
from pathlib import Path

import pytest

ACCOUNT_FILES = ("passwd", "group", "shadow", "gshadow")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "referee"))


@pytest.fixture
def pi_root(tmp_path: Path) -> Path:
    """This machine's account files, plus the gpio group Raspberry Pi OS has."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    for name in ACCOUNT_FILES:
        (root / "etc" / name).write_text(Path("/etc", name).read_text())
    used = {line.split(":")[2] for line in (root / "etc/group").read_text().splitlines()}
    gid = next(g for g in range(990, 100, -1) if str(g) not in used)
    with (root / "etc/group").open("a") as f:
        f.write(f"gpio:x:{gid}:pi\n")
    with (root / "etc/gshadow").open("a") as f:
        f.write("gpio:!::pi\n")
    return root


@pytest.fixture
def host_accounts():
    """This machine's own account files, read when called: the install must not touch them."""
    return lambda: [Path("/etc", name).read_text() for name in ACCOUNT_FILES]
