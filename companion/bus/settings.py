"""The `mqtt:` config section: where the broker is, or that the companion hosts one."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from companion.config import Node

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


@dataclass(frozen=True)
class MqttSettings:
    host: str = "127.0.0.1"
    port: int = 1883
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    keepalive: int = 10
    qos: int = 0  # of what we publish and subscribe to; see docs/MQTT.md
    embedded: bool = True  # no url: the companion starts its own broker on host:port

    def describe(self) -> str:
        kind = "embedded broker" if self.embedded else "broker"
        return f"{kind} at {'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse(node: Node) -> MqttSettings:
    """`url: mqtt[s]://[user[:password]@]host[:port]`; without it, an embedded broker.

    QoS defaults to 1 with a real broker (messages survive a reconnect) and to 0 with the
    embedded one: its connection is loopback in the same process and cannot drop alone,
    and QoS 1 halves what the in-process broker can carry.
    """
    keepalive = node.integer("keepalive", 10, lo=2, hi=600)
    url = node.text("url", None)
    qos = node.integer("qos", 1 if url else 0, lo=0, hi=1)
    if url is None:
        port = node.integer("embedded_port", 1883, lo=0, hi=65535)
        node.done()
        return MqttSettings(port=port, keepalive=keepalive, qos=qos)
    parts = urlsplit(url)
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise node.error("url", f"must be like mqtt://host:1883 or mqtts://host:8883, not {url!r}")
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise node.error("url", f"has a bad port: {url!r}") from None
    username = node.text("username", unquote(parts.username) if parts.username else None)
    password = node.text("password", unquote(parts.password) if parts.password else None)
    ca_file = node.text("ca_file", None)
    if ca_file is not None and parts.scheme != "mqtts":
        raise node.error("ca_file", "only applies to an mqtts:// url")
    node.done()
    return MqttSettings(
        host=parts.hostname, port=port, tls=parts.scheme == "mqtts", username=username,
        password=password, ca_file=ca_file, keepalive=keepalive, qos=qos, embedded=False,
    )
