"""Log lines for journald: the level as a syslog priority prefix (`<3>` for an error), so
`journalctl -p warning -u cashnguns` shows warnings and worse; no timestamp (journald keeps
its own). Used when standard error is the journal's stream ($JOURNAL_STREAM, systemd.exec(5))."""

from __future__ import annotations

import logging
import os

# from the highest level down: (at least this level, its syslog priority)
PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4),
              (logging.INFO, 6))


def stderr_is_journal(fd: int = 2) -> bool:
    """True when $JOURNAL_STREAM names the device and inode of standard error."""
    stream = os.environ.get("JOURNAL_STREAM", "")
    try:
        st = os.fstat(fd)
    except OSError:
        return False
    return stream == f"{st.st_dev}:{st.st_ino}"


class JournalFormatter(logging.Formatter):
    """`<priority>logger: message`, every line prefixed, so a traceback keeps its level."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        priority = next((p for level, p in PRIORITIES if record.levelno >= level), 7)
        prefix = f"<{priority}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())
