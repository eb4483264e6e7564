"""`companion sensors`: only the sensor bridge, for a Pi that senses and publishes."""

from __future__ import annotations

import argparse
import logging

from companion.commandline import add_config_argument, prepare

HELP = "run the sensor bridge alone: sensors to MQTT until SIGINT or SIGTERM"
log = logging.getLogger("companion.sensors")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser, log_level=True)


def run(args: argparse.Namespace) -> int:
    prepared = prepare(args.config, args.log_level)
    if prepared is None:
        return 2
    config, stop = prepared
    from companion.runner import start_sensors

    try:
        broker, bridge = start_sensors(config)
    except (RuntimeError, OSError) as exc:
        log.error("cannot start: %s", exc)
        return 1
    log.info("sensors running: %s, topics under %s/ (config %s)", config.mqtt.describe(),
             bridge.topics.base, config.file)
    while not stop.wait(0.5):
        pass
    log.info("stopping")
    bridge.stop()
    if broker is not None:
        broker.stop()
    return 0
