"""sd_notify over a real unix datagram socket, as systemd's end of it: READY=1 once the table
serves, watchdog pings from the referee's loop while it is healthy and none while it is
stuck; journald's level prefixes on standard error."""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from local_table import LocalPort

from companion.runner import _drive
from companion.service.journald import JournalFormatter
from companion.service.notify import Notifier


class Listener:
    """systemd's end: a datagram socket the companion's messages arrive on."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def next(self, timeout: float = 10.0) -> dict[str, str]:
        self.sock.settimeout(timeout)
        data = self.sock.recv(4096).decode()
        return dict(line.split("=", 1) for line in data.splitlines())

    def drain(self) -> int:
        """Messages already waiting, thrown away; how many."""
        count = 0
        self.sock.setblocking(False)
        try:
            while True:
                self.sock.recv(4096)
                count += 1
        except BlockingIOError:
            return count

    def count_for(self, seconds: float) -> int:
        """Messages sent from now (those waiting thrown away) until `seconds` have passed."""
        self.drain()
        deadline = time.monotonic() + seconds
        count = 0
        while (left := deadline - time.monotonic()) > 0:
            try:
                self.next(timeout=left)
            except TimeoutError:
                break
            count += 1
        return count

    def silent_for(self, seconds: float) -> bool:
        try:
            self.next(timeout=seconds)
        except TimeoutError:
            return True
        return False


@pytest.fixture
def listener(tmp_path: Path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    yield Listener(sock), str(path)
    sock.close()


def test_companion_run_says_ready_then_pings_the_watchdog_then_says_stopping(
        listener, tmp_path, mosquitto, unused_port):
    listen, path = listener
    config = tmp_path / "table.yaml"
    config.write_text(
        f"table: notify\nmqtt:\n  url: {mosquitto.url}\n"
        f"sensors:\n  sim:\n    guns: [1, 2, 3, 4]\n    link_dir: {tmp_path / 'ports'}\n"
        f"referee:\n  journal: {tmp_path / 'journal.sqlite3'}\n"
        f"dashboard:\n  host: 127.0.0.1\n  port: {unused_port}\n")
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "300000"}
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config",
                             str(config)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        while (ready := listen.next(timeout=30)) == {"WATCHDOG": "1"}:
            pass  # the referee's loop may come round before the dashboard is up
        assert ready["READY"] == "1", ready
        assert ready["STATUS"] == f"table notify: dashboard on port {unused_port}, no game yet"
        with socket.create_connection(("127.0.0.1", unused_port), timeout=5):
            pass  # READY=1 came once the dashboard took connections
        pings = [listen.next(timeout=2) for _ in range(4)]
        assert pings == [{"WATCHDOG": "1"}] * 4
        # every 150 ms (half the watchdog), never sooner, not a flood: at most 7 in 0.9 s,
        # counted from a drained socket (a test kept waiting finds pings queued meanwhile)
        assert 1 <= listen.count_for(0.9) <= 7
        proc.send_signal(signal.SIGTERM)
        while (message := listen.next(timeout=10)) == {"WATCHDOG": "1"}:
            pass
        assert message == {"STOPPING": "1"}
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        stderr = proc.stderr.read() if proc.stderr else ""
    assert "cannot notify" not in stderr, stderr


def test_the_referees_loop_stops_pinging_while_it_is_stuck_and_pings_again_after(
        listener, tmp_path):
    listen, path = listener
    port = LocalPort(tmp_path / "journal.sqlite3")
    notifier = Notifier(path, watchdog_s=0.2)
    stuck, entered, release = threading.Event(), threading.Event(), threading.Event()
    real_tick = port.table.tick

    def tick() -> None:  # a referee that hangs inside its tick, as on a lock never freed
        if stuck.is_set():
            entered.set()
            release.wait(30)
        real_tick()

    port.table.tick = tick
    stop, wake = threading.Event(), threading.Event()
    driver = threading.Thread(target=_drive, args=(port.table, stop, wake,
                                                   notifier.heartbeat()), daemon=True)
    driver.start()
    try:
        healthy = time.monotonic()
        assert [listen.next(timeout=2) for _ in range(4)] == [{"WATCHDOG": "1"}] * 4
        assert time.monotonic() - healthy >= 0.25  # three intervals of 100 ms at least
        stuck.set()
        assert entered.wait(5)
        listen.drain()  # pings sent before it hung
        assert listen.silent_for(1.0)  # ten intervals without a ping: systemd would restart
        stuck.clear()
        release.set()
        assert listen.next(timeout=2) == {"WATCHDOG": "1"}
    finally:
        stop.set()
        release.set()
        wake.set()
        driver.join(5)
        notifier.close()


def test_an_abstract_socket_address_is_reached(tmp_path):
    name = f"cashnguns-notify-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    try:
        assert Notifier("@" + name).ready("up")
        sock.settimeout(5)
        assert sock.recv(100) == b"READY=1\nSTATUS=up"
    finally:
        sock.close()


def test_the_environment_is_read_once_and_checked(caplog):
    env = {"NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000",
           "WATCHDOG_PID": str(os.getpid()), "PATH": "/bin"}
    notifier = Notifier.from_environ(env)
    assert (notifier.address, notifier.watchdog_s) == ("/run/systemd/notify", 30.0)
    assert env == {"PATH": "/bin"}  # the broker started next does not inherit them
    other = Notifier.from_environ({"NOTIFY_SOCKET": "/n", "WATCHDOG_USEC": "30000000",
                                   "WATCHDOG_PID": "1"})
    assert other.heartbeat() is None  # the watchdog is another process's
    with caplog.at_level(logging.WARNING):
        bad = Notifier.from_environ({"NOTIFY_SOCKET": "notify", "WATCHDOG_USEC": "soon"})
    assert (bad.address, bad.watchdog_s) == (None, None)
    assert "NOTIFY_SOCKET 'notify' is neither a path nor an abstract name" in caplog.text
    assert "WATCHDOG_USEC 'soon' is not a positive whole number" in caplog.text
    assert not Notifier(None).ready("nobody listens")


def test_a_failed_start_is_logged_to_journald_at_error_level(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    err = tmp_path / "stderr"
    with err.open("w") as stderr:
        st = os.fstat(stderr.fileno())
        env = {**os.environ, "JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"}
        done = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--journal",
                               str(blocker / "journal.sqlite3"), "--port", "0"], env=env,
                              stdout=subprocess.DEVNULL, stderr=stderr, timeout=60,
                              cwd=tmp_path)
    assert done.returncode == 1
    assert err.read_text().startswith("<3>companion.run: cannot start: cannot open the game "
                                      "journal")


def test_every_line_of_a_traceback_keeps_its_level():
    try:
        raise ValueError("bad tick")
    except ValueError:
        record = logging.LogRecord("companion.run", logging.ERROR, __file__, 1,
                                   "referee tick failed", None, sys.exc_info())
    lines = JournalFormatter().format(record).splitlines()
    assert lines[0] == "<3>companion.run: referee tick failed" and len(lines) > 3
    assert all(line.startswith("<3>") for line in lines)
    info = logging.LogRecord("x", logging.INFO, __file__, 1, "hello", None, None)
    assert JournalFormatter().format(info) == "<6>x: hello"
