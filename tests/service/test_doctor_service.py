"""`companion doctor` on an installed service: a root laid out by the install's own steps
(its user written by `useradd --prefix`), then broken one way at a time; each problem is a
sentence that says what to do."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import config
from companion.service import checks
from companion.service.install import Installer
from companion.service.layout import UNIT_FILE, Layout
from companion.service.system import Accounts, Commands


@pytest.fixture
def installed(pi_root: Path) -> Layout:
    """Everything the install lays out but the program (its environment takes seconds)."""
    args = argparse.Namespace(table="cafe", example="sim")
    installer = Installer(Layout(pi_root), Commands(), args)
    installer.user()
    installer.groups()
    installer.folders()
    installer.config()
    installer.unit()
    return Layout(pi_root)


def report(layout: Layout, mdns: bool = False) -> tuple[list[str], list[str]]:
    text = layout.on_disk(Path("/etc/cashnguns/table.yaml")).read_text()
    if not mdns:
        text = text.replace("mdns: true", "mdns: false")
    return checks.service_report(layout, config.parse(text, "table.yaml"))


def ids(layout: Layout, user: str | None, group: str) -> tuple[int, int]:
    return Accounts.read(layout.root).ids(user, group)


def test_a_sound_install_has_no_problem(installed):
    journal = installed.on_disk(Path("/var/lib/cashnguns/journal.sqlite3"))
    journal.write_bytes(b"")
    os.chown(journal, *ids(installed, "cashnguns", "cashnguns"))
    journal.chmod(0o600)
    lines, problems = report(installed)
    assert problems == []
    assert "  user cashnguns, in the groups cashnguns, dialout, gpio" in lines
    assert "  systemd is not running here: the unit's state cannot be read" in lines
    assert "  mDNS: off (dashboard.mdns in the config)" in lines
    assert any(line.startswith("  free disk: ") for line in lines)


def test_each_wrong_thing_is_a_sentence(installed):
    root = installed.root
    journal = root / "var/lib/cashnguns/journal.sqlite3"
    journal.write_bytes(b"")
    journal.chmod(0o644)  # root's, readable by all: a copy made by hand
    (root / "etc/cashnguns/table.yaml").chmod(0o644)
    groups = (root / "etc/group").read_text().splitlines()
    (root / "etc/group").write_text("".join(  # cashnguns taken out of gpio
        (line.replace(",cashnguns", "") if line.startswith("gpio:") else line) + "\n"
        for line in groups))
    (root / "dev").mkdir()
    for name, owner in (("ttyACM0", "dialout"), ("gpiochip0", "gpio")):
        (root / "dev" / name).write_bytes(b"")
        os.chown(root / "dev" / name, 0, Accounts.read(root).groups[owner][0])
        (root / "dev" / name).chmod(0o660)
    installed.on_disk(UNIT_FILE).write_text("[Service]\nExecStart=/bin/true\n")
    _, problems = report(installed)
    assert problems == [
        "cashnguns is not in the group gpio, which opens the GPIO pins: sudo ./dev install "
        "(from the clone) sets it right",
        "cashnguns cannot open /dev/gpiochip0 (group gpio, mode 660): add it to that group "
        "(sudo usermod -aG gpio cashnguns), then sudo systemctl restart cashnguns.service",
        "/etc/cashnguns/table.yaml is owned by root:cashnguns, mode 644; it should be "
        "root:cashnguns, mode 640: sudo chown root:cashnguns /etc/cashnguns/table.yaml && "
        "sudo chmod 640 /etc/cashnguns/table.yaml",
        "/var/lib/cashnguns/journal.sqlite3 is owned by root:root, mode 644; it should be "
        "cashnguns:cashnguns, mode 600: sudo chown cashnguns:cashnguns "
        "/var/lib/cashnguns/journal.sqlite3 && sudo chmod 600 "
        "/var/lib/cashnguns/journal.sqlite3",
        "/etc/systemd/system/cashnguns.service is not the unit this companion writes (an "
        "upgrade by pip alone, or an edit): sudo ./dev install (from the clone) sets it right; "
        "local changes go in a drop-in (systemctl edit cashnguns)",
    ]


def test_a_missing_user_and_a_nearly_full_disk(installed, monkeypatch):
    passwd = installed.root / "etc/passwd"
    passwd.write_text("".join(line + "\n" for line in passwd.read_text().splitlines()
                              if not line.startswith("cashnguns:")))
    monkeypatch.setattr(checks, "MIN_FREE_MB", 10**12)  # more than any disk has
    _, problems = report(installed)
    assert problems[0] == ("there is no user cashnguns for the service to run as: sudo "
                           "./dev install (from the clone) sets it right")
    assert problems[-1].startswith("only ") and problems[-1].endswith(
        "MiB wanted): a full card pauses the game; free some space (sudo journalctl "
        "--vacuum-size=50M, sudo apt clean) or lower referee.keep_games")


def test_no_service_no_problem(pi_root):
    lines, problems = report_for_plain_config(Layout(pi_root))
    assert (lines, problems) == (["service: not installed (./dev install, docs/INSTALL.md)"],
                                 [])


def report_for_plain_config(layout: Layout) -> tuple[list[str], list[str]]:
    return checks.service_report(layout, config.parse("", "table.yaml"))


def test_companion_doctor_on_this_machine_says_no_service_is_installed(tmp_path):
    done = subprocess.run([sys.executable, "-m", "companion.cli", "doctor", "--listen", "0.3"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert "service: not installed (./dev install, docs/INSTALL.md)" in done.stdout, \
        done.stdout + done.stderr
