"""A table behind a broker that freezes, on the fake clock: the hub's facts and rounds and
the referee's probe go through a broker that passes messages on in a few milliseconds
until it freezes (SIGSTOP), then passes nothing on. The referee's watch is the one
mqtt_link.py runs (a probe every 200 ms, the broker called down 700 ms without an echo),
and every input reaches the table as it would live, so the journal replays the trial."""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from local_table import NAMES8, LocalPort

from companion.clock import FakeClock
from companion.referee.mqtt_link import BROKER, PROBE_EVERY_S, PROBE_SILENT_S
from companion.sensors.facts import Fact

HOP_MS = 3.0  # a message through the live broker
ROUND_MS = 25.0  # the hub's rounds of looks (its `seen`), dozens a second
HOLD_MS = 500.0  # the aim rule's hold (timing.hold_ms): an aim is reported once held
BEGUN_BY_MS = 500.0  # an aim counts if begun by three + too_slow_ms - hold_ms (REFEREE.md)
PLAYERS = NAMES8[:4]


@dataclass(frozen=True)
class Outcome:
    freeze_ms: float  # when the broker froze, after "three"
    aim_ms: float  # when Ana's aim at Bob began, after "three"
    truth: str | None  # what the rules make of that aim: "Bob", or None (too slow)
    decided: bool
    target: str | None  # what the referee decided, if it did
    voided: str | None  # why it called the count off, if it did

    @property
    def blind(self) -> bool:
        return self.decided and self.target != self.truth


class Broker:
    """Messages in order, each `HOP_MS` after it was sent, until the freeze."""

    def __init__(self, clock: FakeClock, freeze_at: float) -> None:
        self.clock, self.freeze_at = clock, freeze_at
        self.events: list[tuple[float, int, Callable[[], None]]] = []
        self._n = 0

    def at(self, t: float, do: Callable[[], None]) -> None:
        self._n += 1
        heapq.heappush(self.events, (t, self._n, do))

    def send(self, t: float, do: Callable[[], None]) -> None:
        """Sent at `t`: passed on unless the broker is frozen by then."""
        if t < self.freeze_at:
            self.at(t + HOP_MS, do)


def trial(rng: random.Random, journal: Path) -> Outcome:
    """One hold-up: Bob, Cyd and Dee aim long before; Ana's aim at Bob begins at a random
    moment; the broker freezes at a random moment from 1 s before to 1.5 s after "three"."""
    clock = FakeClock()
    port = LocalPort(journal, clock)
    port.do("new_game", players=PLAYERS, powers="none", seed=1)
    for name in PLAYERS:
        port.act(type="choose", player=name, card="bang")
    for seat, target in ((2, 3), (3, 4), (4, 1)):
        port.fact("raised", seat, True, dt=-5000)
        port.fact("aim", seat, target, dt=-5000)
    start = clock.now_ms() + 100
    three = start + 2 * port.table.timing.beat_ms
    freeze, aim = rng.uniform(-1000, 1500), rng.uniform(-1500, 1000)
    broker = Broker(clock, three + freeze)
    table = port.table
    broker.at(start, lambda: port.do("countdown"))

    def hub(fact: Fact) -> None:  # the hub's messages: one stream, in order
        broker.send(fact.t_ms + 1, lambda: table.on_fact(fact))

    hub(Fact("raised", 1, True, three + aim, "hub"))
    broker.send(three + aim + HOLD_MS + 1,  # reported once held, stamped when it began
                lambda: table.on_fact(Fact("aim", 1, 2, three + aim, "hub")))
    end = three + 4000
    t = start - 500 + rng.uniform(0, ROUND_MS)
    while t < end:
        hub(Fact("seen", 0, (0, 0, 0, 0), t, "hub"))
        t += ROUND_MS
    watch = Watch(table, broker)
    t = start - 1000 + rng.uniform(0, 1000 * PROBE_EVERY_S)
    while t < end:
        broker.at(t, watch.probe)
        t += 1000 * PROBE_EVERY_S
    drive(port, broker, end)
    game = table.game
    assert game is not None
    ana = [a for a in game.actions if a.type == "aim" and a.player == "Ana"]
    return Outcome(freeze, aim, "Bob" if aim <= BEGUN_BY_MS else None, bool(ana),
                   ana[-1].target if ana else None, table.state.voided)


class Watch:
    """mqtt_link.RefereeLink.watch_broker on the fake clock."""

    def __init__(self, table: object, broker: Broker) -> None:
        self.table, self.broker = table, broker
        self.echo_at = broker.clock.now_ms()
        self.silent = False

    def probe(self) -> None:
        sent = self.broker.clock.now_ms()
        self.broker.send(sent, lambda: self.echo(sent))
        if not self.silent and sent - self.echo_at > 1000 * PROBE_SILENT_S:
            self.silent = True
            self.table.link(BROKER, False, "not answering")  # type: ignore[attr-defined]

    def echo(self, sent: float) -> None:
        self.echo_at = self.broker.clock.now_ms()
        self.table.echo(sent)  # type: ignore[attr-defined]


def drive(port: LocalPort, broker: Broker, end: float) -> None:
    """Every message and every deadline of the table in time order, as the time driver
    (runner._drive) ticks it."""
    clock, table = port.clock, port.table
    while broker.events and broker.events[0][0] < end:
        t, _, do = broker.events[0]
        deadline = table.next_deadline()
        if deadline is not None and clock.now_ms() <= deadline < t:
            clock.advance(deadline - clock.now_ms())
            table.tick()
            if table.next_deadline() != deadline:
                continue
        heapq.heappop(broker.events)
        clock.advance(max(0.0, t - clock.now_ms()))
        do()
        table.tick()
