"""sd_notify: telling systemd that the table is ready, and that its referee is alive.

The protocol is one datagram per message, `KEY=value` lines, sent to the unix socket named
by `$NOTIFY_SOCKET` (abstract when it starts with `@`), which systemd sets for a
`Type=notify` unit; `$WATCHDOG_USEC` (with `$WATCHDOG_PID`) when the unit has `WatchdogSec=`.
A few lines of socket code, so no library (python-systemd needs libsystemd's C bindings).
The variables are taken out of the environment once read, as sd_notify's
`unset_environment` does, so the broker the companion starts never answers for it.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, MutableMapping

from companion.clock import SYSTEM_CLOCK, Clock

log = logging.getLogger(__name__)
VARIABLES = ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")


class Notifier:
    """The service manager's ear, or nobody's (then every message is dropped silently)."""

    def __init__(self, address: str | None, watchdog_s: float | None = None) -> None:
        self.address = address
        self.watchdog_s = watchdog_s  # systemd restarts us if no ping comes within this
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) if address else None
        self._failed = False

    @classmethod
    def from_environ(cls, env: MutableMapping[str, str] | None = None) -> Notifier:
        env = os.environ if env is None else env
        raw = {name: env.pop(name, None) for name in VARIABLES}
        address = raw["NOTIFY_SOCKET"]
        if address is not None and not address.startswith(("/", "@")):
            log.warning("NOTIFY_SOCKET %r is neither a path nor an abstract name (@...): "
                        "not telling systemd anything", address)
            address = None
        return cls(address or None, _watchdog_s(raw["WATCHDOG_USEC"], raw["WATCHDOG_PID"]))

    def send(self, *fields: str) -> bool:
        """One datagram of `KEY=value` lines; False when nobody listens or it failed."""
        if self.address is None or self._socket is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            self._socket.sendto("\n".join(fields).encode(), target)
        except OSError as exc:
            if not self._failed:  # said once: a watchdog ping fails the same way each time
                log.warning("cannot notify systemd on %s: %s", self.address, exc)
                self._failed = True
            return False
        return True

    def ready(self, status: str) -> bool:
        return self.send("READY=1", f"STATUS={status}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def heartbeat(self) -> Heartbeat | None:
        """Watchdog pings at half the watchdog's time, or None without a watchdog."""
        if self.watchdog_s is None or self.address is None:
            return None
        return Heartbeat(lambda: self.send("WATCHDOG=1"), self.watchdog_s / 2)

    def close(self) -> None:
        """Nothing more is sent (a ping racing the stop is dropped, not an error)."""
        self.address = None
        if self._socket is not None:
            self._socket.close()


class Heartbeat:
    """Pings from a loop that proves itself alive by coming round: the loop waits at most
    until the next ping is due (`wait_at_most`), then calls `beat` after its work."""

    def __init__(self, ping: Callable[[], object], every_s: float,
                 clock: Clock = SYSTEM_CLOCK) -> None:
        self.ping, self.every_s, self.clock = ping, every_s, clock
        self._due = self._now_s() + every_s

    def _now_s(self) -> float:
        return self.clock.now_ms() / 1000

    def wait_at_most(self, timeout: float | None) -> float:
        left = max(0.0, self._due - self._now_s())
        return left if timeout is None else min(timeout, left)

    def beat(self) -> None:
        now = self._now_s()
        if now >= self._due:
            self.ping()
            self._due = now + self.every_s


def _watchdog_s(usec: str | None, pid: str | None) -> float | None:
    if usec is None:
        return None
    if pid is not None and pid != str(os.getpid()):
        return None  # meant for another process (the one that started us)
    if not usec.isdigit() or not 0 < int(usec) < 2**63:
        log.warning("WATCHDOG_USEC %r is not a positive whole number of microseconds: no "
                    "watchdog pings", usec)
        return None
    return int(usec) / 1e6
