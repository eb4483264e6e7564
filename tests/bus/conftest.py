"""The table's broker as the companion starts it (a Mosquitto child), and `peer`s."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from brokerkit import TABLE, Peer  # tests/bus/brokerkit.py

from companion.bus.broker import EmbeddedBroker, mosquitto_binary


@pytest.fixture
def table_broker(tmp_path, unused_port) -> Iterator[EmbeddedBroker]:
    """The companion's broker for table `acl`, simulated, saving its retained state each 1 s."""
    if mosquitto_binary() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    broker = EmbeddedBroker(unused_port, state_dir=tmp_path / "broker", table=TABLE,
                            simulated=True, autosave_s=1).start()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def peer(table_broker) -> Iterator:
    """`peer(user=None, password=None, subscribe=None)`: a client of the table's broker;
    `user` alone takes that user's own password."""
    peers: list[Peer] = []
    creds = table_broker.credentials

    def connect(user: str | None = None, password: str | None = None,
                subscribe: str | None = None) -> Peer:
        if user is not None and password is None:
            password = creds[user]
        peers.append(Peer(table_broker.port, user, password, subscribe))
        return peers[-1]

    yield connect
    for p in peers:
        p.close()
