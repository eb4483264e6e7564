"""One hold-up through a real Mosquitto that is stopped (SIGSTOP) at a random moment:
the referee as `companion run` wires it (its MQTT link with the probe's watch, its time
driver) on the real clock; a hub's messages (rounds of looks every 25 ms, the aims) are
published through the broker as the sensor bridge publishes them. The same trial as
frozen_broker.py's, live: tests/referee/test_frozen_broker_live.py and
bench/blind_decisions.py run it."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from frozen_broker import BEGUN_BY_MS, HOLD_MS, PLAYERS, ROUND_MS, Outcome

from companion.bus.client import BusClient
from companion.bus.settings import MqttSettings
from companion.bus.topics import Topics
from companion.clock import SYSTEM_CLOCK
from companion.referee.commands import Auth
from companion.referee.journal import Journal
from companion.referee.mqtt_link import RefereeLink
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table
from companion.referee.watermarks import BROKER
from companion.runner import _drive
from companion.sensors.codec import MqttPublisher
from companion.sensors.facts import Fact

CONTROL = Auth(control=True)


def wait(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.005)


def live_trial(port: int, freeze: Callable[[bool], None], rng: random.Random, name: str,
               at: tuple[float, float] | None = None) -> Outcome:
    """Ana's aim at Bob begins at a random moment from 1.5 s before to 1 s after "three";
    the broker is stopped at a random moment from 1 s before to 1.5 s after it (or `at`:
    (the freeze, the aim), in ms after "three")."""
    settings = MqttSettings(port=port, embedded=False, qos=1)
    topics = Topics(name)
    table = Table(name, RefereeSettings(pin="2468"), Journal(":memory:"), SYSTEM_CLOCK)
    bus = BusClient(settings, f"referee-{name}", topics.referee_status)
    hub_bus = BusClient(settings, f"hub-{name}")
    link = RefereeLink(table, bus, topics)
    link.start()
    stop, wake = threading.Event(), threading.Event()
    table.subscribe(lambda _revision: wake.set())
    threads: list[threading.Thread] = []
    frozen = False
    try:
        bus.start(10)
        hub_bus.start(10)
        hub = MqttPublisher(hub_bus, topics)
        threads = [threading.Thread(target=_drive, args=(table, stop, wake), daemon=True),
                   threading.Thread(target=link.watch_broker, args=(stop,), daemon=True)]
        for t in threads:
            t.start()
        table.command({"type": "new_game", "version": table.version, "players": PLAYERS,
                       "powers": "none", "seed": 1}, CONTROL)
        for seat, player in enumerate(PLAYERS, 1):
            table.command({"type": "action", "version": table.version, "action": {
                "type": "choose", "player": player, "card": "bang"}}, Auth(seat=seat))
        now = SYSTEM_CLOCK.now_ms()
        for seat, target in ((2, 3), (3, 4), (4, 1)):
            hub.fact(Fact("raised", seat, True, now - 5000, "hub"))
            hub.fact(Fact("aim", seat, target, now - 5000, "hub"))
        wait(lambda: all(table.view().sensors[s]["aim"] is not None for s in (2, 3, 4)), 10,
             "the other guns' aims")
        wait(lambda: table.state.marks.last(BROKER) is not None, 10, "the probe's echo")
        table.command({"type": "countdown", "version": table.version}, CONTROL)
        three = table.stage.three_ms
        freeze_ms, aim_ms = at or (rng.uniform(-1000, 1500), rng.uniform(-1500, 1000))
        plan = [(three + aim_ms, Fact("raised", 1, True, three + aim_ms, "hub")),
                (three + aim_ms + HOLD_MS, Fact("aim", 1, 2, three + aim_ms, "hub"))]
        t = SYSTEM_CLOCK.now_ms()
        while t < three + 4000:
            plan.append((t, Fact("seen", 0, (0, 0, 0, 0), t, "hub")))
            t += ROUND_MS
        plan.append((three + freeze_ms, None))  # the broker stops
        for at, fact in sorted(plan, key=lambda p: p[0]):
            if table.stage.name != "countdown":
                break
            time.sleep(max(0.0, (at - SYSTEM_CLOCK.now_ms()) / 1000))
            if fact is None:
                freeze(True)
                frozen = True
            else:
                hub.fact(fact)
        wait(lambda: table.stage.name != "countdown", 10, "the count to end")
        game = table.game
        assert game is not None
        ana = [a for a in game.actions if a.type == "aim" and a.player == "Ana"]
        return Outcome(freeze_ms, aim_ms, "Bob" if aim_ms <= BEGUN_BY_MS else None,
                       bool(ana), ana[-1].target if ana else None, table.state.voided)
    finally:
        stop.set()
        if frozen:
            freeze(False)
        for t in threads:
            t.join(5)
        hub_bus.stop()
        bus.stop()
        table.close()
