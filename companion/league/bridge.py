"""A table's Mosquitto bridge to the venue broker: what goes up, what comes down, as whom.

Each table keeps its own broker, so it plays on when the venue link is down; the bridge
(Mosquitto's own, configured here) carries the public game up, and the league's
acknowledgements and roster down. Nothing secret goes up: no hand is ever on a topic, and
the sensor topics, the simulator's commands and Home Assistant's stay at the table. The
bridge logs in at the venue as the table (its id is its user there), so a table can write
under its own `cashnguns/<table>/` only: the id is unique at the venue by its credentials.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.bus import topics
from companion.bus.broker import BrokerError, load_credentials
from companion.bus.topics import Topics
from companion.league.settings import LeagueSettings, Venue

if TYPE_CHECKING:
    from companion.config import Config

KEEPALIVE_S = 6  # a silent venue link is noticed within 15 s (bench/league_offline.py)


def bridge_conf(table: str, venue: Venue) -> str:
    """The `connection` block for a table's mosquitto.conf (docs/LEAGUE.md)."""
    user, password = venue_login(table, venue)
    base = Topics(table).leaf("")  # the bridge's prefix: the table's own topics
    lines = [
        "",
        "# The bridge to the venue's league (companion/league/bridge.py, docs/LEAGUE.md).",
        f"connection cashnguns-{table}",
        f"address {venue.host}:{venue.port}",
        f"remote_clientid cashnguns-bridge-{table}",
        f"local_clientid cashnguns-bridge-{table}-local",
        f"remote_username {user}",
        "bridge_protocol_version mqttv311",
        "try_private true",
        "cleansession false",  # the venue keeps the table's acks while the link is down
        f"keepalive_interval {KEEPALIVE_S}",
        "restart_timeout 1 10",
        "notifications true",
        f"notification_topic {Topics(table).bridge_state}",
    ]
    if password is not None:
        lines.append(f"remote_password {password}")
    if venue.tls:
        lines.append(f"bridge_cafile {venue.ca_file}" if venue.ca_file
                     else "bridge_capath /etc/ssl/certs")
        if venue.cert_file and venue.key_file:
            lines += [f"bridge_certfile {venue.cert_file}", f"bridge_keyfile {venue.key_file}"]
    lines += [f"topic {t} out 1 {base} {base}" for t in topics.UP]
    lines += [f"topic {t} in 1 {base} {base}" for t in topics.DOWN]
    lines.append(f"topic roster in 1 {topics.LEAGUE_BASE}/ {topics.LEAGUE_BASE}/")
    return "\n".join(lines) + "\n"


def venue_login(table: str, venue: Venue) -> tuple[str, str | None]:
    """The table's user at the venue (its id unless set) and its password: given, or read
    from the venue's credentials file."""
    user = venue.username or table
    if venue.password is not None or venue.credentials is None:
        return user, venue.password
    creds = load_credentials(venue.credentials)
    if user not in creds:
        raise BrokerError(f"{venue.credentials}: has no password for the table {user!r}: add "
                          "it to league.tables at the venue and write its broker files again")
    return user, creds[user]


def table_bridge(config: Config) -> str:
    """The bridge block for a table's own broker, or "" when it reports to no venue or
    shares the venue's broker."""
    league: LeagueSettings | None = config.sections.get("league")
    if league is None or league.venue is None:
        return ""
    return bridge_conf(config.table, league.venue)
