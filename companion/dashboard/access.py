"""Who is asking, for the dashboard's own routes: the session `POST /api/login` sets.

The API blueprint owns the login and the PIN's rate limit; pages and streams only read
the session it leaves (`control`, `csrf`); phones are known by their claims (dashboard.api).
"""

from __future__ import annotations

import secrets

from flask import abort, request, session


def is_controller() -> bool:
    return session.get("control") is True


def csrf_token() -> str | None:
    """The session's token, written into control pages for their scripts to send back."""
    return session.get("csrf") if is_controller() else None


def require_control_post() -> None:
    """A state-changing request from a control page: logged in, and not forged."""
    if not is_controller():
        abort(401, "the table PIN is needed: log in on the Godfather's page")
    sent = request.headers.get("X-CSRF-Token", "")
    if not secrets.compare_digest(sent, session.get("csrf", "-")):
        abort(403, "missing or wrong X-CSRF-Token for this session")
