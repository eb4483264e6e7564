"""`./dev` on a machine where another apt holds dpkg's lock (a fresh Pi's unattended
upgrade, a second terminal): it waits for the lock instead of failing at once."""

from __future__ import annotations

import fcntl
import os
import subprocess
from pathlib import Path

import pytest

DEV = Path(__file__).resolve().parents[2] / "dev"
LOCK = Path("/var/lib/dpkg/lock-frontend")
INSTALLED = "mosquitto"  # a package ./dev test installs: apt has nothing to do but lock


def apt(*options: str) -> subprocess.Popen[str]:
    """`apt-get install` of an installed package, with the options given."""
    script = f'"$@" install -y --no-install-recommends {INSTALLED} </dev/null'
    return subprocess.Popen(["bash", "-c", script, "apt", *options],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def dev_apt_get() -> list[str]:
    """The apt-get command line the dev script uses, read by bash from the script."""
    line = next(li for li in DEV.read_text().splitlines() if li.startswith("APT_GET="))
    done = subprocess.run(["bash", "-c", f'{line}; printf "%s\\n" "${{APT_GET[@]}}"'],
                          capture_output=True, text=True, check=True)
    return done.stdout.split("\n")[:-1]


@pytest.fixture
def dpkg_locked():
    if os.geteuid() != 0:
        pytest.skip("dpkg's lock can be held by root only")
    with LOCK.open("w") as held:
        fcntl.lockf(held, fcntl.LOCK_EX)  # (waits for any apt running now)
        yield held


def test_the_dev_scripts_apt_waits_for_the_dpkg_lock(dpkg_locked):
    plain = apt("apt-get")  # apt's own default: fail at once
    assert plain.wait(60) == 100
    assert "Could not get lock" in plain.stdout.read()
    waiting = apt(*dev_apt_get())
    first = waiting.stdout.readline()  # printed while it waits, the lock still held
    assert "Waiting for cache lock" in first and waiting.poll() is None
    fcntl.lockf(dpkg_locked, fcntl.LOCK_UN)
    assert waiting.wait(120) == 0
    assert f"{INSTALLED} is already the newest version" in waiting.stdout.read()
