"""The referee's one pure step: `reduce(state, input) -> (state, effects)`.

A functional core: no clock (every input carries its time), no thread, no I/O. The shell
feeds it what the table hears and keeps the state it returns (state.py): the recorder
(inputs.py) stamps and journals each input and the journal's writes before anything is
shown, the table (table.py) and its outbox carry out the rest. Here each input is
dispatched to what decides it and a fact is kept in the readings (readings.py keeps them
and answers what they read). A fact only adds to the readings, in place (nothing ever
takes a fact back); any other input works on a fork of the state, so when the journal
cannot take its writes the shell keeps the state it had and reduces `JournalFailed`
instead. Commands live in core_commands.py; the countdown's reading of the sensors in
stage.py (docs/REFEREE.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.referee import ending, equipment, replay, views
from companion.referee import stage as stages
from companion.referee.commands import CommandError
from companion.referee.core_commands import command
from companion.referee.effects import (
    Changed,
    Countdowns,
    Effect,
    Finish,
    Log,
    Record,
    Refused,
    Write,
)
from companion.referee.game import Game
from companion.referee.inputs import (
    Claim,
    Command,
    Echo,
    Heard,
    Input,
    JournalFailed,
    Link,
    Schedule,
    StandIns,
    Tick,
)
from companion.referee.labels import voided
from companion.referee.readings import Readings
from companion.referee.stage import Sensed, Stage
from companion.referee.state import OVERRIDE, SENSOR, State, step
from companion.referee.timing import Timing
from companion.referee.watermarks import BROKER, WAIT_MS
from companion.rules import Action, RuleError, apply_in_place
from companion.rules.events import Event, GameOver, RoundBegun, Wounded
from companion.rules.phases import reads_aims
from companion.sensors.facts import Fact


def reduce(state: State, inp: Input) -> tuple[State, list[Effect]]:
    """The state after `inp`, and what the shell must do (module docstring)."""
    work = state if isinstance(inp, Heard) and not deciding(state, inp) else state.fork()
    work.now_ms = max(state.now_ms, inp.at_ms)
    d = Decision(work)
    handlers: dict[type, Callable[[Any], None]] = {
        Heard: d.heard, Link: d.link, Echo: d.echo, Claim: d.claim, Tick: d.tick,
        JournalFailed: d.journal_failed, Command: lambda i: command(d, i),
        Schedule: lambda i: work.readings.matrix.schedule(i.seats, i.slot_us),
        StandIns: d.stand_ins,
    }
    try:
        handlers[type(inp)](inp)
    except CommandError as e:
        state.now_ms = work.now_ms
        return state, [Refused(e.kind, e.message, e.extra)]
    return work, d.out


def deciding(s: State, inp: Heard) -> bool:
    """Whether a fact may let a countdown waiting for it be decided (the state is then
    forked, as for any input that may write)."""
    return (inp.fact.kind == "seen" and s.stage.name in ("countdown", "kid")
            and max(s.now_ms, inp.at_ms) >= s.stage.decide_ms)


def keep(readings: Readings, fact: Fact) -> None:
    """A fact into the readings: a round's looks to the matrix, a lock indicator as it is
    now (a countdown never reads it), any other reading onto its seat's track."""
    if fact.kind == "seen":
        if isinstance(fact.value, tuple):  # (the codec checked it)
            readings.matrix.add(fact.t_ms, fact.value)
    elif fact.kind == "lock":
        if isinstance(fact.value, int):
            readings.locks[fact.seat] = fact.value
    else:
        readings.sensor_track(fact.seat, fact.kind).add(fact.t_ms, fact.value)


class Decision:
    """One input's decisions on a state: what changed, what the shell must do."""

    def __init__(self, state: State) -> None:
        self.s = state
        self.out: list[Effect] = []

    def changed(self, game: bool) -> None:
        s = self.s
        if game:
            s.version += 1
            key = step(s)
            if key != s.step_key:  # commands made in an earlier step are now stale
                s.step_key, s.step_version = key, s.version
        s.revision += 1
        self.out.append(Changed(game))

    def write(self, w: Write) -> None:
        self.out.append(w)

    def need_game(self) -> Game:
        if self.s.game is None:
            raise CommandError("rule", "no game is set up: start one first", rule="R1")
        return self.s.game

    def apply(self, action: Action, source: str) -> None:
        """Check with the rules, then journal and show (the shell writes before showing)."""
        game = self.need_game()
        trial = game.state.copy()
        before = len(trial.events)
        try:
            apply_in_place(trial, action)
        except RuleError as e:
            raise CommandError("rule", e.message, rule=e.rule) from None
        game.last_seq += 1
        self.write(Record(game.id, game.last_seq, action, source, self.s.now_ms))
        if action.type == "aim":
            self.s.ambiguous.pop(action.player, None)
        game.state = trial
        game.actions.append(action)
        game.sources.append(source)
        game.seqs.append(game.last_seq)
        game.times.append(self.s.now_ms)
        self.after(trial.events[before:])
        self.changed(game=True)

    def after(self, events: list[Event]) -> None:
        """What the referee does when the rules move on: lie-down requests, the end."""

        s, game = self.s, self.need_game()
        for e in events:
            if isinstance(e, Wounded):
                s.lay_down[e.player] = s.now_ms
            elif isinstance(e, RoundBegun):
                s.lay_down.clear()
                s.ambiguous.clear()
                if s.replays:
                    s.replays = ()
                    self.write(Countdowns(game.id, s.replays))
            elif isinstance(e, GameOver):
                self.write(Finish(game.id))
                game.history = ending.history(game)  # the end chart: built once
        g = game.state
        if s.stage.name == "reaim" and g.ordered is None:
            s.stage = Stage()
        if g.ordered is not None and s.stage.name != "reaim":  # (only the privilege orders)
            s.stage = Stage("reaim", since_ms=s.now_ms)

    def void(self, why: str, words: dict[str, Any]) -> None:
        """Call a countdown off: its facts cannot be trusted; the Godfather counts again."""
        self.out.append(Log(f"countdown voided: {why}"))
        self.s.stage, self.s.voided, self.s.voided_text = Stage(), why, words

    def sensed(self, sensed: Sensed) -> None:
        """Apply what the sensors read; a refusal (a tap got there first) is only logged."""
        manual = any(self.s.readings.is_manual(sensed.seat, k) for k in sensed.kinds)
        try:
            self.apply(sensed.action, OVERRIDE if manual else SENSOR)
        except CommandError as e:
            self.out.append(Log(f"sensed action {sensed.action} refused: {e.message}"))

    # -- the inputs ----------------------------------------------------------------------

    def heard(self, inp: Heard) -> None:
        s, fact = self.s, inp.fact
        keep(s.readings, fact)
        if fact.kind == "seen":  # a round's looks, dozens a second: the matrix is read, not
            # pushed; its time is the hub's watermark, named as its link is (mqtt_link)
            s.marks.advance(f"device:{fact.device[:32]}", fact.t_ms)
            self.due()
            return
        if fact.kind == "posture" and fact.value == "down" and s.game:
            name = s.game.player_at.get(fact.seat)
            if name in s.lay_down and fact.t_ms >= s.lay_down[name]:
                del s.lay_down[name]  # the wounded player's standee is down
                self.changed(game=True)
                return
        self.changed(game=False)

    def link(self, inp: Link) -> None:
        s = self.s
        if not s.links.set(inp.name, inp.up, inp.reason, s.now_ms, s.marks.last(inp.name)):
            return
        calls_off = not inp.up and s.stage.name in ("countdown", "kid")
        if calls_off:
            self.void(f"{inp.name} went down ({inp.reason})",
                      voided("voided.went_down", [inp.name], inp.reason))
        # a link that comes and goes outside a countdown changes what the pages show, not
        # the game: a Godfather's command made just before it still stands
        self.changed(game=calls_off)

    def echo(self, inp: Echo) -> None:
        """The broker passed on everything it had by the probe's sending: its watermark."""
        self.s.marks.advance(BROKER, min(inp.sent_ms, inp.at_ms))  # never ahead of now
        self.due()

    def claim(self, inp: Claim) -> None:
        from companion.referee.effects import Hold

        s = self.s
        game = self.need_game()
        if inp.seat not in game.player_at or inp.seat in s.claims:
            raise CommandError("conflict", f"seat {inp.seat} is held by another phone: ask "
                                           "the Godfather to release it")
        s.claims[inp.seat] = inp.digest
        s.phones[game.player_at[inp.seat]] = inp.digest  # the phone is the player's now
        self.write(Hold(game.id, inp.seat, inp.digest, s.now_ms))
        self.changed(game=False)

    def tick(self, _inp: Tick) -> None:
        """Do what is due now: a beat, a snapshot, an obeyed order (see `next_deadline`)."""
        s = self.s
        game, st = s.game, s.stage
        if s.paused or game is None or st.name == "idle":
            return
        if st.name == "reaim":
            if game.state.ordered is None:
                s.stage = Stage()
                self.changed(game=True)
                return
            sensed = stages.reaim(game, st, s.readings, s.now_ms, s.timing)
            if sensed is not None:
                self.sensed(sensed)
            return
        if stages.beat(st, s.now_ms) != st:
            s.stage = stages.beat(st, s.now_ms)
            self.changed(game=False)
        self.due()

    def due(self) -> None:
        """Decide the countdown once its time has come and every source it rests on has
        been heard past its window's end (watermarks.py); call it off if one is still
        behind WAIT_MS later."""
        s, st = self.s, self.s.stage
        if s.paused or st.name not in ("countdown", "kid") or s.now_ms < st.decide_ms:
            return
        behind = s.marks.behind(window_end(st, s.timing), st.beats_ms[0])
        if not behind:
            self.snapshot(st)
        elif s.now_ms >= st.decide_ms + WAIT_MS:
            late = ", ".join(f"{b.source} heard only up to {b.mark_ms - st.three_ms:+.0f} ms"
                             for b in behind)
            self.void(f"the count could not be completed: {late} from \"three\", the "
                      f"count needs {window_end(st, s.timing) - st.three_ms:+.0f} ms",
                      voided("voided.late", [b.source for b in behind]))
            self.changed(game=True)

    def snapshot(self, st: Stage) -> None:
        s = self.s
        game = self.need_game()
        s.stage = Stage()
        broken = s.links.broken_since(st.beats_ms[0])
        if broken is not None:  # a link was down while the facts happened: never "nobody"
            self.void(f"{broken.link} was down ({broken.reason})",
                      voided("voided.was_down", [broken.link], broken.reason))
            self.changed(game=True)
            return
        read = replay.record(game, st, s.readings, s.timing, len(s.replays) + 1)
        if read:
            s.replays += (read,)
            self.write(Countdowns(game.id, s.replays))
        actions, ambiguous = stages.snapshot(game, st, s.readings, s.timing)
        s.ambiguous.update(ambiguous)
        for sensed in actions:
            self.sensed(sensed)
        if reads_aims(st.step):
            s.stage = stages.after_snapshot(game.state, s.now_ms, s.timing)
        self.changed(game=True)

    def stand_ins(self, inp: StandIns) -> None:
        self.s.stand_ins = dict(inp.bots)
        self.changed(game=False)

    def journal_failed(self, inp: JournalFailed) -> None:
        """Nothing is shown that is not on disk: play waits until the Godfather resumes."""
        s = self.s
        s.paused, s.stage, s.journal_error = True, Stage(), inp.reason
        self.out.append(Log(f"journal failed, play paused: {inp.reason}"))
        self.changed(game=True)


def window_end(st: Stage, timing: Timing) -> float:
    """The last moment a countdown's decision reads (its decision time less the settle)."""
    return st.decide_ms - timing.settle_ms


def next_deadline(s: State, now: float) -> float | None:
    """When a `Tick` next has something to do, on the table's clock; None: only another
    input can give the referee work. A countdown waiting for a source (`Decision.due`)
    is next called off; the input that completes its data decides it before then."""
    due = stages.next_deadline(s.game, s.stage, s.paused, s.readings, now, s.timing)
    if due is not None and s.stage.name in ("countdown", "kid") and now >= s.stage.decide_ms:
        return s.stage.decide_ms + WAIT_MS
    return due


def view_of(s: State, names: dict[int, str], now: float) -> views.Snapshot:
    """The table at `now` for the views: never changed once made."""
    game = s.game
    return views.Snapshot(
        s.table, s.version, s.revision, s.paused, s.stage, now, game,
        sensors={seat: s.readings.seat_now(seat, now) for seat in equipment.SEATS},
        looks=s.readings.matrix.seats,
        lay_down=frozenset(s.lay_down), ambiguous=dict(s.ambiguous),
        links=s.links.public(), voided=s.voided, voided_text=s.voided_text,
        journal_error=s.journal_error,
        replays=s.replays, names=dict(names), claimed=frozenset(s.claims),
        stand_ins=dict(s.stand_ins), kit=s.kit())
