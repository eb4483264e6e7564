"""`companion doctor`: which sensors are configured, what they say now, what is missing;
and the installed service, when there is one (companion/service/checks.py).

With a sensor bridge running it reads the bridge's retained topics; with none it runs
the sensors itself for a moment (ports must be free) and reports what they said.
`--ir-matrix` prints who sees whom instead: for each gun (row) and badge (column), the
share of the last second's looks in which that gun saw that badge.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import threading
import time

from companion.bus.broker import BrokerError
from companion.bus.client import BusClient
from companion.bus.topics import ONLINE, Topics
from companion.clock import SYSTEM_CLOCK
from companion.commandline import add_config_argument, setup_logging
from companion.config import Config, ConfigError, load
from companion.sensors import pi_imu
from companion.sensors.facts import Fact
from companion.service.checks import service_report
from companion.service.layout import Layout

HELP = "list configured sensor devices with their live state and say what is missing"
QUIET_S = 0.3  # retained messages arrive in a burst; this long without one ends it
BURST_S = 1.0  # and it is over this long after the status came, however busy the table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--listen", type=float, default=1.5, metavar="SECONDS",
                        help="how long to listen to the sensors when no bridge runs (1.5)")
    parser.add_argument("--ir-matrix", action="store_true",
                        help="print the live visibility matrix: which gun sees which badge")


def run(args: argparse.Namespace) -> int:
    setup_logging("ERROR")
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"config error: {exc}")
        return 2
    print(f"config {config.file}: table {config.table!r}, {config.mqtt.describe()}")
    if args.ir_matrix:
        return ir_matrix(config)
    retained = read_live(config, args.listen)
    if retained is not None:
        print("live state from the running sensor bridge")
    else:
        print(f"no sensor bridge running; listening to the sensors for {args.listen:g} s")
        retained = probe(config, args.listen)
    lines, missing = report(config, retained, SYSTEM_CLOCK.now_ms())
    service_lines, service_problems = service_report(Layout(), config)
    lines += service_lines
    missing += service_problems
    print("\n".join(lines))
    if missing:
        print("missing:")
        print("\n".join(f"  - {m}" for m in missing))
        return 1
    print("nothing missing")
    return 0


def read_live(config: Config, timeout_s: float) -> dict[str, bytes] | None:
    """The retained topics of a running bridge, or None when there is no bridge."""
    topics = Topics(config.table)
    retained: dict[str, bytes] = {}
    heard, got_status = threading.Event(), threading.Event()

    def on_message(topic: str, payload: bytes) -> None:
        if topic in (topics.hub_seen, topics.referee_probe) or topic.endswith("/lock"):
            return  # a stream of events, not state: it never goes quiet while a game runs
        retained[topic] = payload
        heard.set()
        if topic == topics.status:
            got_status.set()

    bus = BusClient(config.mqtt, f"cashnguns-{config.table}-doctor-{os.getpid()}",
                    user="viewer")
    bus.subscribe(topics.all, on_message)
    try:
        bus.start(wait_s=min(timeout_s, 2.0))
    except BrokerError:
        return None  # the table's broker never ran here: nothing live to read
    try:
        if not bus.connected.is_set() or not got_status.wait(timeout_s):
            return None
        ends = SYSTEM_CLOCK.now_ms() + BURST_S * 1000
        # until the retained burst has gone quiet for QUIET_S, or BURST_S has passed
        while heard.wait(QUIET_S) and SYSTEM_CLOCK.now_ms() < ends:
            heard.clear()
    finally:
        bus.stop()
    return retained if retained.get(topics.status) == ONLINE.encode() else None


class _MemoryBus:
    """Stands in for the broker when the doctor runs the sensors itself."""

    def __init__(self) -> None:
        self.retained: dict[str, bytes] = {}

    def publish(self, topic: str, payload: str, retain: bool = False,
                qos: int | None = None) -> None:
        if retain:
            self.retained[topic] = payload.encode()

    def on_connect(self, _callback: object) -> None:
        pass


def probe(config: Config, listen_s: float) -> dict[str, bytes]:
    from companion.sensors import build_bridge
    from companion.sensors.codec import MqttPublisher

    bus = _MemoryBus()
    bridge = build_bridge(config, publish=False)
    bridge.add_sink(MqttPublisher(bus, bridge.topics))  # type: ignore[arg-type]
    bridge.start()
    try:
        time.sleep(listen_s)  # the sensors report on their own schedule: listen for a while
        return dict(bus.retained)
    finally:
        bridge.stop()


def report(config: Config, retained: dict[str, bytes], now_ms: float
           ) -> tuple[list[str], list[str]]:
    """Lines describing devices and seats, and a list of what is missing."""
    topics = Topics(config.table)
    data = {t: _json(p) for t, p in retained.items()}
    infos = {d["device"]: d for t, d in data.items() if t.endswith("/info") and d}
    seen: dict[str, float] = {}
    for d in data.values():
        if d and "device" in d and "t" in d:
            seen[d["device"]] = max(seen.get(d["device"], 0.0), d["t"])
    lines, missing, notes = ["devices:"], [], []
    for dev, info in sorted(infos.items()):
        where = " ".join(str(x) for x in (info.get("kind"), info.get("port") or "") if x)
        state = "online" if info.get("online") else f"OFFLINE ({info.get('reason')})"
        fw = f" fw {info['firmware']}" if info.get("firmware") else ""
        age = (now_ms - seen.get(dev, info.get("t", now_ms))) / 1000
        lines.append(f"  {dev:<12} {state:<22} {info.get('backend')} {where}{fw}"
                     f", last report {age:.1f} s ago")
    sensors = config.sensors
    hubs = [*sensors.boards, *([sensors.SIM_HUB] if sensors.sim.guns else [])]
    hub_seats: set[int] = set()
    for board in hubs:
        name = board if isinstance(board, str) else board.name
        info = next((i for i in infos.values() if i.get("name") == name), None)  # type: ignore[arg-type]
        if info is None:
            where = board if isinstance(board, str) else (board.port or _usb(board.usb))
            missing.append(f"hub {name} ({where}): never answered (not plugged in, wrong "
                           "port, or not running the firmware?)")
            continue
        hub_seats |= set(info.get("seats") or ())
        stat = data.get(topics.device(info["device"], "stat"))
        if stat:
            lines.append(f"  {info['device']:<12} rounds {stat.get('rounds', '?')}, late "
                         f"{stat.get('late', '?')}, noise {stat.get('noise', '?')}, dropped "
                         f"{stat.get('dropped', '?')} (hub); lines {stat.get('lines')}, "
                         f"dropped here {stat.get('lines_dropped')}")
            for seat in stat.get("blind") or ():
                notes.append(f"seat {seat}: its gun has not seen any badge yet (point it at "
                             "a player; if it never sees one: receiver, aperture or cable)")
        if not info.get("online"):
            missing.append(f"hub {name}: offline ({info.get('reason')})")
    missing += _imu_problems(config, infos.get(pi_imu.DEVICE),
                             data.get(topics.device(pi_imu.DEVICE, "stat")))
    lines.append("seats:")
    seats = sorted({p.seat for p in (*sensors.gpio.standees, *sensors.gpio.tilts)}
                   | set(sensors.gpio.imu.seats) | set(sensors.sim.guns) | hub_seats
                   | {_seat(t) for t in data if "/gun/" in t or "/standee/" in t})
    # a gun only the Pi reads (its IMU or tilt switch) has no aims: those need a hub's slots
    pi_only = ({t.seat for t in sensors.gpio.tilts} | set(sensors.gpio.imu.seats)) - hub_seats \
        - set(sensors.sim.guns) - {s for b in sensors.boards for s in b.slot_seats}
    for seat in seats:
        posture = data.get(topics.standee_posture(seat))
        aim = data.get(topics.gun(seat, "aim"))
        raised = data.get(topics.gun(seat, "raised"))
        parts = [f"standee {posture['posture']}" if posture else "standee ?",
                 f"gun aims at {_target(aim)}" if aim else
                 "no aims without a hub" if seat in pi_only else "gun aim ?",
                 ("raised" if raised["raised"] else "lowered") if raised else "raised ?"]
        lines.append(f"  seat {seat}: " + ", ".join(parts))
        for kind, value in (("standee", posture), ("gun aim", aim), ("gun raised", raised)):
            if value is None and not (kind == "gun aim" and seat in pi_only):
                missing.append(f"seat {seat}: no {kind} reading")
        if seat in hub_seats and posture and raised and (posture["posture"], raised["raised"]) \
                == ("down", False):
            notes.append(f"seat {seat}: standee down and gun lowered, as a seat cable that is "
                         "out, reversed or damaged reads (its fuse open): at set-up, stand the "
                         "standee, raise the gun and check the cable")
    for tilt in sensors.gpio.tilts:
        notes.append(f"seat {tilt.seat}: its gun is read by a ball tilt switch on the Pi "
                     f"(GPIO {tilt.pin}), not by an IMU: a standing player aiming down at a "
                     "seated neighbour may read lowered, and a raised gun is not known to be "
                     "still; aims need the hub, and the Pi can read the gun's IMU instead "
                     "(sensors.gpio.imu; hardware/README.md, \"Standees and guns on the Pi "
                     "instead\")")
    if sensors.gpio.imu.seats:
        notes.append(f"seats {', '.join(map(str, sensors.gpio.imu.seats))}: the Pi reads "
                     "their guns' IMUs: raised and lowered by angle, and how fast each turns "
                     "(`stat`); aims and the lock LED need the hub")
    if notes:
        lines += ["notes:", *(f"  - {n}" for n in notes)]
    return lines, missing


def _imu_problems(config: Config, info: dict | None, stat: dict | None) -> list[str]:
    """The Pi's IMU reader: its bus, then each gun whose IMU cannot be read, once each."""
    imu = config.sensors.gpio.imu
    if not imu.seats:
        return []
    where = f"/dev/i2c-{imu.bus}"
    if info is None:
        return [f"IMUs on {where}: never reported (is the sensor bridge running?)"]
    if not info.get("online"):
        why = (stat or {}).get("bus_fault") or info.get("reason")
        return [f"IMUs on {where}: offline ({why}): enable I2C (raspi-config) and check the "
                f"TCA9548A at 0x{imu.mux:02x} on header pins 3 and 5"]
    faults = (stat or {}).get("faults") or {}
    return [f"seat {seat}: its gun's IMU (channel {int(seat) - 1} of the TCA9548A): {why}"
            for seat, why in sorted(faults.items())]


def _json(payload: bytes) -> dict | None:
    try:
        value = json.loads(payload)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _target(aim: dict) -> str:
    target = aim.get("target")
    if isinstance(target, list):
        return "seats " + " or ".join(map(str, target)) + " (ambiguous)"
    return "nobody" if target is None else f"seat {target}"


def ir_matrix(config: Config, seconds: float = 1.0) -> int:
    """Print who sees whom over `seconds` of the hub's rounds; 1 when nothing is heard."""
    from companion.referee.inputs import fact_from_message
    from companion.schema import CodecError

    topics = Topics(config.table)
    seen: list[Fact] = []
    infos: dict[str, dict] = {}

    def on_message(topic: str, payload: bytes) -> None:
        if topic == topics.hub_seen:
            with contextlib.suppress(CodecError):
                seen.append(fact_from_message(topic, payload))
        elif topic.endswith("/info") and (info := _json(payload)):
            infos[info.get("device", "?")] = info

    retained = read_live(config, 1.5)
    if retained is not None:
        for topic, payload in retained.items():
            on_message(topic, payload)
        bus = BusClient(config.mqtt, f"cashnguns-{config.table}-matrix-{os.getpid()}",
                        user="viewer")
        bus.subscribe(topics.hub_seen, on_message)
        bus.start(wait_s=2.0)
        time.sleep(seconds)  # the matrix is a share of the looks over this time
        bus.stop()
    else:
        from companion.sensors import build_bridge
        from companion.sensors.facts import CallbackSink

        bridge = build_bridge(config, publish=False)
        bridge.add_sink(CallbackSink(lambda f: f.kind == "seen" and seen.append(f),  # type: ignore[arg-type, func-returns-value]
                                     lambda i: on_message(f"x/{i.device}/info", json.dumps(
                                         {"device": i.device, "seats": list(i.seats),
                                          "slot_us": i.slot_us}).encode())))
        bridge.start()
        time.sleep(0.5 + seconds)
        bridge.stop()
    hub = next((i for i in infos.values() if i.get("seats") and i.get("slot_us")), None)
    if hub is None:
        print("no hub reported its slots: nothing to show")
        return 1
    print("\n".join(matrix_lines(tuple(hub["seats"]), hub["slot_us"], seen, seconds)))
    return 0


def matrix_lines(seats: tuple[int, ...], slot_us: int, seen: list[Fact],
                 seconds: float) -> list[str]:
    """Rows: guns; columns: badges; cells: % of the looks in which the gun saw the badge."""
    looks = max(1, round(seconds * 1e6 / ((len(seats) + 1) * slot_us)))
    if seen:
        last = seen[-1].t_ms
        seen = [f for f in seen if f.t_ms > last - seconds * 1000]
    counts = {(g, b): 0 for g in seats for b in seats}
    for fact in seen:
        for gun, mask in zip(seats, fact.value, strict=False):  # type: ignore[arg-type]
            for badge in seats:
                counts[gun, badge] += mask >> (badge - 1) & 1  # type: ignore[operator]
    head = "gun\\badge " + "".join(f"{b:>5}" for b in seats)
    rows = [f"{gun:>10} " + "".join(_cell(counts[gun, b] / looks) for b in seats)
            for gun in seats]
    return [f"share of {looks} looks ({seconds:g} s) in which each gun saw each badge",
            head, *rows]


def _cell(share: float) -> str:
    return "    ." if share == 0 else f"{min(100, round(100 * share)):>4}%"


def _usb(usb: tuple[int, int] | None) -> str:
    return f"usb {usb[0]:04x}:{usb[1]:04x}" if usb else "?"


def _seat(topic: str) -> int:
    part = topic.split("/")[3]
    return int(part) if part.isdigit() else 0


