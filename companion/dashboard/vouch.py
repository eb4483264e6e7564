"""Which connections the server keeps a share for: those whose requests show the Godfather's
session or the claim of a seat held in this game (server.py, gate.py)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, request

from companion.dashboard.access import is_controller
from companion.dashboard.api import CLAIM_COOKIE
from companion.dashboard.http11 import VOUCH
from companion.referee.table import Table


def keeps_its_place(table: Table) -> Callable[[Response], Response]:
    """An after-request hook telling the server a request proved who it is."""

    def vouch(response: Response) -> Response:
        proven = request.environ.get(VOUCH)
        if proven is not None and (is_controller() or any(
                table.access.seat_held(claim) for claim in _claims())):
            proven()
        return response

    return vouch


def _claims() -> list[str]:
    """The seat claims a request shows: its header, and its seat cookies."""
    prefix = CLAIM_COOKIE.format("")
    shown = [v for k, v in request.cookies.items() if k.startswith(prefix)]
    header = request.headers.get("X-Seat-Claim")
    return [header, *shown] if header else shown
