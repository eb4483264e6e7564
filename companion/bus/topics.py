"""Every MQTT topic name, in one place (documented in docs/MQTT.md and docs/LEAGUE.md): a
table's own under `cashnguns/<table>/`, the league's under `cashnguns/_league/` (a table id
cannot start with `_`, so no table owns it), and Home Assistant's discovery topics. The
brokers' ACLs and the league's bridge are written from these names too."""

from __future__ import annotations

import re

ROOT = "cashnguns"
ONLINE, OFFLINE = "online", "offline"
DISCOVERY_PREFIX = "homeassistant"  # Home Assistant's own default discovery prefix
SEATS = range(1, 9)  # a table's seat numbers, as its topics name them

# A table's topics, relative to its base: the leaves every table has.
FACT_LEAVES = ("gun/+/aim", "gun/+/raised", "gun/+/lock", "standee/+/posture", "hub/seen")
# A fact's topic read back: (gun, seat, kind) or (standee, seat, posture) or (hub, seen).
FACT_TOPIC = re.compile(r".*/(?:(gun)/([^/]+)/(aim|raised|lock)|(standee)/([^/]+)/(posture)"
                        r"|(hub)/(seen))$")
SENSOR_TREES = ("gun/#", "standee/#", "hub/#", "device/#", "status")  # the sensor bridge's
GAME_TREES = ("game/#", "player/#", "referee/#")  # the referee's
LEAGUE_TREE = "league/#"  # results to the venue's league, its acks (docs/LEAGUE.md)
GAME_STATE, GAME_EVENT = "game/state", "game/event"
REFEREE_STATUS, REFEREE_PROBE = "referee/status", "referee/probe"
LEAGUE_RESULT, LEAGUE_ACK, BRIDGE_STATE = "league/result", "league/ack", "bridge/state"
SIM_COMMAND = "sim/command"

# What a table's bridge carries up to the venue: the public game, its status, its results;
# and down: the acks. What a venue's viewer may read of every table.
UP = (GAME_STATE, GAME_EVENT, REFEREE_STATUS, LEAGUE_RESULT)
DOWN = (LEAGUE_ACK,)
VENUE_PUBLIC = ("game/#", REFEREE_STATUS, BRIDGE_STATE)

LEAGUE_BASE = f"{ROOT}/_league"
ROSTER = f"{LEAGUE_BASE}/roster"  # the league's players, retained
EVERYTHING = f"{ROOT}/#"


def every_table(leaf: str) -> str:
    """`leaf` of every table at a venue (a subscription or an ACL line)."""
    return f"{ROOT}/+/{leaf}"


def table_of(topic: str) -> str | None:
    """The table id of a `cashnguns/<table>/...` topic; None for the league's own."""
    parts = topic.split("/")
    if len(parts) < 3 or parts[0] != ROOT or parts[1].startswith("_"):
        return None
    return parts[1]


class Topics:
    """One table's topics: fixed names as attributes, per-seat ones as methods."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.base = f"{ROOT}/{table}"
        self.status = self.leaf("status")  # retained online/offline: the bridge's last will
        self.hub_seen = self.leaf("hub/seen")  # each round's looks (QoS 0, not retained)
        self.sim_command = self.leaf(SIM_COMMAND)
        self.all = self.leaf("#")
        self.game_state = self.leaf(GAME_STATE)  # retained: the public view
        self.game_event = self.leaf(GAME_EVENT)
        self.referee_status = self.leaf(REFEREE_STATUS)  # retained: the referee's last will
        self.referee_probe = self.leaf(REFEREE_PROBE)  # the referee's own echo
        self.league_result, self.league_ack = self.leaf(LEAGUE_RESULT), self.leaf(LEAGUE_ACK)
        self.bridge_state = self.leaf(BRIDGE_STATE)  # the venue link's notification
        self.device_info = self.device("+", "info")

    def leaf(self, leaf: str) -> str:
        """`leaf` (e.g. `game/#`) under this table's base."""
        return f"{self.base}/{leaf}"

    def gun(self, seat: int | str, kind: str) -> str:
        """`aim`, `raised` (retained state) or `lock` (the aimer's indicator, an event)."""
        return self.leaf(f"gun/{seat}/{kind}")

    def standee_posture(self, seat: int | str) -> str:
        return self.leaf(f"standee/{seat}/posture")

    def device(self, device: str, leaf: str) -> str:
        """`availability`, `info`, or `stat` (retained: a hub's own health figures, STAT,
        and the link's drop counts)."""
        return self.leaf(f"device/{device}/{leaf}")

    def player_event(self, seat: int | str) -> str:
        """What happened to the player at `seat` (Home Assistant's event entity reads it)."""
        return self.leaf(f"player/{seat}/event")

    @property
    def device_id(self) -> str:
        """The table's Home Assistant device id; its entities' unique ids start with it."""
        return f"{ROOT}_{self.table}"

    def entity(self, key: str) -> str:
        """The Home Assistant unique id of one of the table's entities (`phase`,
        `seat2_wounds`...)."""
        return f"{self.device_id}_{key}"

    def seat_entity(self, seat: int) -> str:
        """The Home Assistant unique id of a seat's event entity."""
        return self.entity(f"seat{seat}")

    def discovery(self, seat: int, prefix: str = DISCOVERY_PREFIX) -> str:
        """Where a seat's event entity was announced alone before the device-based
        discovery: cleared at start (retained), so no old entity stays beside the device."""
        return f"{prefix}/event/{self.seat_entity(seat)}/config"

    def device_discovery(self, prefix: str = DISCOVERY_PREFIX) -> str:
        """The one retained message announcing the table's device and all its entities."""
        return f"{prefix}/device/{self.device_id}/config"

    def discovery_trees(self, prefix: str = DISCOVERY_PREFIX) -> list[str]:
        """Every discovery topic of this table, as ACL patterns: the device's and the
        seats' old ones (to clear them)."""
        return [f"{prefix}/device/{self.device_id}/#"] + [
            f"{prefix}/+/{self.seat_entity(n)}/#" for n in SEATS]


def birth(prefix: str = DISCOVERY_PREFIX) -> str:
    """Home Assistant's birth and last will (`online` / `offline`): on `online` the
    discovery is published again."""
    return f"{prefix}/status"
