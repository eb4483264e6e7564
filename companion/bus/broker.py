"""The table's own broker: Mosquitto, run by the companion as a child process.

With no `mqtt.url` the companion writes, in a state folder (`mqtt.state_dir`, by default
`var/broker/`, mode 0700), a `mosquitto.conf`, a password file and an ACL file, and runs
`mosquitto -c mosquitto.conf` on 127.0.0.1. The four users and their passwords are generated
on the first start and kept in `credentials.json` (0600): every companion client reads its
own from there. A supervisor thread restarts the child if it dies; paho's clients reconnect
on their own. Persistence is on, so retained facts survive a broker restart.

`python -m companion.bus.broker write [--table T] [--port P] [--sim] DIR` writes the same
files for a Mosquitto run by the system (a Pi install): see docs/MQTT.md.

Why not an in-process broker: amqtt (the former embedded broker) sends a new client the
retained messages of topics *other* clients subscribed to and skips its ACLs when it does,
and it cannot express read ACLs; see docs/SECURITY.md.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import ctypes
import getpass
import hashlib
import json
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

from companion.bus.topics import (
    DISCOVERY_PREFIX,
    GAME_TREES,
    LEAGUE_TREE,
    ROSTER,
    SENSOR_TREES,
    Topics,
    birth,
)

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
USERS = ("sensors", "referee", "sim", "viewer")
CREDENTIALS = "credentials.json"
DEFAULT_STATE_DIR = Path("var/broker")
# Mosquitto rewrites its persistence file every interval, changed or not: every 5 s that is
# 8 MiB an hour on an idle Pi's card. The companion's clients publish their retained facts
# again on reconnecting, so the file is a fallback: every 5 minutes, and on a clean stop.
AUTOSAVE_S = 300


class BrokerError(RuntimeError):
    """The table's broker cannot run; the message is a sentence for the user."""


def mosquitto_binary() -> str | None:
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.path.exists(p)),
        None)


# -- credentials -----------------------------------------------------------------------------


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` atomically, readable by its owner only (0600)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def private_dir(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(folder, 0o700)
    return folder


def load_credentials(path: Path) -> dict[str, str]:
    """`{user: password}` from a credentials file; a sentence if it cannot be read."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise BrokerError(f"no broker credentials at {path}: start the companion's broker "
                          "first (`companion run` or `companion sensors`)") from None
    except (OSError, ValueError) as exc:
        raise BrokerError(f"cannot read the broker credentials {path}: {exc}") from None
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise BrokerError(f"{path}: must be a JSON object of user: password")
    return data


def ensure_credentials(folder: Path, users: tuple[str, ...] = USERS) -> dict[str, str]:
    """The broker's users and passwords (the table's, or a venue's): generated once
    (0600), then kept; a user added later gets a password then."""
    private_dir(folder)
    path = folder / CREDENTIALS
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        creds = load_credentials(path)
        missing = [u for u in users if u not in creds]
        if missing:
            creds.update({u: secrets.token_urlsafe(24) for u in missing})
            write_private(path, json.dumps(creds, indent=1) + "\n")
        os.chmod(path, 0o600)
        return creds
    creds = {u: secrets.token_urlsafe(24) for u in users}
    with os.fdopen(fd, "w") as f:
        f.write(json.dumps(creds, indent=1) + "\n")
    return creds


def password_hash(password: str, salt: bytes | None = None) -> str:
    """Mosquitto 2's `$7$` format (PBKDF2-SHA512, 101 rounds), as `mosquitto_passwd` writes."""
    salt = salt or os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, 101)
    return f"$7$101${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def acl_text(table: str, simulated: bool, discovery_prefix: str = DISCOVERY_PREFIX) -> str:
    """Who may read and write what: the sensor bridge alone writes sensor topics, the
    referee alone game topics, `sim` only the simulator's commands (simulated tables only),
    `viewer` reads the public topics (and writes Home Assistant's birth, for a Home
    Assistant logged in as viewer). Anything not listed is refused (Mosquitto's default)."""
    t = Topics(table)
    sensor = [t.leaf(leaf) for leaf in SENSOR_TREES]
    game = [t.leaf(leaf) for leaf in GAME_TREES]
    league = [t.leaf(LEAGUE_TREE)]  # results to the venue's league, its acks
    venue = [t.bridge_state, ROSTER]  # the venue link, the league's roster
    discovery = t.discovery_trees(discovery_prefix)
    ha_status = birth(discovery_prefix)
    lines = ["# Generated by the companion (companion/bus/broker.py); rewritten at each start.",
             "", "user sensors"]
    lines += [f"topic readwrite {topic}" for topic in sensor]
    if simulated:
        lines.append(f"topic read {t.sim_command}")
    lines += ["", "user referee"]
    lines += [f"topic readwrite {topic}" for topic in game + league + discovery]
    lines += [f"topic read {topic}" for topic in sensor + venue + [ha_status]]
    lines += ["", "user sim"]
    if simulated:
        lines.append(f"topic write {t.sim_command}")
    lines += ["", "user viewer"]
    lines += [f"topic read {topic}" for topic in sensor + game + discovery]
    lines.append(f"topic readwrite {ha_status}")  # Home Assistant as viewer: its birth
    return "\n".join(lines) + "\n"


def write_files(folder: Path, table: str, port: int, host: str = LOOPBACK,
                simulated: bool = False, autosave_s: int = AUTOSAVE_S,
                discovery_prefix: str = DISCOVERY_PREFIX, extra_conf: str = "") -> Path:
    """mosquitto.conf, passwd and acl in `folder` (0700, files 0600); the conf's path.
    `extra_conf` ends the conf (a table's bridge to its venue, companion/league/bridge.py)."""
    private_dir(folder)
    creds = ensure_credentials(folder)
    write_passwd(folder, creds)
    write_private(folder / "acl", acl_text(table, simulated, discovery_prefix))
    return write_conf(folder, port, host, autosave_s, extra_conf)


def write_passwd(folder: Path, creds: dict[str, str]) -> None:
    write_private(folder / "passwd",
                  "".join(f"{u}:{password_hash(p)}\n" for u, p in sorted(creds.items())))


def write_conf(folder: Path, port: int, host: str, autosave_s: int = AUTOSAVE_S,
               extra_conf: str = "") -> Path:
    """The conf of a broker whose passwd and acl are in `folder`; `extra_conf` ends it."""
    user = "root" if os.geteuid() == 0 else getpass.getuser()
    conf = folder / "mosquitto.conf"
    write_private(conf, "\n".join([
        "# Generated by the companion (companion/bus/broker.py); rewritten at each start.",
        f"listener {port} {host}",
        "allow_anonymous false",
        f"password_file {folder.resolve() / 'passwd'}",
        f"acl_file {folder.resolve() / 'acl'}",
        "set_tcp_nodelay true",
        "persistence true",
        f"persistence_location {folder.resolve()}/",
        f"autosave_interval {autosave_s}",
        f"user {user}",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_timestamp false",
        "",
    ]) + extra_conf)
    return conf


# -- the child process -----------------------------------------------------------------------


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class EmbeddedBroker:
    """Mosquitto as the companion's child, on `host:port`, from files in `state_dir`."""

    def __init__(self, port: int = 1883, host: str = LOOPBACK, state_dir: Path | None = None,
                 table: str = "demo", simulated: bool = True, autosave_s: int = AUTOSAVE_S,
                 discovery_prefix: str = DISCOVERY_PREFIX, extra_conf: str = "") -> None:
        self.host, self.port, self.table, self.extra_conf = host, port, table, extra_conf
        self.simulated, self.autosave_s, self.discovery_prefix = (
            simulated, autosave_s, discovery_prefix)
        self._tmp: tempfile.TemporaryDirectory | None = None
        if state_dir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="cashnguns-broker-")
            state_dir = Path(self._tmp.name)
        self.state_dir = Path(state_dir)
        self.process: subprocess.Popen | None = None
        self.restarts = 0
        self._stopping = threading.Event()
        self._supervisor: threading.Thread | None = None
        self._stderr: deque[str] = deque(maxlen=20)
        self._lock = threading.Lock()

    @property
    def credentials(self) -> dict[str, str]:
        return load_credentials(self.state_dir / CREDENTIALS)

    def write_files(self) -> Path:
        """The broker's files for this start (a venue's broker writes its own)."""
        return write_files(self.state_dir, self.table, self.port, self.host, self.simulated,
                           self.autosave_s, self.discovery_prefix, self.extra_conf)

    def start(self, timeout_s: float = 10.0) -> EmbeddedBroker:
        binary = mosquitto_binary()
        if binary is None:
            raise BrokerError("the table's broker needs Mosquitto: apt-get install mosquitto "
                              "(./dev demo installs it), or set mqtt.url to a broker")
        self.binary = binary
        self.conf = self.write_files()
        self._spawn(timeout_s)
        self._supervisor = threading.Thread(target=self._supervise, name="mqtt-broker",
                                            daemon=True)
        self._supervisor.start()
        log.info("MQTT broker (mosquitto, pid %d) on %s:%d, files in %s",
                 self.process.pid if self.process else -1, self.host, self.port, self.state_dir)
        return self

    def _spawn(self, timeout_s: float) -> None:
        _check_free(self.host, self.port)  # else the readiness check below meets another broker
        proc = subprocess.Popen([self.binary, "-c", str(self.conf)], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=_die_with_parent)
        reader = threading.Thread(target=self._read_stderr, args=(proc,), daemon=True,
                                  name="mqtt-broker-log")
        reader.start()
        deadline = time.monotonic() + timeout_s
        while proc.poll() is None and not _port_open(self.host, self.port):
            if time.monotonic() > deadline:
                proc.kill()
                proc.wait(5)
                raise BrokerError(f"the MQTT broker did not listen on {self.host}:{self.port} "
                                  f"in {timeout_s} s")
            time.sleep(0.02)
        if proc.poll() is not None:
            reader.join(1.0)  # the child is gone: its last lines are read to the end
            why = " ".join(self._stderr) or f"exit status {proc.returncode}"
            raise BrokerError(f"the MQTT broker cannot listen on {self.host}:{self.port}: {why}")
        with self._lock:
            self.process = proc

    def _read_stderr(self, proc: subprocess.Popen) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            line = line.strip()
            if line and "should not be run as root" not in line:
                self._stderr.append(line)
                log.warning("mosquitto: %s", line)

    def _supervise(self) -> None:
        delay = 0.2
        while not self._stopping.is_set():
            proc = self.process
            if proc is None:
                return
            code = proc.wait()
            if self._stopping.is_set():
                return
            log.warning("the MQTT broker (pid %d) exited with %s; restarting it", proc.pid, code)
            while not self._stopping.wait(delay):
                try:
                    self._spawn(10.0)
                    self.restarts += 1
                    delay = 0.2
                    log.warning("the MQTT broker is back (pid %d)",
                                self.process.pid if self.process else -1)
                    break
                except BrokerError as exc:
                    log.warning("%s; retrying", exc)
                    delay = min(delay * 2, 5.0)

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stopping.set()
        with self._lock:
            proc = self.process
        if proc is not None and proc.poll() is None:
            proc.terminate()  # Mosquitto saves its persistence file on SIGTERM
            try:
                proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout_s)
        if self._supervisor is not None:
            self._supervisor.join(timeout_s)
        if self._tmp is not None:
            self._tmp.cleanup()


def _check_free(host: str, port: int) -> None:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Mosquitto does
        try:
            s.bind((host, port))
        except OSError as exc:
            raise BrokerError(f"the MQTT broker cannot listen on {host}:{port}: "
                              f"{exc.strerror or exc} (is another companion running?)") from None


def _port_open(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=0.2).close()
        return True
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m companion.bus.broker",
        description="Write mosquitto.conf, passwd, acl and credentials.json for a table, for "
                    "a Mosquitto run by the system (point mqtt.credentials at credentials.json).")
    ap.add_argument("command", choices=["write"])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--table", default="demo")
    ap.add_argument("--port", type=int, default=1883)
    ap.add_argument("--host", default=LOOPBACK)
    ap.add_argument("--sim", action="store_true", help="let the `sim` user command a simulator")
    args = ap.parse_args(argv)
    conf = write_files(args.folder, args.table, args.port, args.host, args.sim)
    print(f"wrote {conf}; run: mosquitto -c {conf}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
