"""Everything `companion run` starts, in order, and stops in reverse: one place for both
`companion run` and `companion demo`, and for the sensor side alone (`companion sensors`):
the table's broker, with what the referee and the league need of it, is started here."""

from __future__ import annotations

import faulthandler
import logging
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.clock import SYSTEM_CLOCK
from companion.config import Config
from companion.pins import pin_for_the_log
from companion.service.notify import Heartbeat, Notifier

log = logging.getLogger("companion.run")


@dataclass
class Running:
    table: Any
    bridge: Any
    server: Any
    bus: Any
    journal: Any
    broker: Any  # the table's own Mosquitto; None when mqtt.url names another broker
    stop_event: threading.Event
    wake: threading.Event
    notifier: Notifier
    announcer: Any = None  # the mDNS name, when dashboard.mdns is on
    league: Any = None  # the league reporter (companion/league/reporter.py), if any

    @property
    def url(self) -> str:
        return f"http://{self.server.host}:{self.server.port}"

    def stop(self) -> None:
        self.notifier.stopping()
        if self.announcer is not None:
            self.announcer.stop()
        self.stop_event.set()
        self.wake.set()
        if self.league is not None:
            self.league.stop()
        self.server.stop()
        self.table.close()  # every change published, every input on disk
        self.bus.stop()
        self.bridge.stop()
        if self.broker is not None:
            self.broker.stop()
        self.journal.close()
        self.notifier.close()


def start_table(config: Config, journal_path: str | None = None, host: str | None = None,
                port: int | None = None) -> Running:
    """Sensors (and the embedded broker), referee, MQTT link and dashboard, started; then
    systemd told that the table is ready, when it runs us (docs/INSTALL.md)."""
    from companion.bus.client import BusClient
    from companion.bus.topics import Topics
    from companion.dashboard.app import create_app
    from companion.dashboard.server import DashboardServer
    from companion.league.reporter import Reporter
    from companion.league.roster_api import roster_blueprint
    from companion.referee.equipment import configured
    from companion.referee.journal import Journal
    from companion.referee.mqtt_link import RefereeLink
    from companion.referee.table import Table

    referee = config["referee"]
    dashboard = config["dashboard"]
    if host is not None or port is not None:
        dashboard = replace(dashboard, host=host or dashboard.host,
                            port=dashboard.port if port is None else port)
    if dashboard.mdns and dashboard.public_url is None and dashboard.port:
        from companion.service.mdns import announced_url

        # the phones' QR codes carry the announced name (pages.py reads public_url)
        dashboard = replace(dashboard, public_url=announced_url(config.table, dashboard.port))
    notifier = Notifier.from_environ()  # before the broker starts: it must not inherit it
    if not faulthandler.is_enabled():  # (a test runner may have its own)
        faulthandler.enable()  # the watchdog's SIGABRT: every thread's stack to the log
    journal = Journal(Path(journal_path) if journal_path else referee.journal,
                      keep_games=referee.keep_games)
    try:
        broker, bridge = start_sensors(config)
    except (RuntimeError, OSError):
        journal.close()
        raise
    sensors = config.sensors
    table = Table(config.table, referee, journal, SYSTEM_CLOCK,
                  simulator=bridge.sim if sensors.simulated else None,
                  sensored=configured(sensors))
    if referee.buzzer_pin is not None:
        from companion.referee.buzzer import buzzer_for
        from companion.sensors.gpio import make_pin_factory

        factory = bridge.gpio.factory if bridge.gpio else make_pin_factory(
            sensors.gpio.pin_factory)
        buzzer_for(table, referee.buzzer_pin, factory)
    topics = Topics(config.table)
    bus = BusClient(config.mqtt, f"cashnguns-{config.table}-referee",
                    status_topic=topics.referee_status, user="referee")
    link = RefereeLink(table, bus, topics, referee.home_assistant, referee.discovery_prefix)
    link.start()
    league = config["league"]
    reporter = Reporter(table, bus, league).start() if league.reports else None
    bus.start()
    stop = threading.Event()
    threading.Thread(target=link.watch_broker, args=(stop,), name="broker-probe",
                     daemon=True).start()
    wake = threading.Event()
    table.subscribe(lambda _revision: wake.set())
    threading.Thread(target=_drive, args=(table, stop, wake, notifier.heartbeat()),
                     name="referee-time", daemon=True).start()
    app = create_app(table, dashboard, sensors)
    app.register_blueprint(roster_blueprint(reporter))  # the New game form's league names
    server = DashboardServer(app, dashboard).start()
    announcer = None
    if dashboard.mdns:
        from companion.service.mdns import Announcer

        announcer = Announcer(config.table, dashboard.host, int(server.port)).start()
    game = f"game {table.game.id} resumed" if table.game else "no game yet"
    log.info("table %s: dashboard on http://%s:%s, %s, %s, journal %s", config.table,
             server.host, server.port,
             pin_for_the_log(table.access.pin, referee.pin is not None), game, journal.path)
    notifier.ready(f"table {config.table}: dashboard on port {server.port}, {game}")
    return Running(table, bridge, server, bus, journal, broker, stop, wake, notifier,
                   announcer, reporter)


def start_broker(config: Config) -> Any:
    """The table's own Mosquitto, started, when no `mqtt.url` names a broker (else None):
    its ACL lets the referee publish Home Assistant discovery under the referee's prefix,
    and its conf ends with the bridge to a venue's league, if the table reports to one."""
    mqtt = config.mqtt
    if not mqtt.embedded:
        return None
    from companion.bus.broker import EmbeddedBroker
    from companion.league.bridge import table_bridge

    return EmbeddedBroker(mqtt.port, mqtt.host, mqtt.state_dir, config.table,
                          config.sensors.simulated,
                          discovery_prefix=config["referee"].discovery_prefix,
                          extra_conf=table_bridge(config)).start()


def start_sensors(config: Config, **options: Any) -> tuple[Any, Any]:
    """The table's broker (if it runs its own) and the sensor bridge, started: (broker,
    bridge). Options go to the bridge (companion.sensors.bridge.SensorBridge); if the bridge
    cannot start, the broker is stopped again."""
    from companion.sensors import build_bridge

    broker = start_broker(config) if options.get("publish", True) else None
    bridge = build_bridge(config, **options)
    try:
        bridge.start()
    except (RuntimeError, OSError):
        bridge.stop()
        if broker is not None:
            broker.stop()
        raise
    return broker, bridge


def _drive(table: Any, stop: threading.Event, wake: threading.Event,
           heartbeat: Heartbeat | None = None) -> None:
    """The referee's one time driver: it sleeps until the table's next deadline or a change
    (a fact, a command), never polling, so an idle table costs nothing. Under systemd's
    watchdog it also comes round for each ping: a referee stuck on its lock stops pinging
    and is restarted."""
    while not stop.is_set():
        deadline = table.next_deadline()
        timeout = None if deadline is None else max(0.0, (deadline - table.clock.now_ms()) / 1000)
        wake.wait(timeout if heartbeat is None else heartbeat.wait_at_most(timeout))
        wake.clear()
        try:
            table.tick()
        except Exception:
            log.exception("referee tick failed")
        if heartbeat is not None:
            heartbeat.beat()
