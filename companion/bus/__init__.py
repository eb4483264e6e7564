"""The MQTT seam: topic names, a client wrapper and the embedded broker."""
