"""The embedded broker: loopback only, and a working MQTT broker for independent clients."""

import queue

import pytest

from companion.bus.broker import EmbeddedBroker
from companion.bus.client import BusClient
from companion.bus.settings import MqttSettings


def listening_addresses(port: int) -> set[str]:
    """Local addresses of TCP sockets listening on `port`, from /proc/net/tcp."""
    found = set()
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            addr, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(".".join(str(int(addr[i:i + 2], 16)) for i in (6, 4, 2, 0)))
    return found


def test_it_listens_on_loopback_only(embedded_broker):
    assert listening_addresses(embedded_broker.port) == {"127.0.0.1"}


def test_it_carries_retained_messages_between_independent_clients(embedded_broker, observe):
    settings = MqttSettings(port=embedded_broker.port)
    pub = BusClient(settings, "emb-pub", status_topic="emb/status").start()
    try:
        pub.publish("emb/state", '{"x": 1}', retain=True).wait_for_publish(5)
        obs = observe(embedded_broker.port, "emb/#")
        assert obs.expect("emb/state", retained=True) == '{"x": 1}'
        got = queue.Queue()
        sub = BusClient(settings, "emb-sub").start()
        sub.subscribe("emb/#", lambda t, p: got.put(p))
        while got.get(timeout=5) != b'{"x": 1}':  # retained: the subscription is in place
            pass
        pub.publish("emb/live", "hi")
        while got.get(timeout=5) != b"hi":
            pass
        sub.stop()
    finally:
        pub.stop()


def test_a_port_in_use_is_a_clear_error(embedded_broker):
    with pytest.raises(RuntimeError, match=f"cannot listen on 127.0.0.1:{embedded_broker.port}"):
        EmbeddedBroker(port=embedded_broker.port).start()
