"""Which seats of this table have a gun and a standee: a seat takes a player only with both.

Two sources: the sensors' config when the referee runs with it (a hub's slot
seats and the simulated table's seats are whole pods: badge, gun, standee; the Pi's pins
add standees and tilt switches), and what the referee has heard (a hub's slot schedule
from its device info, a reading from any seat's gun or standee), so a referee without the
sensors' config learns the table as it reports. With the config, the config alone says
which seats take a player: the broker keeps the readings of an earlier, larger table
(retained), and they must not offer its seats again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.referee.readings import Readings
from companion.sensors.settings import SensorSettings

SEATS = tuple(range(1, 9))


@dataclass(frozen=True)
class Kit:
    """The seats whose gun the hub's IR reads (aims), whose gun's raise is read, and whose
    standee is read."""

    ir: frozenset[int] = frozenset()
    tilt: frozenset[int] = frozenset()
    standee: frozenset[int] = frozenset()

    def __or__(self, other: Kit) -> Kit:
        return Kit(self.ir | other.ir, self.tilt | other.tilt, self.standee | other.standee)

    @property
    def known(self) -> bool:
        return bool(self.ir or self.tilt or self.standee)

    def seats(self) -> list[dict[str, Any]]:
        """Each seat 1 to 8: a gun (`ir` when aims are read), a standee."""
        return [{"seat": s, "gun": s in self.ir or s in self.tilt, "ir": s in self.ir,
                 "standee": s in self.standee} for s in SEATS]


def configured(sensors: SensorSettings | None) -> Kit:
    """What the sensors' config lists."""
    if sensors is None:
        return Kit()
    pods = frozenset(sensors.sim.guns).union(*(b.slot_seats for b in sensors.boards))
    guns = {p.seat for p in sensors.gpio.tilts} | set(sensors.gpio.imu.seats)  # read "raised"
    return Kit(pods, pods | guns, pods | {p.seat for p in sensors.gpio.standees})


def heard(readings: Readings) -> Kit:
    """What the referee has heard: the hub's looks cover whole pods, and a reading names
    its seat's gun or standee."""
    pods, sensed = frozenset(readings.matrix.seats), readings.heard()
    return Kit(pods | {s for s, kind in sensed if kind == "aim"},
               pods | {s for s, kind in sensed if kind in ("aim", "raised")},
               pods | {s for s, kind in sensed if kind == "posture"})


def offered(configured_kit: Kit, readings: Readings) -> Kit:
    """The equipment the New game form offers seats by: the config's, else what was heard."""
    return configured_kit if configured_kit.known else heard(readings)

