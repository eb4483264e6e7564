"""The sensor layer: GPIO, serial and simulated backends turned into facts on MQTT.

`build_bridge(config)` gives the whole bridge for a checked config (companion.config).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.config import Config
    from companion.sensors.bridge import SensorBridge


def build_bridge(config: Config, **options: Any) -> SensorBridge:
    """The sensor bridge for `config`, not started yet (see SensorBridge for options)."""
    from companion.sensors.bridge import SensorBridge

    return SensorBridge(config, **options)
