"""The broker's health as the referee's MQTT link tells it: the probe's watch (its own
thread) says "not answering", an echo (paho's thread) says "answering again". When an echo
landed while the watch was saying the broker had gone silent, the two could reach the table
in the wrong order: the table kept the broker down, no echo after said otherwise (the flag
said up), and every countdown was refused for the rest of the evening (seen at a league
night under load)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

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


@contextmanager
def watched(mosquitto) -> Iterator[tuple[RefereeLink, list[tuple[bool, str]]]]:
    """A table whose link to `mosquitto` is watched by the probe, connected and up; what
    the link told the table about the broker is listed as (up, reason)."""
    topics = Topics("watch")
    table = Table("watch", RefereeSettings(pin="2468"), Journal(":memory:"), SYSTEM_CLOCK)
    bus = BusClient(MqttSettings(port=mosquitto.port, embedded=False), "referee-watch")
    link = RefereeLink(table, bus, topics)
    told: list[tuple[bool, str]] = []
    tell = table.link

    def link_told(name: str, up: bool, reason: str) -> None:
        if name == BROKER:
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
        yield link, told
    finally:
        stop.set()
        watch.join(5)
        bus.stop()
        table.close()


def test_an_echo_while_the_watch_says_silent_leaves_the_broker_up(private_mosquitto):
    with watched(private_mosquitto) as (link, told):
        raced = threading.Event()
        tell = link.table.link

        def echo_meanwhile(name: str, up: bool, reason: str) -> None:
            if reason == "not answering" and not raced.is_set():
                raced.set()
                # the broker answers just as the watch calls it silent: the echo's thread
                # runs now, while the watch is on its way to the table
                echo = threading.Thread(target=link._on_echo,
                                        args=(link.topics.referee_probe, b"1.000"))
                echo.start()
                echo.join(0.3)
            tell(name, up, reason)

        link.table.link = echo_meanwhile  # type: ignore[method-assign]
        private_mosquitto.freeze(True)
        wait_for(lambda: (False, "not answering") in told, 10, "the watch to notice")
        private_mosquitto.freeze(False)
        wait_for(lambda: told[-1] == (True, "answering again") and not broker_down(link.table),
                 10, "the broker up again once it answers")


def test_a_referee_kept_waiting_does_not_take_the_broker_for_silent(private_mosquitto):
    """paho's thread held, as a starved process or a slow handler holds it: the probes stay
    queued, unsent, and an echo already on its way waits unread on the socket. The broker
    answered all along; once the hold ends, a real hang is still called."""
    with watched(private_mosquitto) as (link, told):
        held, release = threading.Event(), threading.Event()

        def hold(_topic: str, _payload: bytes) -> None:
            held.set()
            release.wait(20)

        probes: list[bytes] = []
        publish = link.bus.publish

        def counted(topic: str, payload: str | bytes, retain: bool = False,
                    qos: int | None = None):
            if topic == link.topics.referee_probe:
                probes.append(bytes(payload, "ascii") if isinstance(payload, str) else payload)
            return publish(topic, payload, retain, qos)

        link.bus.publish = counted  # type: ignore[method-assign]
        link.bus.subscribe("watch/hold", hold)
        publish("watch/hold", b"hold", qos=1)
        try:
            wait_for(held.is_set, 10, "paho's thread held by the handler")
            first = len(probes)
            # five probes sent while held: 1 s at least, twice the silence that calls a hang
            wait_for(lambda: len(probes) >= first + 5, 20, "the watch's probes while held")
            assert (False, "not answering") not in told
        finally:
            release.set()
        private_mosquitto.freeze(True)
        wait_for(lambda: (False, "not answering") in told, 10, "a real hang called after it")
        private_mosquitto.freeze(False)
        wait_for(lambda: told[-1] == (True, "answering again"), 10, "the broker up again")
