"""`companion sensors`: only the sensor bridge, for a Pi that senses and publishes."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading

from companion.config import ConfigError, load

HELP = "run the sensor bridge alone: sensors to MQTT until SIGINT or SIGTERM"
log = logging.getLogger("companion.sensors")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="YAML config (default: $COMPANION_CONFIG or config/table.sim.yaml)")
    parser.add_argument("--log-level", default="INFO",
                        choices=["DEBUG", "INFO", "WARNING", "ERROR"])


def setup_logging(level: str) -> None:
    logging.basicConfig(stream=sys.stderr, level=level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("transitions", "amqtt"):  # the embedded broker's chatter
        logging.getLogger(noisy).setLevel(max(logging.WARNING, logging.getLogger().level))


def run(args: argparse.Namespace) -> int:
    setup_logging(args.log_level)
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"config error: {exc}", file=sys.stderr)
        return 2
    from companion.sensors import build_bridge

    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    bridge = build_bridge(config)
    try:
        bridge.start()
    except (RuntimeError, OSError) as exc:
        log.error("cannot start: %s", exc)
        bridge.stop()
        return 1
    log.info("sensors running: %s, topics under %s/ (config %s)", config.mqtt.describe(),
             bridge.topics.base, config.file)
    while not stop.wait(0.5):
        pass
    log.info("stopping")
    bridge.stop()
    return 0
