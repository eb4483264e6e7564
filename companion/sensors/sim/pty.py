"""A USB port that is a pseudo-terminal: the simulated hub's end of its cable.

The serial backend opens the pty's slave side like a real USB port, through a stable
symlink (as /dev/serial/by-id gives for real boards). Unplugging closes the pty and
removes the link; plugging back creates a new pty behind the same link. Writes never
block: what does not fit is lost, as from a full USB buffer.
"""

from __future__ import annotations

import os
import threading
import tty

from companion.wire.linecodec import LineSplitter


class PtyPort:
    def __init__(self, link_path: str) -> None:
        self.link_path = link_path
        self.plugged = False
        self.written = 0
        self.overflows = 0  # writes cut short because nobody read the port
        self._master = self._slave = -1
        self._splitter = LineSplitter()
        self._lock = threading.RLock()

    def plug(self) -> None:
        with self._lock:
            if self.plugged:
                return
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)
            os.set_blocking(self._master, False)
            tmp = f"{self.link_path}.new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(os.ttyname(self._slave), tmp)
            os.replace(tmp, self.link_path)
            self._splitter.restart()
            self.plugged = True

    def unplug(self) -> None:
        with self._lock:
            if not self.plugged:
                return
            self.plugged = False
            if os.path.lexists(self.link_path):
                os.unlink(self.link_path)
            os.close(self._master)
            os.close(self._slave)

    def write(self, data: bytes) -> None:
        """Raw bytes into the port; dropped (never blocking) when unplugged or full."""
        with self._lock:
            if not self.plugged:
                return
            try:
                if os.write(self._master, data) < len(data):
                    self.overflows += 1
                self.written += 1
            except (BlockingIOError, OSError):
                self.overflows += 1

    def read_lines(self) -> list[bytes]:
        """The whole lines the host wrote since the last call (never blocks)."""
        with self._lock:
            if not self.plugged:
                return []
            try:
                chunk = os.read(self._master, 4096)
            except (BlockingIOError, OSError):
                return []
            return self._splitter.feed(chunk)
