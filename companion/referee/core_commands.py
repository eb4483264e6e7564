"""The commands of the tablet and the phones, decided by the core (core.py): each checks
what it was sent against the state, then changes the state and says what to journal.
The core dispatches to them, handing its `Decision` (so it is named here for types only)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.referee import amend
from companion.referee import stage as stages
from companion.referee.access import SENSED, check_player, check_sensed, reseated
from companion.referee.commands import EXACT_VERSION, Auth, CommandError
from companion.referee.effects import Countdowns, Finish, Hold, NewGame, Rewrite, Undo
from companion.referee.inputs import Command
from companion.referee.journal import Entry
from companion.referee.setup import SEATING, check_setup
from companion.referee.stage import Stage
from companion.referee.state import OVERRIDE, load
from companion.schema import parse_action
from companion.yamlfile import FieldError

if TYPE_CHECKING:
    from companion.referee.core import Decision

Handler = Callable[["Decision", dict[str, Any], Auth], None]


def command(d: Decision, inp: Command) -> None:
    cmd, auth = inp.cmd, inp.auth
    if not isinstance(cmd, dict):
        raise CommandError("invalid", "a command is a JSON object with a type")
    kind = cmd.get("type")
    handler = COMMANDS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise CommandError("invalid", f"unknown command type {kind!r} "
                                      f"(known: {', '.join(COMMANDS)})")
    if kind != "action" and not auth.control:
        raise CommandError("forbidden", f"{kind} needs the table PIN")
    version = cmd.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise CommandError("invalid", "version: the state version the command was made "
                                      "against is required (a whole number)")
    s = d.s
    oldest = s.version if kind in EXACT_VERSION else s.step_version
    if not oldest <= version <= s.version:
        raise CommandError("conflict", f"the table has moved on since (version {version}, "
                                       f"now {s.version}): look again and retry",
                           version=s.version)
    handler(d, cmd, auth)


def new_game(d: Decision, cmd: dict[str, Any], _auth: Auth) -> None:
    s = d.s
    if s.game and not s.game.state.over and cmd.get("abandon") is not True:
        raise CommandError("rule", "a game is in progress: send abandon: true to end it",
                           rule="R1", code="game_in_progress")
    setup = check_setup(cmd)
    check_seating(cmd)
    s.last_game += 1
    d.write(NewGame(s.last_game, setup, s.now_ms))
    if s.game:
        d.write(Finish(s.game.id))
    s.lay_down.clear()
    s.replays = ()
    load(s, s.last_game, setup, [], 0)
    s.claims = reseated(s.phones, s.game.seat_of if s.game else {})
    for seat, digest in sorted(s.claims.items()):  # journaled: a restart keeps them
        d.write(Hold(s.last_game, seat, digest, s.now_ms))
    d.changed(game=True)


def check_seating(cmd: dict[str, Any]) -> None:
    """Refuse seats the table's seating check refuses (the grip the table plays with fails
    as the players sit), and seats it warns of unless the Godfather confirms them."""
    confirm = cmd.get("confirm_seating", False)
    if not isinstance(confirm, bool):
        raise CommandError("invalid", "confirm_seating: true or false")
    seating = cmd.get(SEATING)
    if not isinstance(seating, dict) or seating.get("verdict") not in ("refuse", "warn"):
        return  # no table geometry known, or the seats pass
    if seating["verdict"] == "warn" and confirm:
        return
    raise CommandError("seating", str(seating.get("why", "the seating check fails these seats")),
                       code=f"seating_{seating['verdict']}", verdict=seating["verdict"])


def action(d: Decision, cmd: dict[str, Any], auth: Auth) -> None:
    game = d.need_game()
    try:
        act = parse_action(cmd.get("action"), tuple(game.state.index), game.state.physical,
                           "action")
    except FieldError as e:
        raise CommandError("invalid", str(e)) from None
    check_player(auth, act.player, act.to_dict(), game.player_at)
    override = cmd.get("override", False)
    if not isinstance(override, bool) or (override and act.type not in SENSED):
        raise CommandError("invalid", "override: true or false, and only for an aim or a "
                                      "posture (what the sensors read)")
    check_sensed(auth, act.player, game.seat_of[act.player], act.type,
                 d.s.kit(), override)
    d.apply(act, OVERRIDE if override else "tablet" if auth.control else "phone")


def countdown(d: Decision, _cmd: dict[str, Any], _auth: Auth) -> None:
    s, game = d.s, d.need_game()
    if down := s.links.down():
        raise CommandError("blind", f"no countdown while the {down[0].link} link is down "
                                    f"({down[0].reason}): the referee would decide blind",
                           links=s.links.public())
    s.stage = stages.countdown(game.state, s.stage, s.paused, s.now_ms, s.timing)
    s.voided = s.voided_text = None
    d.changed(game=True)


def override(d: Decision, cmd: dict[str, Any], _auth: Auth) -> None:
    seat, fact, clear, value = amend.reading(cmd)
    if clear:
        d.s.readings.clear(seat, fact)
    else:
        d.s.readings.override(seat, fact, value)
    d.changed(game=True)


def undo(d: Decision, _cmd: dict[str, Any], _auth: Auth) -> None:
    game = d.need_game()
    entries = game.entries()
    last = amend.last_of_round(game, entries)
    d.write(Undo(game.id, last.seq))
    load(d.s, game.id, game.setup, entries[:-1], game.last_seq)
    d.changed(game=True)


def recount(d: Decision, cmd: dict[str, Any], _auth: Auth) -> None:
    """Count one player's part of a settled countdown otherwise, from its replay."""
    s, game = d.s, d.need_game()
    if s.stage.name in ("countdown", "kid"):
        raise CommandError("conflict", "a countdown is running: recount once it is settled")
    shown = amend.find_replay(s.replays, cmd)
    act = amend.recounted(game, shown, cmd)
    entries = game.entries()
    first, actions = amend.recount(game, entries, shown, act, s.now_ms)
    d.write(Rewrite(game.id, first, tuple(actions)))
    kept = [e for e in entries if e.seq < first]
    seqs = range(game.last_seq + 1, game.last_seq + 1 + len(actions))
    fresh = [Entry(seq, a, source, at) for seq, (a, source, at) in zip(seqs, actions,
                                                                        strict=True)]
    s.replays = amend.marked(s.replays, shown, act)
    d.write(Countdowns(game.id, s.replays))
    load(s, game.id, game.setup, kept + fresh, game.last_seq + len(actions))
    d.changed(game=True)


def release(d: Decision, cmd: dict[str, Any], _auth: Auth) -> None:
    """The Godfather frees a seat: its phone is cut off, the link claims it again."""
    s, seat = d.s, cmd.get("seat")
    seats = frozenset(s.game.player_at) if s.game else frozenset()
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in seats:
        raise CommandError("invalid", f"seat: one of this game's seats "
                                      f"({', '.join(map(str, sorted(seats)))})")
    if seat not in s.claims:
        raise CommandError("rule", f"no phone holds seat {seat}: nothing to release")
    del s.claims[seat]
    s.phones.pop(s.game.player_at[seat] if s.game else "", None)  # that phone is out
    d.write(Hold(d.need_game().id, seat, None, s.now_ms))
    d.changed(game=True)


def pause(d: Decision, _cmd: dict[str, Any], _auth: Auth) -> None:
    d.s.paused = True
    d.s.stage = Stage()
    d.changed(game=True)


def resume(d: Decision, _cmd: dict[str, Any], _auth: Auth) -> None:
    d.s.paused, d.s.journal_error = False, None  # (the next action writes again)
    d.changed(game=True)


COMMANDS: dict[str, Handler] = {
    "new_game": new_game, "action": action, "countdown": countdown, "override": override,
    "undo": undo, "recount": recount, "pause": pause, "resume": resume, "release": release,
}
