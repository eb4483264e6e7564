"""The live table: one game, its journal, the sensors' readings and the referee's stage.

Sensor facts, tablet and phone commands and the clock's ticks all arrive here, on
different threads, and are serialised by one lock. Rules actions come out of it: each
one is checked by the engine, written to the journal, and only then applied and shown.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from companion.clock import Clock
from companion.referee import views
from companion.referee.game import Game, engine_setup
from companion.referee.journal import Journal
from companion.referee.readings import Readings
from companion.referee.settings import RefereeSettings
from companion.referee.timing import (
    aim_intervals,
    aim_snapshot,
    among,
    new_aim,
    posture_snapshot,
)
from companion.rules import Action, RuleError, apply_in_place, legal_actions, new_game
from companion.rules.powers import KID, POWERS
from companion.rules.setup import VARIANTS
from companion.scenario.load import parse_action
from companion.sensors.facts import Fact
from companion.yamlfile import YamlError

Listener = Callable[[int], None]
log = logging.getLogger(__name__)
# Commands that must be made against the very latest state, not only the current step.
EXACT_VERSION = ("new_game", "undo")


class CommandError(Exception):
    """A refused command: `status` is the HTTP status the API answers with."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


@dataclass(frozen=True)
class Auth:
    """Who sends a command: the Godfather's tablet (control) or a phone for one seat."""

    control: bool = False
    seat: int | None = None


@dataclass(frozen=True)
class Stage:
    """The referee's step inside the rules step: what it is timing or watching."""

    name: str = "idle"  # idle, countdown, kid, reaim
    step: str | None = None  # holdup or courage, for a countdown
    beats_ms: tuple[float, ...] = ()
    three_ms: float = 0.0
    decide_ms: float = 0.0
    since_ms: float = 0.0  # reaim: when the order was given
    beat: int = 0  # beats announced so far

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.name in ("countdown", "kid"):
            out.update(step=self.step, beat=self.beat, beats_ms=list(self.beats_ms),
                       cutoff_ms=self.three_ms, decide_ms=self.decide_ms)
        return out


class Table:
    def __init__(self, name: str, settings: RefereeSettings, journal: Journal, clock: Clock,
                 simulator: Any = None) -> None:
        self.name, self.settings, self.journal, self.clock = name, settings, journal, clock
        self.simulator = simulator
        self.timing = settings.timing
        self.pin = settings.pin or f"{secrets.randbelow(10**4):04d}"
        self._secret = journal.secret()
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.readings = Readings()
        self.game: Game | None = None
        self.stage = Stage()
        self.paused = False
        self.version = 0  # bumped by every change to the game or the referee's stage
        self.revision = 0  # bumped by every change at all, sensor readings included
        self.lay_down: dict[str, float] = {}  # wounded players asked to lie down, since when
        self.ambiguous: dict[str, list[int]] = {}  # aims the Godfather decides: the seats seen
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
        latest = self.journal.latest_game()
        if latest is None:
            return
        self._load(latest[0])

    def _load(self, game_id: int) -> None:
        setup = self.journal.setup(game_id)
        state = new_game(engine_setup(setup))
        game = Game(game_id, setup, state, {n: int(s) for n, s in setup["seats"].items()})
        for entry in self.journal.entries(game_id):
            apply_in_place(state, entry.action)  # accepted once: the rules accept it again
            game.actions.append(entry.action)
            game.sources.append(entry.source)
        self.game = game
        self.stage = Stage()
        self.ambiguous = {}
        if state.phase == "privilege" and state.ordered is not None:  # (an undo, a restart)
            self.stage = Stage("reaim", since_ms=self.clock.now_ms())
        self._recall_lay_down()

    def _recall_lay_down(self) -> None:
        """Ask again the players this round wounded to lie down (a restart, an undo).

        A request already made keeps its time; a recalled one is met by any standee read
        down, since when it went down was lost with the power.
        """
        game = self._need_game()
        wounded: set[str] = set()
        for e in reversed(game.state.events):
            if e["type"] == "round":
                break
            if e["type"] == "wounded":
                wounded.add(e["player"])
        now = self.clock.now_ms()
        self.lay_down = {
            name: self.lay_down.get(name, float("-inf")) for name in wounded
            if name in self.lay_down
            or self.readings.now(game.seat_of[name], "posture", now) != "down"}

    def seat_token(self, seat: int) -> str:
        game = self.game.id if self.game else 0
        msg = f"{self.name}:{game}:{seat}".encode()
        return hmac.new(self._secret, msg, hashlib.sha256).hexdigest()[:20]

    def check_seat_token(self, seat: int, token: str) -> bool:
        return hmac.compare_digest(self.seat_token(seat), token or "")

    def check_pin(self, pin: str) -> bool:
        return hmac.compare_digest(self.pin.encode(), (pin or "").encode())

    # -- sensor input --------------------------------------------------------------------

    def on_fact(self, fact: Fact) -> None:
        with self._lock:
            self.readings.add(fact)
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
                               rule="R1")
        setup = self._check_setup(cmd)
        game_id = self.journal.new_game(setup, self.clock.now_ms())
        if self.game:
            self.journal.finish(self.game.id)
        self.lay_down.clear()
        self._load(game_id)
        self._changed(game=True)

    def _check_setup(self, cmd: dict[str, Any]) -> dict[str, Any]:
        players = cmd.get("players")
        if not isinstance(players, list) or not 4 <= len(players) <= 8:
            raise CommandError(400, "players: list 4 to 8 players, clockwise from the "
                                    "Godfather's desk")
        names: list[str] = []
        seats: dict[str, int] = {}
        for i, p in enumerate(players):
            entry = p if isinstance(p, dict) else {"name": p, "seat": i + 1}
            name, seat = entry.get("name"), entry.get("seat")
            if not isinstance(name, str) or not name.strip() or len(name) > 24:
                raise CommandError(400, f"players[{i}].name: a name of 1 to 24 characters")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 8:
                raise CommandError(400, f"players[{i}].seat: a seat from 1 to 8")
            if name in seats or seat in seats.values():
                raise CommandError(400, f"players[{i}]: {name!r} or seat {seat} is given twice")
            names.append(name)
            seats[name] = seat
        order = sorted(seats.values())
        if [seats[n] for n in names] != order[order.index(seats[names[0]]):] + \
                order[: order.index(seats[names[0]])]:
            raise CommandError(400, "players: list them clockwise, by seat number, from "
                                    "the Godfather's desk")
        seed = cmd.get("seed", secrets.randbelow(2**31))
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise CommandError(400, "seed: a whole number")
        powers = self._check_powers(cmd.get("powers", "none"), names, seed)
        variant = cmd.get("variant", {})
        if not isinstance(variant, dict) or any(
                k not in VARIANTS or v not in VARIANTS[k] for k, v in variant.items()):
            raise CommandError(400, f"variant: known switches are {VARIANTS}")
        cards = cmd.get("cards", "digital")
        if cards not in ("digital", "physical"):
            raise CommandError(400, "cards: digital or physical")
        loot = cmd.get("loot", "digital")
        if loot not in ("digital", "physical"):
            raise CommandError(400, "loot: digital (the companion deals) or physical (the "
                                    "Godfather enters the cards turned up)")
        return {"players": names, "seats": seats, "powers": powers, "seed": seed,
                "variant": variant, "cards": cards, "loot": loot}

    def _check_powers(self, powers: Any, names: list[str], seed: int) -> dict[str, str]:
        if powers == "none":
            return {}
        if powers == "random":  # dealt from the game's seed: a seed repeats the whole game
            dealt = random.Random(seed).sample(POWERS, len(names))
            return dict(zip(names, dealt, strict=True))
        if not isinstance(powers, dict) or any(n not in names for n in powers):
            raise CommandError(400, "powers: \"none\", \"random\" or {player: power}")
        for name, power in powers.items():
            if power not in POWERS:
                raise CommandError(400, f"powers.{name}: unknown power {power!r}")
        if len(set(powers.values())) != len(powers):
            raise CommandError(400, "powers: a power is dealt twice")
        return dict(powers)

    def _action(self, cmd: dict[str, Any], auth: Auth) -> None:
        game = self._need_game()
        try:
            action = parse_action(cmd.get("action"), tuple(game.state.index),
                                  game.state.physical, "action")
        except YamlError as e:
            raise CommandError(400, str(e)) from None
        source = "tablet"
        if not auth.control:
            if auth.seat is None or game.player_at.get(auth.seat) != action.player:
                raise CommandError(403, f"this phone acts only for {game.player_at.get(auth.seat)}"
                                   if auth.seat else "a player's action needs its seat token")
            source = "phone"
        self._apply(action, source)

    def _apply(self, action: Action, source: str) -> None:
        """Check with the rules, journal, then show: in that order, always."""
        game = self._need_game()
        trial = game.state.copy()
        before = len(trial.events)
        try:
            apply_in_place(trial, action)
        except RuleError as e:
            raise CommandError(422, e.message, rule=e.rule) from None
        self.journal.record(game.id, action, source, self.clock.now_ms())
        if action.type == "aim":
            self.ambiguous.pop(action.player, None)
        game.state = trial
        game.actions.append(action)
        game.sources.append(source)
        self._after(trial.events[before:])
        self._changed(game=True)

    def _after(self, events: list[dict[str, Any]]) -> None:
        """What the referee does when the rules move on: lie-down requests, the end."""
        game = self._need_game()
        now = self.clock.now_ms()
        for e in events:
            if e["type"] == "wounded":
                self.lay_down[e["player"]] = now
            elif e["type"] == "round":
                self.lay_down.clear()
                self.ambiguous.clear()
            elif e["type"] == "game_over":
                self.journal.finish(game.id)
        s = game.state
        if self.stage.name == "reaim" and s.ordered is None:
            self.stage = Stage()
        if s.phase == "privilege" and s.ordered is not None and self.stage.name != "reaim":
            self.stage = Stage("reaim", since_ms=now)

    def _countdown(self, _cmd: dict[str, Any], _auth: Auth) -> None:
        s = self._need_game().state
        step = None
        if s.phase == "holdup" and any(not p.aimed for p in s.living()):
            step = "holdup"
        elif s.phase == "courage" and any(p.down is None for p in s.living()):
            step = "courage"
        if step is None or self.stage.name != "idle" or self.paused:
            raise CommandError(422, "no countdown now: the hold-up and courage steps have one, "
                                    "once every card is down", rule="R3")
        now = self.clock.now_ms()
        beats = tuple(now + i * self.timing.beat_ms for i in range(3))
        three = beats[-1]
        decide = three + (self.timing.too_slow_ms if step == "holdup" else
                          self.timing.posture_ms) + self.timing.settle_ms
        self.stage = Stage("countdown", step, beats, three, decide, beat=1)
        self._changed(game=True)

    def _override(self, cmd: dict[str, Any], _auth: Auth) -> None:
        seat, fact = cmd.get("seat"), cmd.get("fact")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 8:
            raise CommandError(400, "seat: a seat from 1 to 8")
        if fact not in ("aim", "raised", "posture"):
            raise CommandError(400, "fact: aim, raised or posture")
        if cmd.get("clear") is True:
            self.readings.clear(seat, fact)
        else:
            value = cmd.get("value")
            ok = {"aim": value is None or (isinstance(value, int) and not isinstance(value, bool)
                                           and 1 <= value <= 8 and value != seat),
                  "raised": isinstance(value, bool),
                  "posture": value in ("up", "down")}[fact]
            if not ok:
                raise CommandError(400, f"value: not a reading for {fact}: {value!r}")
            self.readings.override(seat, fact, value)
        self._changed(game=True)

    def _undo(self, _cmd: dict[str, Any], _auth: Auth) -> None:
        game = self._need_game()
        entries = self.journal.entries(game.id)
        if not entries:
            raise CommandError(422, "nothing to undo", rule="R3")
        last = entries[-1]
        replayed = new_game(engine_setup(game.setup))
        for entry in entries[:-1]:
            apply_in_place(replayed, entry.action)
        if replayed.round != game.state.round:
            raise CommandError(422, "only actions of the current round can be undone", rule="R3")
        self.journal.undo(game.id, last.seq)
        self._load(game.id)
        self._changed(game=True)

    def _pause(self, _cmd: dict[str, Any], _auth: Auth) -> None:
        self.paused = True
        self.stage = Stage()
        self._changed(game=True)

    def _resume_play(self, _cmd: dict[str, Any], _auth: Auth) -> None:
        self.paused = False
        self._changed(game=True)

    # -- time: countdown beats and snapshots ---------------------------------------------

    def tick(self) -> None:
        """Do what is due now: a beat, a snapshot, an obeyed order (see `next_deadline`)."""
        with self._lock:
            if self.paused or self.game is None or self.stage.name == "idle":
                return
            now = self.clock.now_ms()
            st = self.stage
            if st.name == "countdown" and st.beat < 3 and now >= st.beats_ms[st.beat]:
                beat = sum(1 for b in st.beats_ms if now >= b)
                self.stage = replace(st, beat=beat)
                self._changed(game=False)
            if st.name in ("countdown", "kid") and now >= st.decide_ms:
                self._snapshot()
            elif st.name == "reaim":
                self._watch_reaim(now)

    def next_deadline(self) -> float | None:
        """When `tick` next has something to do, on the table's clock; None: only a change
        (a fact, a command) can give it work. The time driver sleeps until then."""
        with self._lock:
            st = self.stage
            if self.paused or self.game is None or st.name == "idle":
                return None
            if st.name == "countdown" and st.beat < 3:
                return st.beats_ms[st.beat]
            if st.name in ("countdown", "kid"):
                return st.decide_ms
            return self._reaim_deadline()

    def _reaim_deadline(self) -> float | None:
        """When the ordered gun's current aim, if it is an allowed one, will have been held."""
        game = self._need_game()
        s = game.state
        if s.ordered is None:
            return self.clock.now_ms()  # nothing to watch: tick ends the stage
        seat, allowed = self._reaim_targets()
        aim, raised = self.readings.aim_tracks(seat)
        intervals = aim_intervals(aim, raised, self.clock.now_ms())
        if not intervals or intervals[-1][1] is not None:
            return None
        start, _end, value = intervals[-1]
        if not isinstance(among(value, allowed), int):
            return None
        return max(start, self.stage.since_ms) + self.timing.hold_ms

    def _reaim_targets(self) -> tuple[int, set[int]]:
        """The ordered gun's seat, and the seats it may turn to (not its old target)."""
        game = self._need_game()
        s = game.state
        p = s.players[s.ordered] if s.ordered is not None else None
        assert p is not None
        old = {game.seat_of[s.players[p.target].name]} if p.target is not None else set()
        return game.seat_of[p.name], self._valid_targets(p.name) - old

    def _valid_targets(self, name: str) -> set[int]:
        game = self._need_game()
        return {game.seat_of[p.name] for p in game.state.living() if p.name != name}

    def _source(self, seat: int, kinds: tuple[str, ...]) -> str:
        return "override" if any(self.readings.is_manual(seat, k) for k in kinds) else "sensor"

    def _sensed(self, action: Action, seat: int, kinds: tuple[str, ...]) -> None:
        """Apply what a snapshot read; a refusal (a tap got there first) is only logged."""
        try:
            self._apply(action, self._source(seat, kinds))
        except CommandError as e:
            log.warning("snapshot action %s refused: %s", action, e.message)

    def _snapshot(self) -> None:
        game = self._need_game()
        st, s = self.stage, game.state
        self.stage = Stage()
        try:
            if st.step == "courage":
                for p in [p for p in s.living() if p.down is None]:
                    seat = game.seat_of[p.name]
                    posture = self.readings.track(seat, "posture")
                    down = posture is not None and posture_snapshot(posture, st.three_ms,
                                                                    self.timing)
                    self._sensed(Action("courage", p.name, down=down), seat, ("posture",))
                return
            waiting = [p for p in s.living() if not p.aimed]
            kid_turn = st.name == "kid" or all(p.power == KID for p in waiting)
            for p in [p for p in waiting if (p.power == KID) == kid_turn]:
                seat = game.seat_of[p.name]
                aim, raised = self.readings.aim_tracks(seat)
                target = aim_snapshot(aim, raised, st.three_ms, self.timing,
                                      self._valid_targets(p.name))
                if isinstance(target, tuple):  # the gun saw two players: not ours to guess
                    self.ambiguous[p.name] = list(target)
                    continue
                self._sensed(Action("aim", p.name, target=game.player_at.get(target)
                                    if target else None), seat, ("aim", "raised"))
            s = game.state
            kid = next((p for p in s.living() if p.power == KID and not p.aimed), None)
            if kid is not None and s.phase == "holdup":
                now = self.clock.now_ms()
                self.stage = Stage("kid", "holdup", (now,), now,
                                   now + self.timing.too_slow_ms + self.timing.settle_ms, beat=3)
        finally:
            self._changed(game=True)

    def _watch_reaim(self, now: float) -> None:
        game = self._need_game()
        s = game.state
        if s.ordered is None:
            self.stage = Stage()
            return
        p = s.players[s.ordered]
        seat, allowed = self._reaim_targets()
        aim, raised = self.readings.aim_tracks(seat)
        target = new_aim(aim, raised, self.stage.since_ms, now, self.timing, allowed)
        if target is not None:
            self._sensed(Action("aim", p.name, target=game.player_at[target]), seat,
                         ("aim", "raised"))

    # -- views ---------------------------------------------------------------------------

    def legal(self) -> list[Action]:
        with self._lock:
            return legal_actions(self.game.state) if self.game else []

    def public_state(self) -> dict[str, Any]:
        with self._lock:
            return views.public(self)

    def control_state(self) -> dict[str, Any]:
        with self._lock:
            return views.control(self)

    def seat_state(self, seat: int) -> dict[str, Any]:
        with self._lock:
            return views.seat(self, seat)


_COMMANDS: dict[str, Callable[[Table, dict[str, Any], Auth], None]] = {
    "new_game": Table._new_game,
    "action": Table._action,
    "countdown": Table._countdown,
    "override": Table._override,
    "undo": Table._undo,
    "pause": Table._pause,
    "resume": Table._resume_play,
}
