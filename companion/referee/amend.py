"""The Godfather's corrections to what was journaled: undo the last action of the round, or
recount one player's part of a countdown from its replay (an override, journaled as such).

A recount replaces the action that countdown made for that player and replays every
later action of the round through the rules; if one of them no longer fits, nothing
changes and the refusal says which. Pure: it plans, the table writes the journal.
"""

from __future__ import annotations

from typing import Any

from companion.referee.commands import CommandError
from companion.referee.game import Game, engine_setup
from companion.referee.journal import Entry
from companion.rules import Action, RuleError, apply_in_place, new_game
from companion.rules.actions import Aim, Courage
from companion.rules.phases import reads_postures
from companion.schema import reading_problem

OVERRIDE = "override"  # the journal's source for a reading or a count the Godfather replaced


def last_of_round(game: Game, entries: list[Entry]) -> Entry:
    """The entry an undo takes back: the last one, if it belongs to the current round."""
    if not entries:
        raise CommandError("rule", "nothing to undo", rule="R3")
    state = new_game(engine_setup(game.setup))
    for entry in entries[:-1]:
        apply_in_place(state, entry.action)
    if state.round != game.state.round:
        raise CommandError("rule", "only actions of the current round can be undone", rule="R3")
    return entries[-1]


def reading(cmd: dict[str, Any]) -> tuple[int, str, bool, Any]:
    """An override of a sensor reading checked: (seat, fact, clear, value)."""
    seat, fact = cmd.get("seat"), cmd.get("fact")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 8:
        raise CommandError("invalid", "seat: a seat from 1 to 8")
    if fact not in ("aim", "raised", "posture"):
        raise CommandError("invalid", "fact: aim, raised or posture")
    clear, value = cmd.get("clear") is True, cmd.get("value")
    problem = None if clear else reading_problem(fact, seat, value)  # the fact's schema
    if problem:
        raise CommandError("invalid", f"value: not a reading for {fact}: {problem}")
    return seat, fact, clear, value


def find_replay(replays: tuple[dict[str, Any], ...], cmd: dict[str, Any]) -> dict[str, Any]:
    number = cmd.get("replay")
    replay = next((r for r in replays if r["id"] == number), None)
    if replay is None:
        known = ", ".join(str(r["id"]) for r in replays) or "none this round"
        raise CommandError("invalid",
                           f"replay: no countdown {number!r} to recount (known: {known})")
    return replay


def recounted(game: Game, replay: dict[str, Any], cmd: dict[str, Any]) -> Action:
    """The action the Godfather counts instead, checked against the replay's rows."""
    player = cmd.get("player")
    rows = {row["player"]: row for row in replay["rows"]}
    if not isinstance(player, str) or player not in rows:
        raise CommandError("invalid", f"player: one of {', '.join(rows)} (the players this "
                                      f"countdown read), not {player!r}")
    if reads_postures(replay["step"]):
        down = cmd.get("down")
        if not isinstance(down, bool):
            raise CommandError("invalid", "down: true (lay down) or false (stood)")
        return Courage(player, down=down)
    target = cmd.get("target")
    if target is not None and (target == player or target not in game.state.index):
        raise CommandError("invalid", f"target: another player's name, or null (too slow), "
                                      f"not {target!r}")
    return Aim(player, target=target)


def recount(game: Game, entries: list[Entry], replay: dict[str, Any], action: Action,
            now: float) -> tuple[int, list[tuple[Action, str, float]]]:
    """(the first sequence number to replace, the actions that replace it and every later
    one): `action` in place of what the countdown made, the rest as they were."""
    if replay["round"] != game.state.round or game.state.over:
        raise CommandError("rule", "only this round's countdowns can be recounted", rule="R3")
    state = new_game(engine_setup(game.setup))
    at = len(entries)
    for i, entry in enumerate(entries):
        if state.round == replay["round"] and entry.action.type == action.type \
                and entry.action.player == action.player:
            at = i
            break
        apply_in_place(state, entry.action)
    if at < len(entries) and entries[at].action == action:
        raise CommandError("rule", f"{action.player}'s part was already counted so")
    tail = entries[at + 1:]
    try:
        apply_in_place(state, action)
    except RuleError as e:
        raise CommandError("rule", e.message, rule=e.rule) from None
    for entry in tail:
        try:
            apply_in_place(state, entry.action)
        except RuleError as e:
            raise CommandError("rule", f"what followed no longer fits ({entry.action.type} by "
                                       f"{entry.action.player}: {e.message}): undo it first",
                               rule=e.rule) from None
    first = entries[at].seq if at < len(entries) else (entries[-1].seq + 1 if entries else 1)
    stamp = entries[at].at_ms if at < len(entries) else now
    return first, [(action, OVERRIDE, stamp)] + [(e.action, e.source, e.at_ms) for e in tail]


def marked(replays: tuple[dict[str, Any], ...], replay: dict[str, Any],
           action: Action) -> tuple[dict[str, Any], ...]:
    """The replays with the recounted row saying what the Godfather counted instead."""
    value: dict[str, Any] = {"down": action.down} if isinstance(action, Courage) \
        else {"target": getattr(action, "target", None)}
    rows = [row | {"counted": value, "override": True} if row["player"] == action.player
            else row for row in replay["rows"]]
    return tuple(r | {"rows": rows} if r is replay else r for r in replays)
