"""Cash 'n Guns table companion: sensors, MQTT, referee, rules engine and dashboard."""

__version__ = "0.1.0"
