"""`companion doctor`'s look at the installed service: the unit's state, its user's groups
and devices, the modes of its files, its name on the network, the free disk. Each problem is
one sentence: what is wrong, and what to do about it."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

from companion.config import Config
from companion.service.layout import (
    BROKER_DIR,
    CONFIG,
    DEVICE_GROUPS,
    MODES,
    STATE_DIR,
    UNIT,
    UNIT_FILE,
    USER,
    Layout,
)
from companion.service.mdns import host_name
from companion.service.system import Accounts
from companion.service.unit import unit_text

DEVICES = ("ttyACM*", "ttyUSB*", "ttyAMA*", "gpiochip*", "gpiomem*", "i2c-*")  # serial, GPIO, I2C
OPENS = {"dialout": "the serial ports", "gpio": "the GPIO pins", "i2c": "the I2C buses"}
MIN_FREE_MB = 200  # below this, logs and the broker's file may fill the card mid-game
FIX = "sudo ./dev install (from the clone) sets it right"


def addresses_of(name: str, interfaces: list[str] | None = None,
                 timeout_ms: int = 3000) -> list[str]:
    """The IPv4 addresses that answer for `name` over mDNS (None: on every interface)."""
    from zeroconf import AddressResolver, InterfaceChoice, IPVersion, Zeroconf

    zeroconf = Zeroconf(interfaces=interfaces or InterfaceChoice.All,
                        ip_version=IPVersion.V4Only)
    try:
        resolver = AddressResolver(f"{name}.local.")
        return resolver.parsed_addresses() if resolver.request(zeroconf, timeout_ms) else []
    finally:
        zeroconf.close()


def service_report(layout: Layout, config: Config,
                   resolve: Callable[[str], list[str]] = addresses_of
                   ) -> tuple[list[str], list[str]]:
    """Lines about the installed service, and its problems (none when it is not installed)."""
    if not layout.on_disk(UNIT_FILE).exists():
        return ["service: not installed (./dev install, docs/INSTALL.md)"], []
    lines, problems = ["service:"], []
    accounts = Accounts.read(layout.root)
    for check in (_unit_state(layout, accounts), _groups(layout, accounts),
                  _modes(layout, accounts, config), _name(config, resolve),
                  _free_disk(layout, config)):
        more_lines, more_problems = check
        lines += [f"  {line}" for line in more_lines]
        problems += more_problems
    if layout.on_disk(UNIT_FILE).read_text() != unit_text(config):
        problems.append(f"{UNIT_FILE} is not the unit this companion writes (an upgrade by "
                        f"pip alone, or an edit): {FIX}; local changes go in a drop-in "
                        f"(systemctl edit {USER})")
    return lines, problems


def _unit_state(layout: Layout, accounts: Accounts) -> tuple[list[str], list[str]]:
    if not layout.live or shutil.which("systemctl") is None:
        return ["systemd is not running here: the unit's state cannot be read"], []
    keys = ("ActiveState", "SubState", "UnitFileState", "NRestarts", "Result", "MainPID")
    out = subprocess.run(["systemctl", "show", UNIT, *(f"--property={k}" for k in keys)],
                         capture_output=True, text=True, check=False).stdout
    state = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    lines = [f"{UNIT}: {state.get('ActiveState')} ({state.get('SubState')}), "
             f"{state.get('UnitFileState')}, restarted {state.get('NRestarts', '?')} times"]
    problems = []
    if state.get("UnitFileState") != "enabled":
        problems.append(f"{UNIT} is {state.get('UnitFileState') or 'not enabled'}: it will not "
                        f"start at boot (sudo systemctl enable {UNIT})")
    if state.get("ActiveState") != "active":
        problems.append(f"{UNIT} is {state.get('ActiveState')} (last result: "
                        f"{state.get('Result')}): see why with journalctl -u {UNIT} -n 50")
    pid = state.get("MainPID", "0")
    if pid.isdigit() and pid != "0":
        problems += _running_groups(int(pid), accounts)
    return lines, problems


def _running_groups(pid: int, accounts: Accounts) -> list[str]:
    """Groups added to the user after the service started reach it only with a restart."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return []
    held = {int(g) for line in status.splitlines() if line.startswith("Groups:")
            for g in line.split()[1:]}
    lacking = [g for g in accounts.groups_of(USER) if accounts.groups[g][0] not in held]
    return [f"the running service lacks the group {g}, given to {USER} after it started: "
            f"sudo systemctl restart {UNIT}" for g in sorted(lacking)]


def _groups(layout: Layout, accounts: Accounts) -> tuple[list[str], list[str]]:
    if USER not in accounts.users:
        return [], [f"there is no user {USER} for the service to run as: {FIX}"]
    mine = accounts.groups_of(USER)
    lines = [f"user {USER}, in the groups {', '.join(sorted(mine))}"]
    problems = [f"{USER} is not in the group {g}, which opens "
                f"{OPENS[g]}: {FIX}"
                for g in DEVICE_GROUPS if g in accounts.groups and g not in mine]
    uid = accounts.users[USER][0]
    gids = {accounts.groups[g][0] for g in mine}
    for device in sorted(p for pattern in DEVICES for p in layout.on_disk(Path("/dev"))
                         .glob(pattern)):
        st = device.stat()
        if not _can_read_write(st, uid, gids):
            group = next((g for g, (gid, _) in accounts.groups.items() if gid == st.st_gid),
                         str(st.st_gid))
            problems.append(f"{USER} cannot open /dev/{device.name} (group {group}, mode "
                            f"{stat.S_IMODE(st.st_mode):o}): add it to that group (sudo "
                            f"usermod -aG {group} {USER}), then sudo systemctl restart {UNIT}")
    return lines, problems


def _can_read_write(st: os.stat_result, uid: int, gids: set[int]) -> bool:
    mode = stat.S_IMODE(st.st_mode)
    bits = mode >> 6 if st.st_uid == uid else mode >> 3 if st.st_gid in gids else mode
    return bits & 0o6 == 0o6


def _modes(layout: Layout, accounts: Accounts, config: Config) -> tuple[list[str], list[str]]:
    """Each file the service keeps: owned as the install makes it, readable by nobody else."""
    journal = STATE_DIR / config["referee"].journal  # (an absolute path stays itself)
    wanted = dict(MODES)
    wanted |= {journal: (0o600, USER, USER), BROKER_DIR: (0o700, USER, USER),
               BROKER_DIR / "credentials.json": (0o600, USER, USER)}
    problems = []
    for path, (mode, user, group) in wanted.items():
        on_disk = layout.on_disk(path)
        if not on_disk.exists():
            continue
        if user is not None and user not in accounts.users:
            continue  # said by the user check
        st = on_disk.stat()
        uid, gid = accounts.ids(user, group)
        if (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) != (uid, gid, mode):
            problems.append(f"{path} is owned by {_owner(accounts, st)}, mode "
                            f"{stat.S_IMODE(st.st_mode):o}; it should be {user or 'root'}:"
                            f"{group or 'root'}, mode {mode:o}: {_fix(path, mode, user, group)}")
    lines = [f"files: {CONFIG}, {STATE_DIR} and what is in it, "
             f"{'as they should be' if not problems else 'see below'}"]
    return lines, problems


def _owner(accounts: Accounts, st: os.stat_result) -> str:
    user = next((u for u, (uid, _) in accounts.users.items() if uid == st.st_uid), st.st_uid)
    group = next((g for g, (gid, _) in accounts.groups.items() if gid == st.st_gid), st.st_gid)
    return f"{user}:{group}"


def _fix(path: Path, mode: int, user: str | None, group: str | None) -> str:
    return (f"sudo chown {user or 'root'}:{group or 'root'} {path} && "
            f"sudo chmod {mode:o} {path}")


def _name(config: Config, resolve: Callable[[str], list[str]]
          ) -> tuple[list[str], list[str]]:
    if not config["dashboard"].mdns:
        return ["mDNS: off (dashboard.mdns in the config)"], []
    name = host_name(config.table)
    addresses = resolve(name)
    if addresses:
        return [f"mDNS: {name}.local answers from {', '.join(addresses)}"], []
    return [], [f"nobody answers for {name}.local on this network: the service is not "
                "running, or its announcement failed (journalctl -u cashnguns -g mDNS), or "
                "this network blocks multicast (then set dashboard.public_url)"]


def _free_disk(layout: Layout, config: Config) -> tuple[list[str], list[str]]:
    folder = layout.on_disk(STATE_DIR / Path(config["referee"].journal).parent)
    while not folder.exists():
        folder = folder.parent
    st = os.statvfs(folder)
    free_mb = st.f_bavail * st.f_frsize / 2**20
    line = f"free disk: {free_mb / 1024:.1f} GiB where the journal is"
    if free_mb >= MIN_FREE_MB:
        return [line], []
    return [line], [f"only {free_mb:.0f} MiB free where the journal is (at least "
                    f"{MIN_FREE_MB} MiB wanted): a full card pauses the game; free some space "
                    "(sudo journalctl --vacuum-size=50M, sudo apt clean) or lower "
                    "referee.keep_games"]
