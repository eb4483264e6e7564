"""The live table: the referee as the rest of the companion holds it.

Sensor facts, tablet and phone commands, claims, link changes and the time driver's
ticks arrive on different threads. Each goes to the recorder (inputs.py), which under one
lock stamps it with the table's clock, decides it with `core.reduce` and journals it with
what was decided (on disk before anything is shown when the core accepted an action or any
other write: the only I/O under the lock); a sensor fact goes to it straight from the
wire, never through the table. Here the table adds what only it knows to a command (a new
game's seed and seating check), follows the phones' access, and passes each change shown
to the outbox thread (outbox.py), which takes the view's digest, calls the listeners and
writes the rest, in order, after the lock is released. The jobs around it live beside it:
access (PIN, seat links, phones), setup (a new game checked), stage (countdowns and what
they read), views (what each audience sees).
"""
from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from companion.clock import Clock
from companion.referee import core, views
from companion.referee.access import Access, table_phones
from companion.referee.commands import Auth, CommandError
from companion.referee.effects import Changed, Effect, Log, Refused
from companion.referee.equipment import Kit
from companion.referee.game import Game
from companion.referee.inputs import (
    Boot,
    Claim,
    Command,
    Echo,
    Link,
    Recorder,
    Resumed,
    Schedule,
    StandIns,
    Tick,
)
from companion.referee.journal import Journal
from companion.referee.links import Links
from companion.referee.outbox import Listener, Outbox
from companion.referee.readings import Readings
from companion.referee.settings import RefereeSettings
from companion.referee.setup import SEATING, setup_seats
from companion.referee.stage import Stage
from companion.referee.state import State, start
from companion.referee.view_model import as_json
from companion.rules import Action, legal_actions
from companion.sensors.facts import Fact

VERSIONS_PER_BOOT = 1_000_000  # more changes than a table makes between two starts
SEED_RANGE = 2**31  # a new game's seed when the command gives none
log = logging.getLogger(__name__)


def resumed(journal: Journal) -> Resumed | None:
    """The newest game, where the journal left it (after a power cut)."""
    latest = journal.latest_game()
    if latest is None:
        return None
    game = latest[0]
    kept = [(journal.setup(g)["seats"], journal.claims(g)) for g, _, _ in journal.games()]
    return Resumed(game, journal.setup(game), tuple(journal.entries(game)),
                   journal.last_seq(game), journal.claims(game), table_phones(kept),
                   journal.countdowns(game))


T = TypeVar("T")


class StateField(Generic[T]):
    """A table attribute that is its referee state's, read as the state is now."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, table: Table | None, owner: type | None = None) -> T:
        if table is None:
            raise AttributeError(self.name)
        return cast(T, getattr(table.state, self.name))


class Table:
    def __init__(self, name: str, settings: RefereeSettings, journal: Journal, clock: Clock,
                 simulator: Any = None, sensored: Kit | None = None) -> None:
        self.name, self.settings, self.journal, self.clock = name, settings, journal, clock
        self.simulator, self.timing = simulator, settings.timing
        # seats -> the seating check's {"verdict", "why"} for this table (set by the
        # dashboard, which knows the table top); None: no geometry, no check
        self.seating_check: Callable[[list[int]], dict[str, str]] | None = None
        self.access = Access(name, journal.secret(), settings.pin)
        self.boot = journal.boot()
        self.outbox = Outbox(journal, self.boot)
        kit = sensored or Kit()  # the seats the sensors' config gives a gun or a standee
        boot = Boot(clock.now_ms(), name, settings.timing, self.boot * VERSIONS_PER_BOOT,
                     journal.last_game_number(), resumed(journal),
                     {"ir": tuple(sorted(kit.ir)), "tilt": tuple(sorted(kit.tilt)),
                      "standee": tuple(sorted(kit.standee))})
        self.recorder = Recorder(start(boot), core.reduce, clock, self.outbox, self._after)
        self.recorder.begin(boot)
        # a sensor fact goes from the wire to the recorder, the table's code not in between
        self.on_fact: Callable[[Fact], None] = self.recorder.hear
        self._follow()

    @property
    def state(self) -> State:
        """The referee's state as the last input left it."""
        return self.recorder.state

    # -- after each input, under the lock --------------------------------------------------

    def _after(self, effects: list[Effect]) -> None:
        self._follow()
        changed = any(isinstance(e, Changed) for e in effects)
        logs = [e.message for e in effects if isinstance(e, Log)]
        if changed or logs:
            shown = core.view_of(self.state, self.settings.names, self.state.now_ms) \
                if changed else None
            self.outbox.post(self.recorder.seq, shown, self.state.revision, logs)

    def _follow(self) -> None:
        game = self.state.game
        self.access.follow(game.id if game else 0, game.player_at if game else {},
                           self.state.claims, self.state.phones)

    def close(self) -> None:
        """Let the outbox finish: every input and digest on disk."""
        self.outbox.close()

    def settled(self, timeout: float = 10.0) -> bool:
        """Wait until the listeners have heard every change made so far."""
        return self.outbox.settled(timeout)

    # -- listeners -----------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """`listener(revision)` runs after every change, in order, on the outbox's thread,
        never under the table's lock; what was shown is `frame()`."""
        self.outbox.listeners.append(listener)
        listeners = self.outbox.listeners
        return lambda: listeners.remove(listener) if listener in listeners else None

    # -- inputs --------------------------------------------------------------------------

    def command(self, cmd: Any, auth: Auth) -> dict[str, Any]:
        if isinstance(cmd, dict) and cmd.get("type") == "new_game":
            cmd = {k: v for k, v in cmd.items() if k != SEATING}  # only the table's own
            if "seed" not in cmd:
                cmd["seed"] = secrets.randbelow(SEED_RANGE)  # (journaled with it)
            if self.seating_check is not None and (seats := setup_seats(cmd)):
                cmd[SEATING] = self.seating_check(seats)  # journaled: a replay decides alike
        effects, state = self.recorder.feed(lambda now: Command(now, cmd, auth))
        refuse(effects)
        return {"ok": True, "version": state.version}

    def claim(self, seat: int, token: str) -> str:
        """A phone opens its seat's link: the first one holds the seat (access.py)."""
        with self.recorder.lock:
            claim, digest = self.access.new_claim(seat, token)
            refuse(self.recorder.feed(lambda now: Claim(now, seat, digest))[0])
            return claim

    def link(self, name: str, up: bool, reason: str) -> None:
        """The broker or a sensor device went down or came back (see links.py)."""
        self.recorder.feed(lambda now: Link(now, name, up, reason))

    def echo(self, sent_ms: float) -> None:
        """The broker echoed the probe sent at `sent_ms`: its watermark (watermarks.py)."""
        self.recorder.feed(lambda now: Echo(now, sent_ms))

    def schedule(self, seats: tuple[int, ...], slot_us: int) -> None:
        """A hub's slots in force (the order of the masks in its looks)."""
        self.recorder.feed(lambda now: Schedule(now, seats, slot_us))

    def tick(self) -> None:
        """Do what is due now: a beat, a snapshot, an obeyed order (see `next_deadline`)."""
        self.recorder.feed(Tick)

    def next_deadline(self) -> float | None:
        """When `tick` next has something to do, on the table's clock; None: only a change
        (a fact, a command) can give it work. The time driver sleeps until then."""
        with self.recorder.lock:
            return core.next_deadline(self.state, self.clock.now_ms())

    # -- what the state holds, for the views and the rest of the companion ---------------

    game = StateField[Game | None]()
    version = StateField[int]()  # bumped by every change to the game or the stage
    revision = StateField[int]()  # bumped by every change, sensor readings included
    stage = StateField[Stage]()
    paused = StateField[bool]()
    readings = StateField[Readings]()
    links = StateField[Links]()

    @property
    def stand_ins(self) -> dict[int, str]:
        return self.state.stand_ins

    @stand_ins.setter
    def stand_ins(self, bots: dict[int, str]) -> None:
        self.recorder.feed(lambda now: StandIns(now, dict(bots)))

    def legal(self) -> list[Action]:
        with self.recorder.lock:
            return legal_actions(self.state.game.state) if self.state.game else []

    def view(self) -> views.Snapshot:
        """The table now, frozen for the views (see views.Snapshot)."""
        with self.recorder.lock:
            return core.view_of(self.state, self.settings.names, self.clock.now_ms())

    def frame(self) -> views.TableFrame:
        """The views the outbox built last, as it digested them: what the streams send and
        the listeners read (on its thread, those of the change they are called for), so
        neither takes the table again. A change not built yet reaches them when the outbox
        has built it and wakes them; before the first change was shown, the table now."""
        return self.outbox.frame or views.TableFrame(self.view())

    # (as JSON: what the API, MQTT and the bots read; each view's keys are checked in views)
    def public_state(self) -> dict[str, Any]:
        return as_json(views.public(self.view()))

    def control_state(self) -> dict[str, Any]:
        return as_json(views.control(self.view()))

    def seat_state(self, seat: int) -> dict[str, Any]:
        return as_json(views.seat(self.view(), seat))


def refuse(effects: list[Effect]) -> None:
    """Raise the refusal among an input's effects, if any."""
    for e in effects:
        if isinstance(e, Refused):
            raise CommandError(e.kind, e.message, **e.extra)
