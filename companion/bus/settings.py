"""The `mqtt:` config section: where the broker is, or that the companion hosts one."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import unquote, urlsplit

from companion.config import Node

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}  # a broker url's port when it names none


@dataclass(frozen=True)
class MqttSettings:
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORTS["mqtt"]
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    keepalive: int = 10
    qos: int = 1  # of what we publish and subscribe to; see docs/MQTT.md
    embedded: bool = True  # no url: the companion starts its own broker on host:port
    state_dir: Path = Path("var/broker")  # the companion's broker: its files and credentials
    credentials: Path | None = None  # a credentials.json with a password per user

    def describe(self) -> str:
        kind = "the table's broker" if self.embedded else "broker"
        return f"{kind} at {'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    @property
    def credentials_file(self) -> Path | None:
        return self.state_dir / "credentials.json" if self.embedded else self.credentials

    def as_user(self, user: str | None) -> MqttSettings:
        """These settings with `user`'s password from the credentials file: the companion's
        broker's own, or `credentials` for another broker (else the url's user, if any)."""
        path = self.credentials_file
        if user is None or path is None:
            return self
        from companion.bus.broker import load_credentials

        creds = load_credentials(path)
        if user not in creds:
            from companion.bus.broker import BrokerError

            raise BrokerError(f"{path}: has no password for the MQTT user {user!r}")
        return replace(self, username=user, password=creds[user])


def parse(node: Node) -> MqttSettings:
    """`url: mqtt[s]://[user[:password]@]host[:port]`; without it, an embedded broker.

    Without a url the companion runs Mosquitto itself on 127.0.0.1:`embedded_port`, with its
    files in `state_dir`. QoS defaults to 1: messages queued while the broker restarts are
    delivered after it (the table's broker is a child process that can die alone).
    `credentials`: a credentials.json (as the companion writes) giving each client its user.
    """
    d = MqttSettings()
    keepalive = node.integer("keepalive", d.keepalive, lo=2, hi=600)
    url = node.text("url", None)
    qos = node.integer("qos", d.qos, lo=0, hi=1)
    if url is None:
        port = node.integer("embedded_port", d.port, lo=0, hi=65535)
        state_dir = Path(node.text("state_dir", str(d.state_dir)))
        node.done()
        return MqttSettings(port=port, keepalive=keepalive, qos=qos, state_dir=state_dir)
    try:
        parts = urlsplit(url)
        parts.hostname  # noqa: B018 - parsing the host refuses a malformed IPv6 address
    except ValueError as exc:
        raise node.error("url", f"is not a broker URL ({exc}): {url!r}") from None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise node.error("url", f"must be like mqtt://host:1883 or mqtts://host:8883, not {url!r}")
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise node.error("url", f"has a bad port: {url!r}") from None
    username = node.text("username", unquote(parts.username) if parts.username else None)
    password = node.text("password", unquote(parts.password) if parts.password else None)
    ca_file = node.text("ca_file", None)
    credentials = node.text("credentials", None)
    if ca_file is not None and parts.scheme != "mqtts":
        raise node.error("ca_file", "only applies to an mqtts:// url")
    node.done()
    return MqttSettings(
        host=parts.hostname, port=port, tls=parts.scheme == "mqtts", username=username,
        password=password, ca_file=ca_file, keepalive=keepalive, qos=qos, embedded=False,
        credentials=Path(credentials) if credentials else None,
    )
