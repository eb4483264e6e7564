"""What the install and the doctor read and change on a system, under any root: users and
groups (from the root's own /etc/passwd and /etc/group, not this machine's), files with an
owner and a mode, and commands, each recorded, with a sentence when one fails."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path


class InstallError(RuntimeError):
    """A step of the install failed: the message is a sentence for the builder."""


@dataclass(frozen=True)
class Accounts:
    """The users and groups of a root, as its files hold them."""

    users: dict[str, tuple[int, int]]  # name -> (uid, primary gid)
    groups: dict[str, tuple[int, tuple[str, ...]]]  # name -> (gid, members)

    @classmethod
    def read(cls, root: Path) -> Accounts:
        users = {f[0]: (int(f[2]), int(f[3])) for f in _entries(root / "etc/passwd", 7)}
        groups = {f[0]: (int(f[2]), tuple(m for m in f[3].split(",") if m))
                  for f in _entries(root / "etc/group", 4)}
        return cls(users, groups)

    def groups_of(self, user: str) -> set[str]:
        """Every group the user is in: its primary group and the ones listing it."""
        primary = self.users[user][1] if user in self.users else None
        return {name for name, (gid, members) in self.groups.items()
                if user in members or gid == primary}

    def ids(self, user: str | None, group: str | None) -> tuple[int, int]:
        """(uid, gid) for an owner; None is root."""
        return (0 if user is None else self.users[user][0],
                0 if group is None else self.groups[group][0])


def _entries(path: Path, width: int) -> list[list[str]]:
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        return []
    return [fields for line in lines
            if line and not line.startswith("#") and len(fields := line.split(":")) == width]


def set_owner_and_mode(path: Path, mode: int, uid: int, gid: int) -> bool:
    """True if either had to change."""
    st = path.lstat()
    changed = False
    if (st.st_uid, st.st_gid) != (uid, gid):
        os.chown(path, uid, gid, follow_symlinks=False)
        changed = True
    if st.st_mode & 0o7777 != mode:
        os.chmod(path, mode)
        changed = True
    return changed


def write_file(path: Path, text: str, mode: int, uid: int = 0, gid: int = 0) -> bool:
    """Write `text` unless the file holds it already (then its time stays as it was); the
    owner and mode set either way. True if anything changed."""
    if path.is_file() and path.read_text() == text:
        return set_owner_and_mode(path, mode, uid, gid)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    set_owner_and_mode(tmp, mode, uid, gid)
    os.replace(tmp, path)
    return True


# the builder's Python path must not reach the program's environment: pip would take a
# checkout on it for the package already installed, and install nothing
CLEAN_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


@dataclass
class Commands:
    """Runs commands, keeping a record of each; a failure raises a sentence with its output."""

    ran: list[list[str]] = field(default_factory=list)

    def __call__(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        self.ran.append(list(args))
        try:
            done = subprocess.run(list(args), capture_output=True, text=True, check=False,
                                  stdin=subprocess.DEVNULL, env=CLEAN_ENV)
        except FileNotFoundError:
            raise InstallError(f"{args[0]} is not installed here: it is needed to run "
                               f"`{' '.join(args)}`") from None
        if check and done.returncode != 0:
            why = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise InstallError(f"`{' '.join(args)}` failed (exit {done.returncode}): "
                               + " / ".join(why))
        return done
