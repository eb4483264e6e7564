"""Topic names under `cashnguns/<table>/`, in one place (documented in docs/MQTT.md)."""

from __future__ import annotations

ROOT = "cashnguns"
ONLINE, OFFLINE = "online", "offline"


class Topics:
    """One table's topics: fixed names as attributes, per-seat ones as methods."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.base = f"{ROOT}/{table}"
        self.status = f"{self.base}/status"  # retained online/offline: the bridge's last will
        self.hub_seen = f"{self.base}/hub/seen"  # each round's looks (QoS 0, not retained)
        self.sim_command = f"{self.base}/sim/command"
        self.all = f"{self.base}/#"

    def gun(self, seat: int | str, kind: str) -> str:
        """`aim`, `raised` (retained state) or `lock` (the aimer's indicator, an event)."""
        return f"{self.base}/gun/{seat}/{kind}"

    def standee_posture(self, seat: int | str) -> str:
        return f"{self.base}/standee/{seat}/posture"

    def device(self, device: str, leaf: str) -> str:
        """`availability`, `info`, or `stat` (retained: a hub's own health figures, STAT,
        and the link's drop counts)."""
        return f"{self.base}/device/{device}/{leaf}"
