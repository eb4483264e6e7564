"""`companion run` in a subprocess, driven as a real table is: HTTP taps and sensor moves.

Sensors move through the simulator's MQTT command topic (a gun aimed, a standee tipped),
then travel the real path: simulated boards on pseudo-terminals and mock GPIO pins, the
sensor bridge, the broker, the referee. Every wait is on an observed change, with a timeout.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.error
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from phones import Phones, PhoneTaps, http_request, journal_links
from waiting import wait_for

FAST = {"beat_ms": 200, "hold_ms": 150, "too_slow_ms": 400, "settle_ms": 150,
        "posture_ms": 300}
PIN = "2468"
CONTROL = {"X-Table-Pin": PIN}


def write_config(path: Path, table: str, broker_port: int, web_port: int, seats: int,
                 timing: dict[str, int] | None = None, extra: str = "",
                 filters: str = "hold_ms: 100") -> Path:
    timing_yaml = "" if timing is None else "  timing: " + json.dumps(timing) + "\n"
    path.write_text(
        f"table: {table}\n"
        f"mqtt:\n  url: mqtt://127.0.0.1:{broker_port}\n"
        f"sensors:\n  filters: {{{filters}}}\n"
        f"  sim:\n    guns: {list(range(1, seats + 1))}\n    hand: {{ideal: true}}\n"
        f"    slot_us: 1500\n    link_dir: {path.parent / 'ports'}\n"
        f"referee:\n  pin: \"{PIN}\"\n  journal: {path.parent / 'journal.sqlite3'}\n"
        f"{timing_yaml}{extra}"
        f"dashboard:\n  host: 127.0.0.1\n  port: {web_port}\n"
    )
    return path


class RemoteTable(PhoneTaps):
    """The bot's port onto a `companion run` process."""

    def __init__(self, config: Path, table: str, broker_port: int, web_port: int) -> None:
        self.config, self.table, self.web_port = config, table, web_port
        self.base = f"http://127.0.0.1:{web_port}"
        self.proc: subprocess.Popen | None = None
        self.restarts = 0
        self.wait_s = 5.0  # how long a sensor move may take to read (the soak gives more)
        self.mqtt = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"driver-{table}")
        self.mqtt.connect("127.0.0.1", broker_port)
        self.mqtt.loop_start()
        self.phones = Phones(self.request, self._links, CONTROL)

    def _links(self, game: int, seat: int) -> str:
        """What the seat's QR code holds (the players scan it: the test reads the journal)."""
        return journal_links(self.config.parent / "journal.sqlite3", self.table)(game, seat)

    # -- the process ---------------------------------------------------------------------

    def start(self) -> None:
        self.log = open(self.config.parent / f"run-{self.restarts}.log", "w")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--config", str(self.config)],
            stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        wait_for(lambda: self.proc.poll() is not None or self._try_state() is not None, 30,
                  "the dashboard to answer")
        if self.proc.poll() is not None:
            self.log.close()
            log = (self.config.parent / f"run-{self.restarts}.log").read_text()
            raise AssertionError(f"companion run exited {self.proc.returncode}:\n{log[-3000:]}")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()
        self.restarts += 1

    def stop(self) -> int:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            code = self.proc.wait(20)
            self.log.close()
            return code
        return self.proc.returncode if self.proc else 0

    def close(self) -> None:
        self.stop()
        self.mqtt.loop_stop()
        self.mqtt.disconnect()

    # -- HTTP ----------------------------------------------------------------------------

    def request(self, path: str, body: dict[str, Any] | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:
        return http_request(self.base)(path, body, CONTROL if headers is None else headers)

    def _try_state(self) -> dict[str, Any] | None:
        try:
            return self.request("/api/state")[1]
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return None

    def state(self) -> dict[str, Any]:
        return self.request("/api/state")[1]

    # -- the TablePort (control, legal and command: PhoneTaps) ----------------------------

    def sim(self, text: str) -> None:
        self.mqtt.publish(f"cashnguns/{self.table}/sim/command", text, qos=1).wait_for_publish(5)

    def _reading(self, seat: int, key: str) -> Any:
        p = next(p for p in self.state()["players"] if p["seat"] == seat)
        return p["sensors"][key]

    def aim(self, seat: int, target: int | None) -> None:
        self.sim(f"raise {seat}" if target is not None else f"lower {seat}")
        self.sim(f"aim {seat} {target or 'none'}")
        wait_for(lambda: self._reading(seat, "aim") == target
                  and self._reading(seat, "raised") == (target is not None),
                  self.wait_s, f"gun {seat} to read {target}")

    def posture(self, seat: int, down: bool) -> None:
        self.sim(f"{'tip' if down else 'stand'} {seat}")
        want = "down" if down else "up"
        wait_for(lambda: self._reading(seat, "posture") == want, self.wait_s,
                 f"standee {seat} {want}")

    def settle(self, state: dict[str, Any]) -> dict[str, Any]:
        """Wait for the referee to move on by itself (a countdown ends, a re-aim is read)."""
        return wait_for(lambda: (s := self.control())["version"] != state["version"] and s,
                         15, "the referee to move on")
