"""`GET /api/events`: the live stream of one view of the table (Server-Sent Events).

`?view=control` needs the Godfather's session; `?seat=N&token=T` is one phone's view;
anything else is the spectators' view. Every message is a full snapshot with the
game's version as its id, so a page that reconnects is whole again at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, abort, request

from companion.dashboard.access import is_controller
from companion.dashboard.hub import Builder, EventHub, Stream, View
from companion.referee.table import Table


def view_builder(table: Table) -> Builder:
    """Each audience's view: a phone's (a seat's) carries its own hand, no other does."""
    def build(view: View) -> dict[str, Any]:
        if isinstance(view, tuple):
            return table.seat_state(view[1])
        return table.control_state() if view == "control" else table.public_state()
    return build


def streams_blueprint(table: Table, hub: EventHub) -> Blueprint:
    bp = Blueprint("streams", __name__)

    def requested_view() -> tuple[View, Callable[[], bool]]:
        """The view this request may stream, and what must stay true while it does."""
        if request.args.get("view") == "control":
            if not is_controller():
                abort(401, "the Godfather's stream needs the table PIN")
            return "control", lambda: True
        seat = request.args.get("seat", type=int)
        if seat is not None:
            token = request.args.get("token", "")
            if not table.access.check_seat_token(seat, token):
                abort(401, f"seat {seat}'s stream needs its token")
            return ("seat", seat), lambda: table.access.check_seat_token(seat, token)
        return "public", lambda: True

    @bp.get("/api/events")
    def events() -> Response:
        return event_stream(hub.open(*requested_view()))

    return bp


def event_stream(stream: Stream) -> Response:
    """The response that streams `stream` to this request's client until it goes (the
    tablet's streams and the venue page's)."""
    gone = request.environ.get("waitress.client_disconnected", lambda: False)

    def generate() -> Iterator[bytes]:
        try:
            yield from stream.messages(gone)
        finally:
            stream.close()

    return Response(generate(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
