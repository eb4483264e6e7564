"""An MQTT client for the companion's parts: paho 2.x with the settings it always needs.

It connects in the background and reconnects on its own; subscriptions are made in the
connect callback, so a reconnect restores every one of them; TCP_NODELAY is set on the
socket (without it, Nagle's algorithm stalls bursts of small messages by 40 ms); an
optional status topic is the last will and is set `offline` on a clean stop. `user` names
the client's MQTT user (`sensors`, `referee`, `sim`, `viewer`): its password is read from
the credentials file at `start()` (see companion/bus/broker.py and docs/SECURITY.md).
"""

from __future__ import annotations

import logging
import select
import socket
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.bus.settings import MqttSettings
from companion.bus.topics import OFFLINE, ONLINE

log = logging.getLogger(__name__)

Handler = Callable[[str, bytes], None]


class BusClient:
    def __init__(self, settings: MqttSettings, client_id: str, status_topic: str | None = None,
                 qos: int | None = None, user: str | None = None) -> None:
        self.settings, self.status_topic, self.user = settings, status_topic, user
        self.qos = settings.qos if qos is None else qos
        self.connected = threading.Event()
        self.connects = 0
        self.handler_errors = 0
        self._subscriptions: dict[str, Handler] = {}
        self._on_connect: list[Callable[[], None]] = []
        self._on_disconnect: list[Callable[[str], None]] = []
        self._lock = threading.Lock()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                        protocol=mqtt.MQTTv311, clean_session=True)
        c.max_inflight_messages_set(1000)
        c.max_queued_messages_set(0)
        c.reconnect_delay_set(min_delay=1, max_delay=5)
        if settings.username is not None:
            c.username_pw_set(settings.username, settings.password)
        if settings.tls:
            c.tls_set(ca_certs=settings.ca_file)
        if status_topic:
            c.will_set(status_topic, OFFLINE, qos=self.qos, retain=True)
        c.on_socket_open = _set_nodelay
        c.on_connect = self._connected
        c.on_disconnect = self._disconnected
        c.on_message = self._unrouted
        self._client = c

    def start(self, wait_s: float | None = 5.0) -> BusClient:
        """Connect in the background; wait up to `wait_s` for the first connection.

        Raises BrokerError when the client's user has no credentials to read."""
        if self.user is not None:
            settings = self.settings.as_user(self.user)
            if settings.username is not None:
                self._client.username_pw_set(settings.username, settings.password)
        self._client.connect_async(self.settings.host, self.settings.port,
                                   keepalive=self.settings.keepalive)
        self._client.loop_start()
        if wait_s and not self.connected.wait(wait_s):
            log.warning("no MQTT connection to %s yet; retrying in the background",
                        self.settings.describe())
        return self

    def stop(self, wait_s: float = 2.0) -> None:
        """Say `offline` on the status topic, flush what is queued, disconnect."""
        if self.status_topic and self.connected.is_set():
            info = self.publish(self.status_topic, OFFLINE, retain=True)
            try:
                info.wait_for_publish(wait_s)
            except (RuntimeError, ValueError):
                log.warning("could not publish the offline status")
        self._client.disconnect()
        self._client.loop_stop()

    def publish(self, topic: str, payload: str | bytes, retain: bool = False,
                qos: int | None = None) -> mqtt.MQTTMessageInfo:
        """Queue a message; QoS 1 messages queued while disconnected go out on reconnect."""
        return self._client.publish(topic, payload, qos=self.qos if qos is None else qos,
                                    retain=retain)

    def unread(self) -> bool:
        """Whether bytes from the broker wait on the socket, not yet read: the broker has
        answered even when this client's network thread has not run to read it."""
        sock: Any = self._client.socket()
        if sock is None:
            return False
        if getattr(sock, "pending", lambda: 0)():  # TLS: bytes already decrypted
            return True
        try:
            return bool(select.select([sock], [], [], 0)[0])
        except (OSError, ValueError):  # closed under us: nothing to read
            return False

    def subscribe(self, topic_filter: str, handler: Handler) -> None:
        """Call `handler(topic, payload)` for each message; kept across reconnects."""
        with self._lock:
            self._subscriptions[topic_filter] = handler
        self._client.message_callback_add(topic_filter, self._guard(handler))
        if self.connected.is_set():
            self._client.subscribe(topic_filter, qos=self.qos)

    def on_connect(self, callback: Callable[[], None]) -> None:
        """Run `callback` on every (re)connection, after the subscriptions are made."""
        self._on_connect.append(callback)

    def on_disconnect(self, callback: Callable[[str], None]) -> None:
        """Run `callback(reason)` whenever the connection is lost or refused."""
        self._on_disconnect.append(callback)

    def _guard(self, handler: Handler) -> Callable:
        def on_message(_client: mqtt.Client, _userdata: object, msg: mqtt.MQTTMessage) -> None:
            try:
                handler(msg.topic, msg.payload)  # type: ignore[arg-type]  # bytes in practice
            except Exception:
                self.handler_errors += 1
                log.exception("handler for %s failed; message dropped", msg.topic)

        return on_message

    def _connected(self, client: mqtt.Client, _userdata: object, _flags: object,
                   reason: mqtt.ReasonCode, _props: object) -> None:
        if reason.is_failure:
            log.warning("MQTT connection refused by %s: %s", self.settings.describe(), reason)
            return
        with self._lock:
            filters = list(self._subscriptions)
        if filters:
            client.subscribe([(f, self.qos) for f in filters])
        if self.status_topic:
            client.publish(self.status_topic, ONLINE, qos=self.qos, retain=True)
        self.connects += 1
        log.info("MQTT connected to %s", self.settings.describe())
        for callback in self._on_connect:
            try:
                callback()
            except Exception:
                log.exception("on-connect callback failed")
        self.connected.set()

    def _disconnected(self, _client: mqtt.Client, _userdata: object, _flags: object,
                      reason: mqtt.ReasonCode, _props: object) -> None:
        self.connected.clear()
        if reason.value != 0:
            log.warning("MQTT connection to %s lost (%s); reconnecting",
                        self.settings.describe(), reason)
        for callback in self._on_disconnect:
            try:
                callback(str(reason))
            except Exception:
                log.exception("on-disconnect callback failed")

    def _unrouted(self, _client: mqtt.Client, _userdata: object, msg: mqtt.MQTTMessage) -> None:
        log.debug("message on %s matches no handler", msg.topic)


def on_the_wire(info: mqtt.MQTTMessageInfo, wait_s: float) -> bool:
    """Whether paho's thread wrote the message to the socket within `wait_s`."""
    try:
        info.wait_for_publish(wait_s)
        return info.is_published()
    except (RuntimeError, ValueError):  # not connected, or the queue refused it
        return False


def _set_nodelay(_client: mqtt.Client, _userdata: object, sock: object) -> None:
    raw: Any = getattr(sock, "socket", None) or sock  # TLS and WebSocket wrappers hold the socket
    try:
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):
        log.warning("could not set TCP_NODELAY on the MQTT socket")
