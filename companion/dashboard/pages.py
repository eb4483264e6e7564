"""The pages: the table view, the Godfather's controls, a phone's view, the virtual table.

Pages are thin: the server writes the fixed words in the chosen language and embeds the
catalog; the page scripts draw the game from the live stream with the same catalog.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import segno
from flask import Blueprint, Response, abort, make_response, redirect, render_template, request

from companion.dashboard import i18n
from companion.dashboard.access import csrf_token, is_controller, refile_claims
from companion.dashboard.address import phones_base
from companion.dashboard.api import STATUS, phone_claim
from companion.dashboard.settings import DashboardSettings
from companion.dashboard.setup_flow import in_progress, last_table
from companion.referee.table import Table
from companion.rules.powers import POWERS

FIELD = re.compile(r"\{(\w+)\}")
AWAY_REFRESH_S = 10  # a phone whose player sits out looks again this often: back with them
# Why a phone may not open a seat (access.Phone), in the catalogs' words.
PHONE_MESSAGES = {"taken": "phone.taken", "released": "phone.released",
                  "earlier": "phone.earlier", "bad": "ui.bad_seat_link", "away": "phone.away"}


def translator(lang: str) -> Callable[..., str]:
    """`t(key, **fields)` for templates: the same `{field}` filling as the page scripts."""
    strings = i18n.catalog(lang)

    def t(key: str, **fields: Any) -> str:
        return FIELD.sub(lambda m: str(fields.get(m.group(1), m.group(0))), strings[key])
    return t


def render(template: str, **context: Any) -> str:
    """A page in the request's language, with the catalog its scripts need."""
    lang = i18n.choose(request)
    switch = [(code, request.path + "?" + urlencode({**request.args, "lang": code}))
              for code in i18n.LANGUAGES]
    return render_template(template, lang=lang, t=translator(lang), languages=switch,
                           catalog=json.dumps(i18n.catalog(lang), ensure_ascii=False)
                           .replace("</", "<\\/"),  # never ends its <script> element
                           csrf=csrf_token(), **context)


def pages_blueprint(table: Table, settings: DashboardSettings) -> Blueprint:
    bp = Blueprint("pages", __name__)

    @bp.get("/")
    def table_view() -> str:
        return render("table.html")

    @bp.get("/referee")
    def referee() -> str:
        if not is_controller():
            return render("login.html")
        phones, local_only = phones_base(settings.public_url, settings.host)
        return render("referee.html", powers=POWERS, last=last_table(table),
                      tab="play" if in_progress(table) else "setup",
                      phones_url=phones, phones_local=local_only)

    @bp.get("/seat/<int:seat>")
    def seat(seat: int) -> Response:
        """A phone's page: its seat's view for the phone holding it, the claim for the
        first phone to open the seat's link, else a sentence saying why not."""
        token, claim = request.args.get("token"), phone_claim(seat)
        phone = table.access.phone(seat, claim, token)
        if phone == "moved":  # the same player, another seat: the phone follows them
            page = make_response(redirect(f"/seat/{table.access.seat_held(claim)}"))
        elif phone == "mine":
            page = make_response(render("seat.html", seat=seat, token="",
                                        phone_csrf=table.access.csrf(claim or "")))
        elif phone == "claim":
            page = make_response(render("seat.html", seat=seat, token=token, phone_csrf=""))
        else:
            status = STATUS[table.access.refusal(seat, phone).kind]
            player = (table.access.placed(claim) or ("",))[0]
            page = make_response(render("message.html", message_key=PHONE_MESSAGES[phone],
                                        state=phone, args={"player": player},
                                        away_refresh_s=AWAY_REFRESH_S), status)
        refile_claims(page, table.access)
        page.headers["Cache-Control"] = "no-store"  # a claim's CSRF token, a hand
        return page

    @bp.get("/sim")
    def sim() -> str:
        if table.simulator is None:
            abort(404)
        if not is_controller():
            return render("login.html")
        return render("sim.html", guns=sorted(table.simulator.boards))

    @bp.get("/referee/seat/<int:seat>")
    def seat_link(seat: int) -> Response:
        """The seat's link opened on the device in hand (it holds the token: control only)."""
        if not is_controller():
            abort(401)
        page = make_response(redirect(f"/seat/{seat}?token={table.access.seat_token(seat)}"))
        page.headers["Cache-Control"] = "no-store"
        return page

    @bp.get("/referee/qr/<int:seat>.svg")
    def seat_qr(seat: int) -> Response:
        """The phone link of a seat as a QR code: it holds the token, so control only."""
        if not is_controller():
            abort(401)
        base = phones_base(settings.public_url, settings.host)[0]
        url = f"{base}/seat/{seat}?token={table.access.seat_token(seat)}"
        out = io.BytesIO()
        segno.make(url, error="m").save(out, kind="svg", scale=5, border=2, dark="#111")
        return Response(out.getvalue(), mimetype="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    @bp.after_app_request
    def remember_language(response: Response) -> Response:
        lang = request.args.get("lang")
        if lang in i18n.LANGUAGES:
            response.set_cookie(i18n.COOKIE, lang, max_age=365 * 86400, samesite="Lax")
        return response

    return bp
