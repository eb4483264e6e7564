"""Topic names under `cashnguns/<table>/`, in one place (documented in docs/MQTT.md)."""

from __future__ import annotations

from dataclasses import dataclass

ROOT = "cashnguns"
ONLINE, OFFLINE = "online", "offline"


@dataclass(frozen=True)
class Topics:
    table: str

    @property
    def base(self) -> str:
        return f"{ROOT}/{self.table}"

    @property
    def status(self) -> str:
        """Retained `online`/`offline`: the sensor bridge's last will."""
        return f"{self.base}/status"

    def gun(self, seat: int | str, kind: str) -> str:
        """`aim`, `raised` (retained state) or `lock` (the aimer's indicator, an event)."""
        return f"{self.base}/gun/{seat}/{kind}"

    @property
    def hub_seen(self) -> str:
        """Every gun's look in each round the hub reports (QoS 0, not retained)."""
        return f"{self.base}/hub/seen"

    def standee_posture(self, seat: int | str) -> str:
        return f"{self.base}/standee/{seat}/posture"

    def device(self, device: str, leaf: str) -> str:
        """`availability`, `info`, or `stat` (retained: a hub's own health figures, STAT,
        and the link's drop counts)."""
        return f"{self.base}/device/{device}/{leaf}"

    @property
    def sim_command(self) -> str:
        return f"{self.base}/sim/command"

    @property
    def all(self) -> str:
        return f"{self.base}/#"
