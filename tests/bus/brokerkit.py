"""A plain paho client of the table's broker, connected as a given user (or none), to see
what the broker lets through; the test table's names."""

from __future__ import annotations

import queue
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

TABLE = "acl"
BASE = f"cashnguns/{TABLE}"


class Peer:
    """One paho client: `refused` says whether the broker turned its connection down."""

    _n = 0

    def __init__(self, port: int, user: str | None = None, password: str | None = None,
                 subscribe: str | None = None) -> None:
        Peer._n += 1
        self.messages: queue.Queue[tuple[str, bytes, bool]] = queue.Queue()
        self.answered = threading.Event()
        self.subscribed = threading.Event()
        self.refused: bool | None = None
        self.granted: list[int] = []
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"peer-{Peer._n}",
                        protocol=mqtt.MQTTv311)
        if user is not None:
            c.username_pw_set(user, password)
        c.on_connect = self._connected
        c.on_message = lambda _c, _u, m: self.messages.put((m.topic, m.payload, bool(m.retain)))
        c.on_subscribe = self._subscribed
        self.topic = subscribe
        self.client = c
        c.connect("127.0.0.1", port, keepalive=10)
        c.loop_start()
        assert self.answered.wait(5), "the broker did not answer the connection"
        if subscribe is not None and not self.refused:
            assert self.subscribed.wait(5), "the broker did not answer the subscription"

    def _connected(self, client, _u, _flags, reason, _props) -> None:
        self.refused = reason.is_failure
        if self.refused:
            client.disconnect()  # or paho would retry for ever
        elif self.topic is not None:
            client.subscribe(self.topic, qos=1)
        self.answered.set()

    def _subscribed(self, _c, _u, _mid, reasons, _props) -> None:
        self.granted = [r.value for r in reasons]
        self.subscribed.set()

    def publish(self, topic: str, payload: str, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        if not self.refused:
            info.wait_for_publish(5)  # acknowledged (Mosquitto acks what its ACL drops too)

    def take(self, timeout: float = 5.0) -> tuple[str, bytes, bool]:
        return self.messages.get(timeout=timeout)

    def nothing(self, within: float = 0.5) -> list[tuple[str, bytes, bool]]:
        """Whatever arrives within `within` s (a test asserts it is empty)."""
        got = []
        try:
            while True:
                got.append(self.messages.get(timeout=within))
        except queue.Empty:
            return got

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
