"""`companion league`: the venue's league service, and the broker files a venue needs.

`companion league [run]` follows the venue's tables, stores and rates their results and
serves the venue page; with no `mqtt.url` it runs the venue's Mosquitto itself (one user
per table in `league.tables`). `companion league credentials --table T [DIR]` mints the
file a table logs in to the venue with (its own password, nothing else); `companion
league bridge` prints a table's bridge block for a Mosquitto run by the system; `companion
league broker DIR` writes the venue broker's files for one. See docs/LEAGUE.md.
"""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import sys
from pathlib import Path

from companion.commandline import add_config_argument, load_config, prepare
from companion.pins import pin_for_the_log

HELP = "the venue's league: results verified and rated, the venue page; its broker files"
log = logging.getLogger("companion.league")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", default="run",
                        choices=("run", "credentials", "bridge", "broker"),
                        help="run the league (default); mint a table's credentials file; "
                             "print a table's bridge block (--config: the table's); write "
                             "the venue broker's files")
    parser.add_argument("folder", nargs="?", type=Path,
                        help="broker: the folder for mosquitto.conf, passwd, acl, credentials"
                             "; credentials: the venue broker's folder (default mqtt.state_dir)")
    parser.add_argument("--table", help="credentials: the table's id (one of league.tables)")
    add_config_argument(parser, log_level=True)
    parser.add_argument("--port", type=int, help="venue page port, 0 for any free one")


def run(args: argparse.Namespace) -> int:
    if args.action == "bridge":
        return _bridge(args)
    if args.action == "broker":
        return _broker(args)
    if args.action == "credentials":
        return _credentials(args)
    return _run(args)


def _bridge(args: argparse.Namespace) -> int:
    from companion.bus.broker import BrokerError
    from companion.league.bridge import table_bridge

    config = load_config(args.config)
    if config is None:
        return 2
    try:
        block = table_bridge(config)
    except BrokerError as exc:
        print(f"companion league bridge: {exc}", file=sys.stderr)
        return 2
    if not block:
        print(f"companion league bridge: {config.file} sets no league.venue URL: the table "
              "is in no league, or shares the venue's broker", file=sys.stderr)
        return 2
    sys.stdout.write(block)
    return 0


def _broker(args: argparse.Namespace) -> int:
    from companion.league.venue_broker import write_venue_files

    config = load_config(args.config)
    if config is None:
        return 2
    if args.folder is None:
        print("companion league broker: name the folder to write the files in",
              file=sys.stderr)
        return 2
    league, mqtt = config["league"], config.mqtt
    conf = write_venue_files(args.folder, league.tables, mqtt.port, league.listen,
                             league.venue_cert_file, league.venue_key_file,
                             league.venue_tls_port)
    print(f"wrote {conf} for {len(league.tables)} tables; run: mosquitto -c {conf}\n"
          f"each table's own file: companion league credentials {args.folder} --table <id> "
          f"--config {args.config or 'venue.yaml'}")
    return 0


def _credentials(args: argparse.Namespace) -> int:
    """Write `<folder>/tables/<table>.json` (0600): the table's own user and password at
    the venue, minted with the venue broker's users and kept there. A table given this
    file can write under its own id only; the venue's credentials.json never leaves it."""
    from companion.bus.broker import ensure_credentials, private_dir, write_private
    from companion.league.venue_broker import LEAGUE_USER, VIEWER

    config = load_config(args.config)
    if config is None:
        return 2
    league = config["league"]
    if args.table not in league.tables:
        print(f"companion league credentials: --table {args.table or ''}: name one of the "
              f"venue's tables ({', '.join(league.tables)}); add a new one to league.tables "
              "first", file=sys.stderr)
        return 2
    folder = args.folder or config.mqtt.state_dir
    creds = ensure_credentials(folder, (LEAGUE_USER, VIEWER, *league.tables))
    private_dir(folder / "tables")
    path = folder / "tables" / f"{args.table}.json"
    write_private(path, json.dumps({args.table: creds[args.table]}, indent=1) + "\n")
    print(f"wrote {path}: copy it to the table {args.table!r} (0600, e.g. "
          "/etc/cashnguns/venue-credentials.json) and name it in its league.credentials; "
          "restart the venue's broker if it runs, so a new table's user is known")
    return 0


def _run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from sqlalchemy.exc import SQLAlchemyError

    from companion.bus.broker import BrokerError
    from companion.bus.client import BusClient
    from companion.dashboard.server import DashboardServer
    from companion.league.schema import SchemaError
    from companion.league.service import League
    from companion.league.store import Store
    from companion.league.venue_broker import LEAGUE_USER, VenueBroker
    from companion.league.web import Organiser, create_venue_app

    prepared = prepare(args.config, args.log_level)
    if prepared is None:
        return 2
    config, stop = prepared
    settings, mqtt, dashboard = config["league"], config.mqtt, config["dashboard"]
    if args.port is not None:
        dashboard = replace(dashboard, port=args.port)
    broker = None
    try:
        if mqtt.embedded:
            broker = VenueBroker(mqtt.port, settings.listen, mqtt.state_dir, settings.tables,
                                 settings.venue_cert_file, settings.venue_key_file,
                                 settings.venue_tls_port).start()
        store = Store(settings.database)
    except (BrokerError, SchemaError, OSError) as exc:
        log.error("cannot start the league: %s", exc)
        if broker is not None:
            broker.stop()
        return 1
    except SQLAlchemyError as exc:  # the database is unreachable, or refuses us
        log.error("cannot open the league database %s: %s", settings.database, exc)
        if broker is not None:
            broker.stop()
        return 1
    bus = BusClient(mqtt, f"cashnguns-league-{secrets.token_hex(3)}", user=LEAGUE_USER)
    league = League(store, bus, settings.tables).start()
    bus.start()
    organiser = Organiser(settings.pin)
    server = DashboardServer(create_venue_app(league, organiser, dashboard), dashboard).start()
    log.info("league: venue page on http://%s:%s, organiser's %s, database %s, "
             "%d tables", server.host, server.port,
             pin_for_the_log(organiser.pin, settings.pin is not None), store.url,
             len(settings.tables))
    stop.wait()
    log.info("stopping")
    server.stop()
    bus.stop()
    league.stop()
    store.close()
    if broker is not None:
        broker.stop()
    return 0
