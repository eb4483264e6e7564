"""The broker's health as the referee's MQTT link tells it: the probe's watch (its own
thread) says "not answering", an echo (paho's thread) says "answering again". When an echo
landed while the watch was saying the broker had gone silent, the two could reach the table
in the wrong order: the table kept the broker down, no echo after said otherwise (the flag
said up), and every countdown was refused for the rest of the evening (seen at a league
night under load)."""

from __future__ import annotations

import threading

from waiting import wait_for

from companion.bus.client import BusClient
from companion.bus.settings import MqttSettings
from companion.bus.topics import Topics
from companion.clock import SYSTEM_CLOCK
from companion.referee.journal import Journal
from companion.referee.mqtt_link import BROKER, RefereeLink
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table


def broker_down(table: Table) -> bool:
    return any(o.link == BROKER for o in table.state.links.down())


def test_an_echo_while_the_watch_says_silent_leaves_the_broker_up(private_mosquitto):
    topics = Topics("watch")
    table = Table("watch", RefereeSettings(pin="2468"), Journal(":memory:"), SYSTEM_CLOCK)
    bus = BusClient(MqttSettings(port=private_mosquitto.port, embedded=False), "referee-watch")
    link = RefereeLink(table, bus, topics)
    told: list[tuple[bool, str]] = []
    raced = threading.Event()
    tell = table.link

    def link_told(name: str, up: bool, reason: str) -> None:
        if name == BROKER and reason == "not answering" and not raced.is_set():
            raced.set()
            # the broker answers just as the watch calls it silent: the echo's thread runs
            # now, while the watch is on its way to the table
            echo = threading.Thread(target=link._on_echo, args=(topics.referee_probe, b"1.000"))
            echo.start()
            echo.join(0.3)
        told.append((up, reason))
        tell(name, up, reason)

    table.link = link_told  # type: ignore[method-assign]
    stop = threading.Event()
    watch = threading.Thread(target=link.watch_broker, args=(stop,), daemon=True)
    link.start()
    try:
        bus.start(10)
        watch.start()
        wait_for(lambda: (True, "connected") in told and not broker_down(table), 10,
                 "the broker up")
        private_mosquitto.freeze(True)
        wait_for(lambda: (False, "not answering") in told, 10, "the watch to notice")
        private_mosquitto.freeze(False)
        wait_for(lambda: told[-1] == (True, "answering again") and not broker_down(table),
                 10, "the broker up again once it answers")
    finally:
        stop.set()
        watch.join(5)
        bus.stop()
        table.close()
