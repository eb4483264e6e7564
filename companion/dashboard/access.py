"""Who is asking, for the dashboard's own routes: the session `POST /api/login` sets.

The API blueprint owns the login and the PIN's rate limit; pages and streams only read
the session it leaves (`control`, `csrf`); phones are known by their claims (dashboard.api).
"""

from __future__ import annotations

import secrets

from flask import Response, abort, request, session

from companion.referee.access import Access

CLAIM_COOKIE = "seat{}"  # a phone's claim on seat n, HttpOnly and SameSite=Strict
CLAIM_COOKIE_S = 7 * 86400  # a game night and more; a phone stays its player's


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


def keep_claim(response: Response, seat: int, claim: str) -> None:
    """Store a phone's claim in its seat's cookie (only this phone's browser reads it)."""
    response.set_cookie(CLAIM_COOKIE.format(seat), claim, max_age=CLAIM_COOKIE_S,
                        httponly=True, samesite="Strict")


def refile_claims(response: Response, access: Access) -> None:
    """A new game reseated this phone's players: each claim it keeps goes to the cookie of
    the seat its player now holds (a claim whose player sits out stays where it is)."""
    prefix = CLAIM_COOKIE.format("")
    for name, claim in request.cookies.items():
        seat = access.seat_held(claim) if name.startswith(prefix) else None
        if seat is not None and request.cookies.get(CLAIM_COOKIE.format(seat)) != claim:
            keep_claim(response, seat, claim)
