"""The `league:` config section: a table's link to its venue, and the league service's own.

A table's config sets `venue` (the venue broker's URL, which its Mosquitto bridges to, or
`shared` when the table's `mqtt.url` already is the venue's broker) and the bridge's
credentials and TLS files. The league's config (`companion league`) sets the venue's
`tables`, its `database`, the organiser's `pin`, and its broker's listener (`listen`, and
`venue_cert_file`/`venue_key_file` for TLS). See docs/LEAGUE.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from companion.bus.settings import DEFAULT_PORTS
from companion.config import TABLE_ID, Node

SHARED = "shared"
DEFAULT_DATABASE = "sqlite:///var/league.sqlite3"
DATABASE = re.compile(r"(sqlite:///\S+|postgresql(\+psycopg)?://\S+)")
PIN = re.compile(r"[0-9]{4,8}")
HOST = re.compile(r"[0-9A-Za-z.:\-\[\]]{1,64}")


@dataclass(frozen=True)
class Venue:
    """Where a table's bridge connects, as whom, and how it checks the venue."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None  # default: the table id
    password: str | None = None
    credentials: Path | None = None  # the venue's credentials.json: the table's password
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None


@dataclass(frozen=True)
class LeagueSettings:
    venue: Venue | None = None  # a table's venue broker, for its bridge
    shared: bool = False  # the table's own mqtt.url is the venue's broker
    resend_s: float = 30.0  # an unacknowledged result goes again this often
    tables: tuple[str, ...] = ()  # the league: the venue's table ids
    listen: str = "0.0.0.0"  # the league's own venue broker: where tables reach it
    database: str = DEFAULT_DATABASE
    pin: str | None = None  # the organiser's; None: generated and printed at start
    venue_cert_file: str | None = None  # the league's venue broker: TLS for the tables
    venue_key_file: str | None = None
    venue_tls_port: int = DEFAULT_PORTS["mqtts"]

    @property
    def reports(self) -> bool:
        """Whether this table sends its results to a league."""
        return self.venue is not None or self.shared


def parse(node: Node) -> LeagueSettings:
    venue_url = node.text("venue", None)
    venue = None
    if venue_url is not None and venue_url != SHARED:
        venue = _venue(node, venue_url)
    else:
        for key in ("username", "password", "credentials", "ca_file", "cert_file", "key_file"):
            if key in node:
                raise node.error(key, "only applies with venue: URL (a table bridged to it)")
    tables = []
    for i, item in enumerate(node.raw("tables", [])):
        if not isinstance(item, str) or not TABLE_ID.fullmatch(item):
            raise node.error("tables", f"item {i}: a table id like cafe-1 "
                                       f"({TABLE_ID.pattern}), not {item!r}")
        if item in tables:
            raise node.error("tables", f"{item!r} is listed twice: a table id is unique")
        tables.append(item)
    pin = node.raw("pin", None)
    if pin is not None and not (isinstance(pin, str) and PIN.fullmatch(pin)):
        raise node.error("pin", "must be 4 to 8 digits, quoted (e.g. \"2468\")")
    d = LeagueSettings()
    settings = LeagueSettings(
        venue=venue, shared=venue_url == SHARED,
        resend_s=node.number("resend_s", d.resend_s, lo=1, hi=3600),
        tables=tuple(tables),
        listen=node.text("listen", d.listen, pattern=HOST),
        database=node.text("database", d.database, pattern=DATABASE),
        pin=pin,
        venue_cert_file=node.text("venue_cert_file", None),
        venue_key_file=node.text("venue_key_file", None),
        venue_tls_port=node.integer("venue_tls_port", d.venue_tls_port, lo=1, hi=65535),
    )
    if (settings.venue_cert_file is None) != (settings.venue_key_file is None):
        raise node.error("venue_cert_file", "venue_cert_file and venue_key_file go together")
    node.done()
    return settings


def _venue(node: Node, url: str) -> Venue:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise node.error("venue", f"is not a broker URL ({exc}): {url!r}") from None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise node.error("venue", f"must be mqtt://host:1883, mqtts://host:8883 or "
                                  f"{SHARED}, not {url!r}")
    tls = parts.scheme == "mqtts"
    files = {key: node.text(key, None) for key in ("ca_file", "cert_file", "key_file")}
    if not tls and any(files.values()):
        raise node.error(next(k for k, v in files.items() if v), "only applies to mqtts://")
    if (files["cert_file"] is None) != (files["key_file"] is None):
        raise node.error("cert_file", "cert_file and key_file go together")
    credentials = node.text("credentials", None)
    return Venue(
        host=parts.hostname, port=port or DEFAULT_PORTS[parts.scheme], tls=tls,
        username=node.text("username", unquote(parts.username) if parts.username else None),
        password=node.text("password", unquote(parts.password) if parts.password else None),
        credentials=Path(credentials) if credentials else None, **files)
