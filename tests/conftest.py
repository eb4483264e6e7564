"""Shared fixtures: real brokers on free loopback ports, an independent observer, waiting.

Nothing here sleeps to wait for an event: `poll_until` polls a condition with a deadline,
and observers hand messages over through queues read with a timeout.
"""

from __future__ import annotations

import contextlib
import queue
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings
from playwright.sync_api import expect
from ports import free_port  # (tests/ is on the path for this conftest)
from slow_first import SLOWEST, deal, known_seconds
from waiting import wait_for

from companion.bus.settings import MqttSettings

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_SUB = shutil.which("mosquitto_sub")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


# What a test checks is what the code decides, never how fast a shared machine runs it:
# no per-example deadline for Hypothesis, and a page's awaited state gets as long as a
# page's actions (10 s). Speed is measured by bench/, in docs/PERFORMANCE.md.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
expect.set_options(timeout=10_000)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On pytest-xdist's workers (./dev test: `--dist worksteal`), the slowest tests first,
    spread over the workers."""
    workers = getattr(config, "workerinput", {}).get("workercount", 0)
    if workers > 1:
        items[:] = deal([i.nodeid for i in items], items,
                        known_seconds(SLOWEST.read_text()), workers)


@pytest.fixture
def unused_port() -> int:
    """A TCP port free on 127.0.0.1 a moment ago."""
    return free_port()


@pytest.fixture
def poll_until():
    return wait_for


def _port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


@dataclass
class Mosquitto:
    """A Mosquitto on 127.0.0.1 with TCP_NODELAY; `restart()` keeps the port."""

    port: int
    conf: Path
    process: subprocess.Popen | None = None

    @property
    def settings(self) -> MqttSettings:
        return MqttSettings(port=self.port, embedded=False, qos=1)

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for(lambda: _port_open(self.port) or self.process.poll() is not None,
                 what="mosquitto to listen")
        if self.process.poll() is not None:
            raise RuntimeError(f"mosquitto failed: {self.process.stderr.read().decode()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(5)

    def restart(self) -> None:
        self.stop()
        self.start()

    def freeze(self, frozen: bool = True) -> None:
        """Hang the broker (SIGSTOP): its connections stay open, nothing comes back."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP if frozen else signal.SIGCONT)


def _mosquitto(tmp: Path) -> Iterator[Mosquitto]:
    if not Path(MOSQUITTO).exists():
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    port = free_port()
    conf = tmp / "mosquitto.conf"
    conf.write_text(
        f"listener {port} 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\n"
        "persistence false\nlog_dest stderr\nlog_type error\n"
    )
    broker = Mosquitto(port, conf)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture(scope="session")
def mosquitto(tmp_path_factory) -> Iterator[Mosquitto]:
    """One Mosquitto for the session (tests use distinct table names to stay apart)."""
    yield from _mosquitto(tmp_path_factory.mktemp("mosquitto"))


@pytest.fixture
def private_mosquitto(tmp_path) -> Iterator[Mosquitto]:
    """A Mosquitto of the test's own, which it may stop and restart."""
    yield from _mosquitto(tmp_path)


class Observer:
    """`mosquitto_sub` in a subprocess: an independent client that sees what others see."""

    def __init__(self, port: int, topic: str) -> None:
        if MOSQUITTO_SUB is None:
            pytest.skip("mosquitto_sub is not installed (apt-get install mosquitto-clients)")
        self.messages: queue.Queue[tuple[str, str, bool]] = queue.Queue()
        self.seen: list[tuple[str, str, bool]] = []
        self._proc = subprocess.Popen(
            [MOSQUITTO_SUB, "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-q", "1",
             "-F", "%r %t %p", "-i", f"observer-{id(self)}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self._proc.stdout:
            retained, topic, payload = line.rstrip("\n").split(" ", 2)
            self.messages.put((topic, payload, retained == "1"))

    def expect(self, topic: str, match: Callable[[str], bool] = lambda _p: True,
               timeout: float = 5.0, retained: bool | None = None) -> str:
        """The payload of the next message on `topic` that `match`es (others are kept)."""
        deadline = time.monotonic() + timeout
        while True:
            for t, p, r in self.seen:
                if t == topic and match(p) and retained in (None, r):
                    self.seen.remove((t, p, r))
                    return p
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching message on {topic} in {timeout} s; "
                                     f"seen: {self.seen[-10:]}")
            with contextlib.suppress(queue.Empty):
                self.seen.append(self.messages.get(timeout=left))

    def drain(self) -> list[tuple[str, str, bool]]:
        while True:
            try:
                self.seen.append(self.messages.get_nowait())
            except queue.Empty:
                return self.seen

    def close(self) -> None:
        """Stopped as a user stops it (SIGTERM: it disconnects cleanly), or killed when it
        has not gone 5 s later (once seen on a loaded machine): an observer slow to leave
        says nothing of what it observed."""
        self._proc.terminate()
        try:
            self._proc.wait(5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(5)


@pytest.fixture
def observe() -> Iterator[Callable[[int, str], Observer]]:
    """`observe(port, topic_filter)` starts a mosquitto_sub; stopped after the test."""
    observers: list[Observer] = []

    def start(port: int, topic: str) -> Observer:
        observers.append(Observer(port, topic))
        return observers[-1]

    yield start
    for o in observers:
        o.close()


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright, for the tablet's pages and the venue page."""
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield b
        b.close()
