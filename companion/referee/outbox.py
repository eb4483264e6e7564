"""What the referee does after deciding, on one thread of its own, in the order decided:
the digests of the views it showed and the inputs not yet on disk go to the journal, and
the listeners run (MQTT, the live streams' wake-ups, the dashboard's checks). The table's
lock is never held here, so a stalled broker or a slow reader holds only this thread,
never the referee.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import deque
from collections.abc import Callable

from companion.referee import views
from companion.referee.effects import Write
from companion.referee.journal import InputRow, Journal, JournalError

Listener = Callable[[int], None]
log = logging.getLogger("companion.referee")
FLUSH_ROWS = 500  # inputs kept in memory at most before they are written anyway
IDLE_S = 1.0  # inputs kept in memory at most this long; then an idle thread ends


def view_digest(snapshot: views.Snapshot) -> str:
    """The public view's JSON, as the streams send it, in 32 hex digits."""
    return frame_digest(views.TableFrame(snapshot))


def frame_digest(frame: views.TableFrame) -> str:
    return hashlib.sha256(frame.public_json()).hexdigest()[:32]


class Outbox:
    def __init__(self, journal: Journal, boot: int) -> None:
        self.journal, self.boot = journal, boot
        self.listeners: list[Listener] = []
        # the views of the latest change shown, built here once: the streams send these
        # bytes (the ones digested), so they never take the table's lock to build them again
        self.frame: views.TableFrame | None = None
        self._jobs: deque[tuple[int, views.Snapshot | None, int, list[str]]] = deque()
        self._pending: list[InputRow] = []  # inputs decided, not yet on disk
        self._shown: list[tuple[int, int, str]] = []  # (boot, seq, digest)
        self._cond = threading.Condition()
        self._writing = threading.Lock()
        self._posted = self._done = 0  # jobs posted, and done
        self._stop = False
        self._thread: threading.Thread | None = None  # started when there is work

    def _wake(self) -> None:
        """(Under `_cond`.) A thread to do the work, if the last one ended, idle."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="referee-outbox",
                                            daemon=True)
            self._thread.start()
        self._cond.notify()

    # -- from the referee, under its lock ------------------------------------------------

    def heard(self, row: InputRow) -> None:
        """An input that may wait for the next write (it made the referee write nothing)."""
        with self._cond:
            self._pending.append(row)
            if self._thread is None or len(self._pending) >= FLUSH_ROWS:
                self._wake()

    def write(self, row: InputRow, writes: list[Write]) -> None:
        """An input and its writes on disk now, after every input before it (JournalError
        if the journal cannot take them: then none is written)."""
        with self._writing:
            with self._cond:
                rows, self._pending = self._pending, []
            try:
                self.journal.commit([*rows, row], writes)
            except JournalError:
                with self._cond:
                    self._pending[:0] = rows
                raise

    def post(self, seq: int, snapshot: views.Snapshot | None, revision: int,
             logs: list[str]) -> None:
        """After input `seq`: its view to digest (None: nothing shown changed), the
        listeners to call with `revision`, lines to log."""
        with self._cond:
            self._jobs.append((seq, snapshot, revision, logs))
            self._posted += 1
            self._wake()

    # -- the outbox's thread ---------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                due = self._cond.wait_for(lambda: self._jobs or self._stop or
                                          len(self._pending) >= FLUSH_ROWS, IDLE_S)
                if not self._jobs and (self._stop or (not due and not self._pending
                                       and not self._shown)):
                    self._thread = None  # idle: the next work starts another
                    self._cond.notify_all()
                    return
                jobs = list(self._jobs)
                self._jobs.clear()
            for seq, snapshot, revision, logs in jobs:
                for line in logs:
                    log.warning("%s", line)
                if snapshot is not None:
                    self.frame = views.TableFrame(snapshot)
                    self._shown.append((self.boot, seq, frame_digest(self.frame)))
                for listener in list(self.listeners):
                    try:
                        listener(revision)
                    except Exception:
                        log.exception("a listener of the table failed")
            self.flush()
            with self._cond:
                self._done += len(jobs)
                self._cond.notify_all()

    def flush(self) -> None:
        """Write the inputs and digests kept in memory (kept for later if it fails). One
        write at a time (`_writing`): the inputs reach the disk in order, with no gap."""
        with self._writing:
            with self._cond:
                rows, shown = self._pending, self._shown
                self._pending, self._shown = [], []
            if not rows and not shown:
                return
            if self.journal.closed:  # closed on purpose (a stop): nothing can reach it now
                log.warning("%d inputs not journaled: the journal was closed before the "
                            "table", len(rows))
                return
            try:
                self.journal.commit(rows, [], shown)
            except JournalError as e:
                log.warning("inputs kept in memory until the journal can be written: %s", e)
                with self._cond:
                    self._pending[:0], self._shown[:0] = rows, shown

    def settled(self, timeout: float = 10.0) -> bool:
        """Wait until everything posted so far was done (listeners called, digests taken);
        what is posted meanwhile is not waited for."""
        with self._cond:
            posted = self._posted
            return self._cond.wait_for(lambda: self._done >= posted, timeout)

    def close(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(10)
        self.flush()
