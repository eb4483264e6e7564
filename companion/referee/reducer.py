"""The referee's one pure step: `reduce(state, input) -> (state, effects)`, each input
handed to what decides it (the core's decisions in core.py, the commands in
core_commands.py), no clock, thread or I/O inside (docs/REFEREE.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.referee import core
from companion.referee.commands import CommandError
from companion.referee.core import State
from companion.referee.core_commands import command
from companion.referee.inputs import (
    Claim,
    Command,
    Echo,
    Effect,
    Heard,
    Input,
    JournalFailed,
    Link,
    Refused,
    Schedule,
    StandIns,
    Tick,
)


def reduce(state: State, inp: Input) -> tuple[State, list[Effect]]:
    """The state after `inp`, and what the shell must do (module docstring)."""
    work = state if isinstance(inp, Heard) and not deciding(state, inp) else state.fork()
    work.now_ms = max(state.now_ms, inp.at_ms)
    d = core.Decision(work)
    handlers: dict[type, Callable[[Any], None]] = {
        Heard: d.heard, Link: d.link, Echo: d.echo, Claim: d.claim, Tick: d.tick,
        JournalFailed: d.journal_failed, Command: lambda i: command(d, i),
        Schedule: lambda i: work.readings.matrix.schedule(i.seats, i.slot_us),
        StandIns: lambda i: stand_ins(d, i),
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


def stand_ins(d: core.Decision, inp: StandIns) -> None:
    d.s.stand_ins = dict(inp.bots)
    d.changed(game=False)
