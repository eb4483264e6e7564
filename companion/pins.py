"""How a table PIN or an organiser PIN is named in a start-up log line."""

from __future__ import annotations


def pin_for_the_log(pin: str, configured: bool) -> str:
    """How a start-up log line names a PIN: a configured one never (whoever reads the log
    must not learn it); a generated one in full, since the log is where its owner reads it
    (docs/SECURITY.md)."""
    return "PIN from the config" if configured else f"PIN {pin} (generated)"
