"""`./dev install`: the companion installed as a system service, the same way every time.

    sudo .venv/bin/python -m companion.service.install [--table ID] [--example pi|sim]
    sudo .venv/bin/python -m companion.service.install --uninstall [--purge]

Its own user in the device groups, the program in its own environment under /opt, the
config in /etc (made from an example once, checked at every install), the journal under
/var/lib (its owner's only), the systemd unit, enabled and started. Each step says what it
did; a second run changes nothing and says so. With `--root DIR` all of it goes under DIR
(the tests, an SD card image being prepared): the user is written into DIR's own /etc
files by `useradd --prefix`, the unit enabled by `systemctl --root`, nothing is started.
Guide: docs/INSTALL.md.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from companion.config import TABLE_ID, parse
from companion.service import configfile
from companion.service.layout import (
    CONFIG,
    CONFIG_DIR,
    DEVICE_GROUPS,
    MODES,
    PREFIX,
    STATE_DIR,
    UNIT,
    UNIT_FILE,
    USER,
    Layout,
)
from companion.service.mdns import announced_url
from companion.service.system import (
    Accounts,
    Commands,
    InstallError,
    set_owner_and_mode,
    write_file,
)
from companion.service.unit import unit_text

SOURCE = Path(__file__).resolve().parents[2]  # the clone this runs from
STAMP = "installed-from"  # in PREFIX: what the program was last installed from
PACKAGE_FILES = ("pyproject.toml", "README.md", "companion", "web")  # what a build reads


def on_a_raspberry_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text()
    except OSError:
        return False


def source_digest(source: Path) -> str:
    """What the program is built from: a wheel's bytes, or a clone's package files."""
    digest = hashlib.sha256()
    if source.is_file():
        digest.update(source.read_bytes())
        return digest.hexdigest()
    files = [p for name in PACKAGE_FILES for p in [source / name, *(source / name).rglob("*")]
             if p.is_file() and "__pycache__" not in p.parts]
    for path in sorted(files):
        digest.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def unusable_root(root: Path) -> str | None:
    """Why `root` cannot be installed into (a sentence), or None: it must be a system's
    root, with the account files useradd edits, and writable."""
    if not root.is_dir():
        return f"{root} is no folder: name the root of the system to install into"
    missing = [n for n in ("passwd", "group", "shadow") if not (root / "etc" / n).is_file()]
    if missing:
        return (f"{root} is not a system's root: it has no etc/{', etc/'.join(missing)} (mount "
                "the SD card's root partition, or an image's, and name that folder)")
    if not os.access(root / "etc", os.W_OK):
        return f"{root}/etc is read-only: mount the root partition for writing"
    return None


def relocate(built: Path, final: Path) -> None:
    """An environment built at `built` (under --root) made to run from `final`, where
    it is once that root is the system: its scripts' `#!` lines and its activate files
    name `final`. (pip writes the path it was run from.)"""
    old, new = str(built).encode(), str(final).encode()
    for path in (*(built / "bin").iterdir(), built / "pyvenv.cfg"):
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        if old in data and b"\0" not in data[:1024]:  # text files: scripts and activate
            path.write_bytes(data.replace(old, new))


class Installer:
    def __init__(self, layout: Layout, run: Commands, args: argparse.Namespace) -> None:
        self.layout, self.run, self.args = layout, run, args
        self.root = layout.root
        self.prefix_option = [] if self.root == Path("/") else ["--prefix", str(self.root)]
        self.changed: list[str] = []  # what this run changed

    def say(self, what: str, outcome: str, changed: bool = False) -> None:
        print(f"  {what}: {outcome}", flush=True)
        if changed:
            self.changed.append(what)

    def path(self, path: Path) -> Path:
        return self.layout.on_disk(path)

    # -- install -------------------------------------------------------------------------

    def install(self) -> str:
        print(f"Installing the Cash 'n Guns companion into {self.root}")
        if problem := unusable_root(self.root):
            raise InstallError(problem)
        self.user()
        self.groups()
        self.folders()
        url = self.config()  # checked before the long step: a mistake is said at once
        self.program()
        unit_changed = self.unit()
        self.service(unit_changed)
        return url

    def user(self) -> None:
        accounts = Accounts.read(self.root)
        if USER in accounts.users:
            return self.say(f"user {USER}", "unchanged")
        group = ["--gid", USER] if USER in accounts.groups else ["--user-group"]  # kept by hand
        self.run("useradd", *self.prefix_option, "--system", *group, "--home-dir",
                 str(STATE_DIR), "--no-create-home", "--shell", "/usr/sbin/nologin",
                 "--comment", "Cash 'n Guns table companion", USER)
        self.say(f"user {USER}", "created (a system user without login)", changed=True)

    def groups(self) -> None:
        accounts = Accounts.read(self.root)
        present = [g for g in DEVICE_GROUPS if g in accounts.groups]
        missing = [g for g in present if g not in accounts.groups_of(USER)]
        if missing:
            self.run("usermod", *self.prefix_option, "--append", "--groups", ",".join(missing),
                     USER)
        if present:
            self.say(f"groups {', '.join(present)}",
                     f"{USER} added to {', '.join(missing)}" if missing else "unchanged",
                     changed=bool(missing))
        for group in sorted(set(DEVICE_GROUPS) - set(present)):
            self.say(f"group {group}", "not on this system, so only root opens what it "
                     "guards (Raspberry Pi OS has it)")

    def program(self) -> None:
        prefix = self.path(PREFIX)
        python = prefix / "bin" / "python"
        source = Path(self.args.source).resolve()
        extras = self.args.extras if self.args.extras is not None else (
            "pi" if on_a_raspberry_pi() else "")
        requirement = f"{source}[{extras}]" if extras else str(source)
        wanted = f"{source_digest(source)} {requirement}\n"
        stamp = prefix / STAMP
        if python.exists() and stamp.is_file() and stamp.read_text() == wanted:
            return self.say(f"program in {PREFIX}", "unchanged")
        if not python.exists():
            self.run(sys.executable, "-m", "venv", str(prefix))
        with tempfile.TemporaryDirectory(prefix="cashnguns-build-") as build:
            target = requirement
            if source.is_dir():  # built from a copy: root leaves nothing in the user's clone
                for name in PACKAGE_FILES:
                    if (source / name).is_dir():
                        shutil.copytree(source / name, Path(build) / name,
                                        ignore=shutil.ignore_patterns("__pycache__"))
                    else:
                        shutil.copy2(source / name, Path(build) / name)
                target = requirement.replace(str(source), build, 1)
            self.run(str(python), "-m", "pip", "install", "--quiet", "--upgrade",
                     "--disable-pip-version-check", *self.args.pip_option, target)
        if prefix != PREFIX:
            relocate(prefix, PREFIX)
        write_file(stamp, wanted, 0o644)
        self.say(f"program in {PREFIX}", f"installed from {requirement}", changed=True)

    def folders(self) -> None:
        accounts = Accounts.read(self.root)
        for folder in (CONFIG_DIR, STATE_DIR):
            mode, user, group = MODES[folder]
            path = self.path(folder)
            made = not path.is_dir()
            path.mkdir(parents=True, exist_ok=True)
            fixed = set_owner_and_mode(path, mode, *accounts.ids(user, group))
            self.say(f"folder {folder}", "created" if made else "mode and owner set" if fixed
                     else "unchanged", changed=made or fixed)

    def config(self) -> str:
        path = self.path(CONFIG)
        if path.exists():
            text, outcome = path.read_text(), "kept (yours: the install never overwrites it)"
            if self.args.table:
                outcome += f"; --table {self.args.table} not applied, edit `table:` there"
        else:
            example = configfile.EXAMPLES / f"table.{self._example()}.yaml"
            text = configfile.from_example(example.read_text(), self.args.table or
                                           parse(example.read_text(), str(example)).table)
            outcome = f"made from {example.name}"
        problems = configfile.problems(text, str(CONFIG))
        if problems:
            raise InstallError("; ".join(problems))
        mode, user, group = MODES[CONFIG]
        changed = write_file(path, text, mode, *Accounts.read(self.root).ids(user, group))
        self.say(f"config {CONFIG}", outcome if changed or outcome.startswith("kept")
                 else "unchanged", changed=changed)
        config = self.parsed = parse(text, str(CONFIG))
        return announced_url(config.table, config["dashboard"].port)

    def _example(self) -> str:
        return self.args.example or ("pi" if on_a_raspberry_pi() else "sim")

    def unit(self) -> bool:
        changed = write_file(self.path(UNIT_FILE), unit_text(self.parsed), 0o644)
        self.say(f"unit {UNIT_FILE}", "written" if changed else "unchanged", changed=changed)
        return changed

    def service(self, unit_changed: bool) -> None:
        if not self.layout.live:
            if self._systemctl("is-enabled", "--quiet", UNIT, check=False).returncode != 0:
                self._systemctl("enable", UNIT)
                self.say(f"service {UNIT}", "enabled", changed=True)
            print(f"  systemd is not running in {self.root}: {UNIT} starts at the next boot")
            return
        if unit_changed:
            self.run("systemctl", "daemon-reload")
        if self.run("systemctl", "is-enabled", "--quiet", UNIT, check=False).returncode != 0:
            self.run("systemctl", "enable", UNIT)
            self.say(f"service {UNIT}", "enabled", changed=True)
        active = self.run("systemctl", "is-active", "--quiet", UNIT, check=False).returncode == 0
        if active and not self.changed:
            return self.say(f"service {UNIT}", "running, unchanged")
        self._start("restart" if active else "start")

    def _start(self, verb: str) -> None:
        try:
            self.run("systemctl", verb, UNIT)
        except InstallError as exc:
            raise InstallError(f"{exc}; see why with: journalctl -u {UNIT} -n 50") from None
        self.say(f"service {UNIT}", f"{verb}ed and ready", changed=True)

    def _systemctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """systemctl on the files under the root, without a running systemd."""
        return self.run("systemctl", "--root", str(self.root), *args, check=check)

    # -- uninstall -----------------------------------------------------------------------

    def uninstall(self, purge: bool) -> None:
        print(f"Removing the Cash 'n Guns companion from {self.root}")
        if self.path(UNIT_FILE).exists():
            if self.layout.live:
                self.run("systemctl", "disable", "--now", UNIT)
            else:
                self._systemctl("disable", UNIT)
            self.path(UNIT_FILE).unlink()
            if self.layout.live:
                self.run("systemctl", "daemon-reload")
            self.say(f"service {UNIT}", "stopped, disabled and removed" if self.layout.live
                     else "disabled and removed", changed=True)
        self._remove(PREFIX)
        if not purge:
            print(f"  kept: the journal and the broker's files in {STATE_DIR}, the config "
                  f"{CONFIG} and the user {USER} (--purge removes them)")
            return
        self._remove(STATE_DIR)
        self._remove(CONFIG_DIR)
        if USER in Accounts.read(self.root).users:
            self.run("userdel", *self.prefix_option, USER)
            self.say(f"user {USER}", "removed", changed=True)
        if USER in Accounts.read(self.root).groups:  # userdel keeps it while others are in it
            self.run("groupdel", *self.prefix_option, USER)
            self.say(f"group {USER}", "removed", changed=True)

    def _remove(self, folder: Path) -> None:
        if self.path(folder).exists():
            shutil.rmtree(self.path(folder))
            self.say(f"folder {folder}", "removed", changed=True)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default="/", help="install under this folder (default /)")
    parser.add_argument("--table", help="the table's id in a new config (default: the "
                        "example's); its dashboard is http://cashnguns-<table>.local:8080")
    parser.add_argument("--example", choices=("pi", "sim"),
                        help="the example a new config is made from (default: pi on a "
                             "Raspberry Pi, else sim)")
    parser.add_argument("--source", default=str(SOURCE),
                        help="a clone of the repository or a wheel (default: this clone)")
    parser.add_argument("--extras", help="pip extras (default: pi on a Raspberry Pi)")
    parser.add_argument("--pip-option", action="append", default=[], metavar="OPTION",
                        help="passed on to pip install (repeat for several)")
    parser.add_argument("--uninstall", action="store_true",
                        help="stop and remove the service and the program; the journal, the "
                             "config and the user stay unless --purge")
    parser.add_argument("--purge", action="store_true", help="with --uninstall: remove the "
                        "journal, the broker's files, the config and the user too")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev install", description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    if args.purge and not args.uninstall:
        parser.error("--purge goes with --uninstall")
    if args.table is not None and not TABLE_ID.fullmatch(args.table):
        parser.error(f"--table {args.table!r}: a table id is 1 to 32 of a-z, 0-9, - and _, "
                     "starting with a letter or a digit")
    if os.geteuid() != 0:
        print("the install adds a user and writes /etc, /opt and /var/lib: run it as root "
              "(./dev install asks sudo for it)", file=sys.stderr)
        return 1
    os.umask(0o022)  # the program readable by the service's user, whatever root's umask
    installer = Installer(Layout(Path(args.root).resolve()), Commands(), args)
    try:
        if args.uninstall:
            installer.uninstall(args.purge)
        else:
            url = installer.install()
            print(f"The table is {url} (on a network without mDNS: the Pi's address)\n"
                  f"Check it: sudo {PREFIX}/bin/companion doctor --config {CONFIG}")
    except InstallError as exc:
        print(f"install stopped: {exc}", file=sys.stderr)
        return 1
    if not installer.changed:
        print("nothing to change")
    return 0


if __name__ == "__main__":
    sys.exit(main())
