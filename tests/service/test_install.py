"""The install run for real into a temporary root shaped like a fresh Raspberry Pi OS: the
user written into the root's own /etc files (`useradd --prefix`), the program in its own
environment, the folders and files with their owners and modes, the unit accepted by
`systemd-analyze verify` and enabled (`systemctl --root`); run twice, the second changes
nothing; uninstalled, the journal stays unless --purge."""

from __future__ import annotations

import argparse
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from wheel_build import build_wheel

from companion import config
from companion.service.install import Installer
from companion.service.layout import BROKER_DIR, BROKER_PORT, JOURNAL, UNIT, Layout
from companion.service.system import Commands
from companion.service.unit import unit_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def install(root: Path, wheel: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.service.install", "--root", str(root), "--source",
         str(wheel), "--extras", "", "--pip-option=--no-deps", "--pip-option=--no-index",
         *more], capture_output=True, text=True, timeout=300)


def entry(root: Path, file: str, name: str) -> list[str]:
    return next(line.split(":") for line in (root / "etc" / file).read_text().splitlines()
                if line.startswith(name + ":"))


def tree(root: Path) -> dict[str, tuple]:
    """Every path with its type, mode, owner, size, time and link target."""
    out = {}
    for path in [root, *root.rglob("*")]:
        st = path.lstat()
        out[str(path.relative_to(root))] = (
            stat.S_IFMT(st.st_mode), st.st_mode & 0o7777, st.st_uid, st.st_gid, st.st_size,
            st.st_mtime_ns, os.readlink(path) if path.is_symlink() else None)
    return out


def systemd_analyze_verify(root: Path, unit: Path) -> subprocess.CompletedProcess[str]:
    """verify checks that ExecStart exists: the installed /opt is shown at /opt in a private
    mount namespace, so this machine's own /opt is never touched."""
    script = (f"mount -t tmpfs none /opt && mkdir /opt/cashnguns && "
              f"mount --bind {root}/opt/cashnguns /opt/cashnguns && "
              f"systemd-analyze verify {unit}")
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                          text=True, timeout=60)


def run_from_final_path(root: Path, command: str) -> subprocess.CompletedProcess[str]:
    """`command` as the system that `root` becomes runs it: the installed /opt/cashnguns at
    /opt/cashnguns, and the folder it was built in hidden (a private mount namespace)."""
    script = (f"mount -t tmpfs none /opt && mkdir /opt/cashnguns && "
              f"mount --bind {root}/opt/cashnguns /opt/cashnguns && "
              f"mount -t tmpfs none {root}/opt && {command}")
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                          text=True, timeout=60)


def add_to_group(root: Path, group: str, user: str) -> None:
    for name in ("group", "gshadow"):
        path = root / "etc" / name
        path.write_text("".join(
            line + ("," if line.split(":")[-1] else "") + user + "\n"
            if line.startswith(f"{group}:") else line + "\n"
            for line in path.read_text().splitlines()))


def owner_and_mode(path: Path) -> tuple[int, int, int]:
    st = path.stat()
    return st.st_uid, st.st_gid, st.st_mode & 0o7777


def test_install_twice_then_uninstall_keeping_the_journal_then_purge(pi_root, wheel,
                                                                    host_accounts):
    before_install = host_accounts()
    first = install(pi_root, wheel, "--table", "cafe_1", "--example", "sim")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "user cashnguns: created" in first.stdout
    assert "The table is http://cashnguns-cafe-1.local:8080" in first.stdout

    user = entry(pi_root, "passwd", "cashnguns")
    uid, gid = int(user[2]), int(user[3])
    assert user[5:] == ["/var/lib/cashnguns", "/usr/sbin/nologin"] and 0 < uid < 1000
    assert int(entry(pi_root, "group", "cashnguns")[2]) == gid
    for group in ("gpio", "dialout"):
        assert "cashnguns" in entry(pi_root, "group", group)[3].split(","), group
    assert host_accounts() == before_install  # this machine's users: untouched

    companion = pi_root / "opt/cashnguns/bin/companion"
    assert os.access(companion, os.X_OK)
    assert companion.read_text().startswith("#!/opt/cashnguns/bin/python\n")  # its final place
    assert owner_and_mode(pi_root / "etc/cashnguns") == (0, gid, 0o750)
    installed = pi_root / "etc/cashnguns/table.yaml"
    assert owner_and_mode(installed) == (0, gid, 0o640)
    assert owner_and_mode(pi_root / "var/lib/cashnguns") == (uid, gid, 0o700)
    text = installed.read_text()
    assert text.startswith("# A simulated table")  # the example's comments kept
    c = config.parse(text, "table.yaml")
    assert (c.table, c["referee"].journal, c.mqtt.state_dir, c.mqtt.port) == \
        ("cafe_1", JOURNAL, BROKER_DIR, BROKER_PORT)
    assert c["dashboard"].mdns and c.sensors.sim.guns == (1, 2, 3, 4, 5, 6)
    unit = pi_root / "etc/systemd/system/cashnguns.service"
    assert unit.read_text() == unit_text(c) and owner_and_mode(unit) == (0, 0, 0o644)
    assert os.readlink(pi_root / "etc/systemd/system/multi-user.target.wants" / UNIT) == \
        "/etc/systemd/system/cashnguns.service"

    final = run_from_final_path(pi_root, "/opt/cashnguns/bin/companion --help")
    assert final.returncode == 0 and final.stdout.startswith("usage: companion"), final.stderr
    verify = systemd_analyze_verify(pi_root, unit)
    assert verify.returncode == 0 and verify.stderr == "", verify.stderr  # not even a warning

    before = tree(pi_root)
    second = install(pi_root, wheel, "--table", "cafe_1", "--example", "sim")
    assert second.returncode == 0, second.stdout + second.stderr
    assert second.stdout.rstrip().endswith("nothing to change"), second.stdout
    assert tree(pi_root) == before

    journal = pi_root / "var/lib/cashnguns/journal.sqlite3"
    journal.write_bytes(b"the games")
    removed = install(pi_root, wheel, "--uninstall")
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert not (pi_root / "opt/cashnguns").exists() and not unit.exists()
    assert not (pi_root / "etc/systemd/system/multi-user.target.wants" / UNIT).exists()
    assert journal.read_bytes() == b"the games" and installed.exists()
    assert entry(pi_root, "passwd", "cashnguns")
    assert "kept: the journal" in removed.stdout

    add_to_group(pi_root, "cashnguns", "pi")  # an admin added to the service's group
    purged = install(pi_root, wheel, "--uninstall", "--purge")
    assert purged.returncode == 0, purged.stdout + purged.stderr
    assert not (pi_root / "var/lib/cashnguns").exists()
    assert not (pi_root / "etc/cashnguns").exists()
    assert "cashnguns:" not in (pi_root / "etc/passwd").read_text()
    assert "cashnguns:" not in (pi_root / "etc/group").read_text()  # what the install made
    assert "cashnguns" not in entry(pi_root, "group", "dialout")[3]


@pytest.mark.parametrize(("yaml", "said"), [
    ("table: mine\nreferee:\n  journal: /home/pi/journal.sqlite3\n",
     "install stopped: /etc/cashnguns/table.yaml: referee.journal /home/pi/journal.sqlite3 "
     "is outside /var/lib/cashnguns, the only folder the service may write "
     "(ProtectSystem=strict)"),
    ("table: mine\ndashboard:\n  prot: 80\n",
     "install stopped: config error: /etc/cashnguns/table.yaml:3: dashboard.prot: unknown key"),
], ids=["journal_outside_the_state_folder", "unknown_key"])
def test_a_wrong_config_stops_the_install_with_a_sentence_and_stays_as_it_is(
        pi_root, wheel, yaml, said):
    mine = pi_root / "etc/cashnguns/table.yaml"
    mine.parent.mkdir(parents=True)
    mine.write_text(yaml)
    done = install(pi_root, wheel)
    assert done.returncode == 1
    assert said in done.stderr
    assert mine.read_text() == yaml  # the builder's file: never overwritten
    assert not (pi_root / "opt/cashnguns").exists()  # stopped before the long step


def test_a_group_left_by_an_earlier_install_is_taken_as_the_users(pi_root):
    subprocess.run(["groupadd", "--prefix", str(pi_root), "--system", "cashnguns"], check=True)
    args = argparse.Namespace(table="cafe", example="sim")
    Installer(Layout(pi_root), Commands(), args).user()
    user, group = entry(pi_root, "passwd", "cashnguns"), entry(pi_root, "group", "cashnguns")
    assert user[3] == group[2]


@pytest.mark.parametrize("shape", ["missing", "empty", "no_shadow"])
def test_an_empty_or_unusable_root_gets_a_sentence(tmp_path, wheel, pi_root, shape):
    root = {"missing": tmp_path / "nowhere", "empty": tmp_path / "empty", "no_shadow": pi_root}[
        shape]
    if shape == "empty":
        root.mkdir()
    if shape == "no_shadow":
        (root / "etc/shadow").unlink()
    done = install(root, wheel)
    assert done.returncode == 1
    said = {"missing": "is no folder: name the root of the system to install into",
            "empty": "is not a system's root: it has no etc/passwd, etc/group, etc/shadow",
            "no_shadow": "is not a system's root: it has no etc/shadow"}[shape]
    assert f"install stopped: {root} {said}" in done.stderr, done.stderr
