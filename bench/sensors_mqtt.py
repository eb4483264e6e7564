"""Sensor-to-subscriber latency and sustained rate, through the real bridge and a real broker.

    .venv/bin/python bench/sensors_mqtt.py [--broker mosquitto|table] [-n 2000]
                                           [--rate 2000 --seconds 5]

Latency: one event at a time, from a MockFactory pin edge (standee) or a TILT line
written into the simulated hub's pty, to the message arriving at an independent MQTT client:
mosquitto_sub in its own process (receive time from its %U stamp, same system clock),
or with --subscriber paho a client on its own connection in this process. Debounce is 0
here: a real debounce adds exactly its hold time by design. `--broker table` is the broker
the companion runs by default (its Mosquitto child, passwords and ACLs; the subscriber is
the `viewer` user); `mosquitto` a plain one with anonymous access. Rate: TILT lines paced at
--rate for --seconds; every message must arrive. Results are in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import queue
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import config
from companion.bus.client import BusClient
from companion.bus.settings import MqttSettings
from companion.runner import start_sensors


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_mosquitto(port: int, folder: str) -> subprocess.Popen:
    conf = Path(folder) / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n"
                    "set_tcp_nodelay true\npersistence false\nmax_queued_messages 100000\n")
    proc = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(conf)],
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc
        except OSError:
            time.sleep(0.01)
    raise SystemExit("mosquitto did not start")


def percentiles(samples_ms: list[float]) -> str:
    q = statistics.quantiles(samples_ms, n=1000, method="inclusive")
    return (f"p50 {statistics.median(samples_ms):.3f} ms, p99 {q[989]:.3f} ms, "
            f"p99.9 {q[998]:.3f} ms, max {max(samples_ms):.3f} ms (n={len(samples_ms)})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--broker", choices=["mosquitto", "table"], default="mosquitto")
    ap.add_argument("-n", type=int, default=2000, help="single events per latency run")
    ap.add_argument("--rate", type=float, default=2000.0, help="sustained messages/s")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--subscriber", choices=["mosquitto_sub", "paho"], default="mosquitto_sub",
                    help="an independent process (mosquitto_sub) or a client in this process")
    ap.add_argument("--sub-qos", type=int, choices=[0, 1], default=1,
                    help="QoS of the subscription (mosquitto_sub only)")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="bench-sensors-")
    port = free_port()
    broker = start_mosquitto(port, tmp) if args.broker == "mosquitto" else None
    mqtt = (f"{{url: 'mqtt://127.0.0.1:{port}'}}" if broker
            else f"{{embedded_port: {port}, state_dir: {tmp}/broker}}")
    cfg = config.parse(f"""
table: bench
mqtt: {mqtt}
sensors:
  filters: {{debounce_ms: 0}}
  gpio: {{pin_factory: mock, standees: [{{seat: 5, pin: 5}}]}}
  sim: {{guns: [1, 2], link_dir: {tmp}, hand: {{ideal: true}}}}
""", "bench")
    table_broker, bridge = start_sensors(cfg)
    arrivals: queue.Queue[tuple[int, str, bytes]] = queue.Queue()
    user = None if broker else ("viewer", table_broker.credentials["viewer"])
    sub = subscribe(args.subscriber, port, bridge.topics.all, arrivals, args.sub_qos, user,
                    cfg.mqtt)
    try:
        wait_for(arrivals, bridge.topics.device("hub", "availability"), b"online")
        time.sleep(0.5)  # let the start-up burst pass before measuring
        drain(arrivals)
        pin = bridge.gpio.pin("posture", 5)
        posture = bridge.topics.standee_posture(5)

        def edge(i: int) -> None:
            (pin.drive_high if i % 2 == 0 else pin.drive_low)()

        report("mock pin edge -> subscriber", latency(args.n, edge, arrivals, posture))
        board = HubLines(bridge.sim)
        raised = bridge.topics.gun(2, "raised")
        report("pty TILT line -> subscriber",
               latency(args.n, lambda i: board.set_tilt(i % 2 == 0), arrivals, raised))
        sent, got, elapsed = sustained(board, arrivals, raised, args.rate, args.seconds)
        lost = sent - got
        print(f"sustained: {sent} TILT lines at {args.rate:g}/s for {args.seconds:g} s -> "
              f"{got} messages in {elapsed:.2f} s ({got / elapsed:.0f} msg/s), lost {lost}, "
              f"pty overflows {board.hub.port.overflows}")
        return 0 if lost == 0 else 1
    finally:
        sub.stop()
        bridge.stop()
        if table_broker is not None:
            table_broker.stop()
        if broker:
            broker.terminate()
            broker.wait()


class HubLines:
    """`TILT` lines written into the simulated hub's pty by its own firmware core, as the
    hub sends them when a tilt switch changes (its sequence numbers and clock)."""

    def __init__(self, sim) -> None:
        self.sim, self.hub = sim, sim.hub

    def set_tilt(self, raised: bool) -> None:
        with self.sim.lock:
            now = self.hub.board_ms(self.hub.clock.now_ms())
            self.hub.core.send(now, "TILT", 2, 1 if raised else 0)
            self.hub.poll(self.hub.clock.now_ms())  # written out with the round's lines


def subscribe(kind: str, port: int, topic: str, arrivals: queue.Queue, qos: int = 1,
              user: tuple[str, str] | None = None, settings: MqttSettings | None = None):
    """Arrivals as (time.time_ns() on arrival, topic, payload) from an independent client."""
    if kind == "paho":
        sub = BusClient(settings if user else MqttSettings(port=port, embedded=False, qos=1),
                        "bench-subscriber", user=user[0] if user else None)
        sub.subscribe(topic, lambda t, p: arrivals.put((time.time_ns(), t, p)))
        return sub.start()
    login = ["-u", user[0], "-P", user[1]] if user else []
    proc = subprocess.Popen(["mosquitto_sub", "-p", str(port), "-t", topic, "-q", str(qos),
                             "-F", "%U %t %p", *login], stdout=subprocess.PIPE)

    def read() -> None:
        for line in proc.stdout:
            stamp, t, p = line.rstrip(b"\n").split(b" ", 2)
            seconds, nanos = stamp.split(b".")
            arrivals.put((int(seconds) * 1_000_000_000 + int(nanos), t.decode(), p))

    threading.Thread(target=read, daemon=True).start()
    proc.stop = proc.terminate  # the same stop() as BusClient
    return proc


def wait_for(arrivals: queue.Queue, topic: str, payload: bytes) -> None:
    while True:
        _, t, p = arrivals.get(timeout=10)
        if t == topic and p == payload:
            return


def drain(arrivals: queue.Queue) -> None:
    while not arrivals.empty():
        arrivals.get_nowait()


def latency(n: int, act, arrivals: queue.Queue, topic: str) -> list[float]:
    samples = []
    for i in range(n):
        start = time.time_ns()
        act(i)
        while True:
            at, t, _ = arrivals.get(timeout=5)
            if t == topic:
                samples.append((at - start) / 1e6)
                break
    return samples


def sustained(board, arrivals: queue.Queue, topic: str, rate: float, seconds: float
              ) -> tuple[int, int, float]:
    drain(arrivals)
    total = int(rate * seconds)
    start = time.time()
    sent = 0
    while sent < total:  # every 2 ms, the lines due by now; sleeping leaves the GIL free
        due = min(total, int((time.time() - start) * rate) + 1)
        for i in range(sent, due):
            board.set_tilt(i % 2 == 0)
        sent = due
        time.sleep(0.002)
    got = 0
    last = time.time()
    while got < total:
        try:
            at, t, _ = arrivals.get(timeout=2)
        except queue.Empty:
            break
        if t == topic:
            got += 1
            last = at / 1e9
    return total, got, last - start


def report(what: str, samples: list[float]) -> None:
    print(f"{what}: {percentiles(samples)}")


if __name__ == "__main__":
    sys.exit(main())
