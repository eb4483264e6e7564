"""The live table: one game, its journal, the sensors' readings and the referee's stage.

Sensor facts, tablet and phone commands and the time driver all arrive here, on
different threads, and are serialised by one lock. Rules actions come out of it: each
one is checked by the engine, written to the journal, and only then applied and shown.
The jobs around it live beside it: access (PIN, seat links, phones), setup (a new game checked),
stage (countdowns and what they read), views (what each audience sees).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from companion.clock import Clock
from companion.referee import amend, ending, replay, views
from companion.referee import stage as stages
from companion.referee.access import Access, check_player
from companion.referee.commands import EXACT_VERSION, Auth, CommandError
from companion.referee.game import Game, engine_setup
from companion.referee.journal import Journal, JournalError
from companion.referee.links import Links
from companion.referee.readings import Readings
from companion.referee.settings import RefereeSettings
from companion.referee.setup import check_setup
from companion.referee.stage import Sensed, Stage
from companion.rules import Action, RuleError, apply_in_place, legal_actions, new_game
from companion.rules.events import Event, GameOver, RoundBegun, Wounded
from companion.schema import parse_action
from companion.sensors.facts import Fact
from companion.yamlfile import FieldError

Listener = Callable[[int], None]
VERSIONS_PER_BOOT = 1_000_000  # more changes than a table makes between two starts
log = logging.getLogger(__name__)


class Table:
    def __init__(self, name: str, settings: RefereeSettings, journal: Journal, clock: Clock,
                 simulator: Any = None) -> None:
        self.name, self.settings, self.journal, self.clock = name, settings, journal, clock
        self.simulator, self.timing = simulator, settings.timing
        self.access = Access(name, journal, settings.pin)
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.readings = Readings()
        self.game: Game | None = None
        self.stage, self.paused = Stage(), False
        self.stand_ins: dict[int, str] = {}  # seat -> the bot's style playing it when no phone does
        # bumped by every change to the game or the referee's stage; only ever forward
        self.version = journal.boot() * VERSIONS_PER_BOOT
        self.revision = 0  # bumped by every change at all, sensor readings included
        self.lay_down: dict[str, float] = {}  # wounded players asked to lie down, since when
        self.ambiguous: dict[str, list[int]] = {}  # aims the Godfather decides: the seats seen
        self.links = Links()  # the broker and the sensor devices: the referee never decides blind
        self.voided: str | None = None  # why the last countdown was called off
        self.journal_error: str | None = None  # why play is paused: the journal failed
        self.replays: tuple[dict[str, Any], ...] = ()  # this round's countdowns, as read
        self._resume()
        self._step_key, self._step_version = self._step(), self.version

    # -- listeners -----------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """`listener(revision)` runs after every change, on the thread that made it."""
        with self._lock:
            self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _changed(self, game: bool) -> None:
        if game:
            self.version += 1
            step = self._step()
            if step != self._step_key:  # commands made in an earlier step are now stale
                self._step_key, self._step_version = step, self.version
        self.revision += 1
        for listener in list(self._listeners):
            listener(self.revision)

    # -- the journal ---------------------------------------------------------------------

    def _resume(self) -> None:
        """Pick up the newest unfinished game where the journal left it (after a power cut)."""
        if (latest := self.journal.latest_game()) is not None:
            self._load(latest[0])

    def _load(self, game_id: int) -> None:
        setup = self.journal.setup(game_id)
        state = new_game(engine_setup(setup))
        game = Game(game_id, setup, state, {n: int(s) for n, s in setup["seats"].items()})
        for entry in self.journal.entries(game_id):
            apply_in_place(state, entry.action)  # accepted once: the rules accept it again
            game.actions.append(entry.action)
            game.sources.append(entry.source)
        if state.phase == "over":
            game.history = ending.history(game)
        self.game = game
        self.access.load(game_id, game.player_at)
        self.stage = Stage()
        self.ambiguous = {}
        if state.phase == "privilege" and state.ordered is not None:  # (an undo, a restart)
            self.stage = Stage("reaim", since_ms=self.clock.now_ms())
        self.lay_down = stages.lay_down_requests(self.game, self.lay_down, self.readings,
                                                 self.clock.now_ms())

    # -- sensor input --------------------------------------------------------------------

    def on_fact(self, fact: Fact) -> None:
        with self._lock:
            self.readings.add(fact)
            if fact.kind == "seen":
                return  # a round's looks, dozens a second: the matrix is read, not pushed
            if fact.kind == "posture" and fact.value == "down" and self.game:
                name = self.game.player_at.get(fact.seat)
                if name in self.lay_down and fact.t_ms >= self.lay_down[name]:
                    del self.lay_down[name]  # the wounded player's standee is down
                    self._changed(game=True)
                    return
            self._changed(game=False)

    # -- commands ------------------------------------------------------------------------

    def command(self, cmd: Any, auth: Auth) -> dict[str, Any]:
        if not isinstance(cmd, dict):
            raise CommandError(400, "a command is a JSON object with a type")
        kind = cmd.get("type")
        handler = _COMMANDS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise CommandError(400, f"unknown command type {kind!r} "
                                    f"(known: {', '.join(_COMMANDS)})")
        if kind != "action" and not auth.control:
            raise CommandError(403, f"{kind} needs the table PIN")
        version = cmd.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise CommandError(400, "version: the state version the command was made against "
                                    "is required (a whole number)")
        with self._lock:
            oldest = self.version if kind in EXACT_VERSION else self._step_version
            if not oldest <= version <= self.version:
                raise CommandError(409, f"the table has moved on since (version {version}, now "
                                        f"{self.version}): look again and retry",
                                   version=self.version)
            handler(self, cmd, auth)
            return {"ok": True, "version": self.version}

    def _step(self) -> tuple[Any, ...]:
        """What a command was made about: the rules step, whose turn, the referee's stage."""
        if self.game is None:
            return ()
        s = self.game.state
        return (self.game.id, s.round, s.phase, s.turn, s.ordered, s.junk_card, s.done,
                self.stage.name, self.paused)

    def _need_game(self) -> Game:
        if self.game is None:
            raise CommandError(422, "no game is set up: start one first", rule="R1")
        return self.game

    def _new_game(self, cmd: dict[str, Any], _auth: Auth) -> None:
        if self.game and self.game.state.phase != "over" and cmd.get("abandon") is not True:
            raise CommandError(422, "a game is in progress: send abandon: true to end it",
                               rule="R1", code="game_in_progress")
        setup = check_setup(cmd)
        game_id = self.journal.new_game(setup, self.clock.now_ms())
        if self.game:
            self.journal.finish(self.game.id)
        self.lay_down.clear()
        self.replays = ()
        self._load(game_id)
        self._changed(game=True)

    def _action(self, cmd: dict[str, Any], auth: Auth) -> None:
        game = self._need_game()
        try:
            action = parse_action(cmd.get("action"), tuple(game.state.index),
                                  game.state.physical, "action")
        except FieldError as e:
            raise CommandError(400, str(e)) from None
        check_player(auth, action.player, action.to_dict(), game.player_at)
        self._apply(action, "tablet" if auth.control else "phone")

    def _apply(self, action: Action, source: str) -> None:
        """Check with the rules, journal, then show: in that order, always."""
        game = self._need_game()
        trial = game.state.copy()
        before = len(trial.events)
        try:
            apply_in_place(trial, action)
        except RuleError as e:
            raise CommandError(422, e.message, rule=e.rule) from None
        try:
            self.journal.record(game.id, action, source, self.clock.now_ms())
        except JournalError as e:  # nothing is shown that is not on disk: play waits
            self.paused, self.stage, self.journal_error = True, Stage(), str(e)
            self._changed(game=True)
            raise CommandError(507, f"{e}; play is paused until it can be written") from None
        if action.type == "aim":
            self.ambiguous.pop(action.player, None)
        game.state = trial
        game.actions.append(action)
        game.sources.append(source)
        self._after(trial.events[before:])
        self._changed(game=True)

    def _after(self, events: list[Event]) -> None:
        """What the referee does when the rules move on: lie-down requests, the end."""
        game = self._need_game()
        now = self.clock.now_ms()
        for e in events:
            if isinstance(e, Wounded):
                self.lay_down[e.player] = now
            elif isinstance(e, RoundBegun):
                self.lay_down.clear()
                self.ambiguous.clear()
                self.replays = ()
            elif isinstance(e, GameOver):
                self.journal.finish(game.id)
                game.history = ending.history(game)  # the end chart: built once
        s = game.state
        if self.stage.name == "reaim" and s.ordered is None:
            self.stage = Stage()
        if s.phase == "privilege" and s.ordered is not None and self.stage.name != "reaim":
            self.stage = Stage("reaim", since_ms=now)

    def _countdown(self, _cmd: dict[str, Any], _auth: Auth) -> None:
        game = self._need_game()
        if down := self.links.down():
            raise CommandError(503, f"no countdown while the {down[0].link} link is down "
                                    f"({down[0].reason}): the referee would decide blind",
                               links=self.links.public())
        self.stage = stages.countdown(game.state, self.stage, self.paused,
                                      self.clock.now_ms(), self.timing)
        self.voided = None
        self._changed(game=True)

    def link(self, name: str, up: bool, reason: str) -> None:
        """The broker or a sensor device went down or came back (see links.py)."""
        with self._lock:
            if not self.links.set(name, up, reason, self.clock.now_ms()):
                return
            if not up and self.stage.name in ("countdown", "kid"):
                self._void(f"{name} went down ({reason})")
            self._changed(game=True)

    def _void(self, why: str) -> None:
        """Call a countdown off: its facts cannot be trusted; the Godfather counts again."""
        log.warning("countdown voided: %s", why)
        self.stage, self.voided = Stage(), why

    def _override(self, cmd: dict[str, Any], _auth: Auth) -> None:
        seat, fact, clear, value = amend.reading(cmd)
        if clear:
            self.readings.clear(seat, fact)
        else:
            self.readings.override(seat, fact, value)
        self._changed(game=True)

    def _undo(self, _cmd: dict[str, Any], _auth: Auth) -> None:
        game = self._need_game()
        self.journal.undo(game.id, amend.last_of_round(game, self.journal.entries(game.id)).seq)
        self._load(game.id)
        self._changed(game=True)

    def _recount(self, cmd: dict[str, Any], _auth: Auth) -> None:
        """Count one player's part of a settled countdown otherwise, from its replay."""
        game = self._need_game()
        if self.stage.name in ("countdown", "kid"):
            raise CommandError(409, "a countdown is running: recount once it is settled")
        shown = amend.find_replay(self.replays, cmd)
        action = amend.recounted(game, shown, cmd)
        first, actions = amend.recount(game, self.journal.entries(game.id), shown, action,
                                       self.clock.now_ms())
        self.journal.rewrite(game.id, first, actions)
        self.replays = amend.marked(self.replays, shown, action)
        self.ambiguous.pop(action.player, None)
        self._load(game.id)
        self._changed(game=True)

    def claim(self, seat: int, token: str) -> str:
        """A phone opens its seat's link: the first one holds the seat (access.py)."""
        with self._lock:
            claim = self.access.claim(seat, token, self.clock.now_ms())
            self._changed(game=False)
            return claim

    def _release(self, cmd: dict[str, Any], _auth: Auth) -> None:
        self.access.release(cmd.get("seat"))
        self._changed(game=True)

    def _pause(self, _cmd: dict[str, Any], _auth: Auth) -> None:
        self.paused = True
        self.stage = Stage()
        self._changed(game=True)

    def _resume_play(self, _cmd: dict[str, Any], _auth: Auth) -> None:
        self.paused, self.journal_error = False, None  # (the next action writes again)
        self._changed(game=True)

    # -- time: countdown beats and snapshots ---------------------------------------------

    def tick(self) -> None:
        """Do what is due now: a beat, a snapshot, an obeyed order (see `next_deadline`)."""
        with self._lock:
            game, st = self.game, self.stage
            if self.paused or game is None or st.name == "idle":
                return
            now = self.clock.now_ms()
            if st.name == "reaim":
                if game.state.ordered is None:
                    self.stage = Stage()
                    self._changed(game=True)
                    return
                sensed = stages.reaim(game, st, self.readings, now, self.timing)
                if sensed is not None:
                    self._sensed(sensed)
                return
            if stages.beat(st, now) != st:
                self.stage = stages.beat(st, now)
                self._changed(game=False)
            if now >= st.decide_ms:
                self._snapshot(st)

    def next_deadline(self) -> float | None:
        """When `tick` next has something to do, on the table's clock; None: only a change
        (a fact, a command) can give it work. The time driver sleeps until then."""
        with self._lock:
            return stages.next_deadline(self.game, self.stage, self.paused, self.readings,
                                        self.clock.now_ms(), self.timing)

    def _sensed(self, sensed: Sensed) -> None:
        """Apply what the sensors read; a refusal (a tap got there first) is only logged."""
        manual = any(self.readings.is_manual(sensed.seat, k) for k in sensed.kinds)
        try:
            self._apply(sensed.action, "override" if manual else "sensor")
        except CommandError as e:
            log.warning("sensed action %s refused: %s", sensed.action, e.message)

    def _snapshot(self, st: Stage) -> None:
        game = self._need_game()
        self.stage = Stage()
        broken = self.links.broken_since(st.beats_ms[0])
        if broken is not None:  # a link was down while the facts happened: never "nobody"
            self._void(f"{broken.link} was down ({broken.reason})")
            self._changed(game=True)
            return
        try:
            read = replay.record(game, st, self.readings, self.timing, len(self.replays) + 1)
            self.replays += (read,) if read else ()
            actions, ambiguous = stages.snapshot(game, st, self.readings, self.timing)
            self.ambiguous.update(ambiguous)
            for sensed in actions:
                self._sensed(sensed)
            if st.step == "holdup":
                self.stage = stages.after_snapshot(game.state, self.clock.now_ms(), self.timing)
        finally:
            self._changed(game=True)

    # -- views ---------------------------------------------------------------------------

    def legal(self) -> list[Action]:
        with self._lock:
            return legal_actions(self.game.state) if self.game else []

    def view(self) -> views.Snapshot:
        """The table now, frozen for the views (see views.Snapshot)."""
        with self._lock:
            game, now = self.game, self.clock.now_ms()
            seats = sorted(game.player_at) if game else []
            return views.Snapshot(
                self.name, self.version, self.revision, self.paused, self.stage, now, game,
                sensors={seat: self.readings.seat_now(seat, now) for seat in seats},
                lay_down=frozenset(self.lay_down), ambiguous=dict(self.ambiguous),
                links=self.links.public(), voided=self.voided,
                journal_error=self.journal_error, replays=self.replays,
                names=dict(self.settings.names), claimed=self.access.claimed,
                stand_ins=dict(self.stand_ins))

    def public_state(self) -> dict[str, Any]:
        return views.public(self.view())

    def control_state(self) -> dict[str, Any]:
        return views.control(self.view())

    def seat_state(self, seat: int) -> dict[str, Any]:
        return views.seat(self.view(), seat)


_COMMANDS: dict[str, Callable[[Table, dict[str, Any], Auth], None]] = {
    "new_game": Table._new_game,
    "action": Table._action,
    "countdown": Table._countdown,
    "override": Table._override,
    "undo": Table._undo,
    "recount": Table._recount,
    "pause": Table._pause,
    "resume": Table._resume_play,
    "release": Table._release,
}
