"""`companion replay --journal FILE [--game N]`: a live game replayed from its inputs.

Each start of the table journals its `Boot` and then every input the referee acted on,
with what it decided (inputs.Recorder) and a digest of the public view it showed
(outbox.py). A replay runs the same inputs through the same core (core.reduce) and
compares, input after input, the decision and the view; it stops at the first that differs
and says which input it was, what was expected and what came out. A disputed call at a
real table replays at home.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from companion.referee import core
from companion.referee.inputs import Boot, LooksRows, decided
from companion.referee.journal import Journal
from companion.referee.outbox import view_digest
from companion.referee.state import State, start


@dataclass(frozen=True)
class Difference:
    """The first input whose decision or view came out otherwise than recorded."""

    boot: int
    seq: int
    kind: str
    data: str
    what: str  # "decision" or "view"
    expected: str
    got: str

    def __str__(self) -> str:
        return (f"input {self.seq} (start {self.boot}, {self.kind} {self.data}): the "
                f"{self.what} differs\n  expected: {self.expected}\n  got:      {self.got}")


@dataclass(frozen=True)
class Replayed:
    inputs: int  # replayed
    views: int  # view digests compared
    difference: Difference | None


Rows = list[tuple[int, int | None, float, str, str, str]]


def _opened(journal: Journal, boot: int) -> tuple[Rows, LooksRows, State]:
    """One start's inputs, its looks' reader and the state its Boot begins with."""
    rows = journal.inputs(boot)
    if not rows or rows[0][3] != "Boot":
        raise ValueError(f"start {boot} has no Boot record: its inputs cannot be replayed")
    looks = LooksRows()
    first = looks.from_json(rows[0][3], rows[0][2], rows[0][4])
    assert isinstance(first, Boot)
    return rows, looks, start(first)


def replay_boot(journal: Journal, boot: int) -> Replayed:
    """Replay one start of the table from its Boot; stop at the first difference."""
    rows, looks, state = _opened(journal, boot)
    shown = journal.shown(boot)
    views, last = 0, rows[0][0]
    for seq, _game, at_ms, kind, data, recorded in rows[1:]:
        if seq != last + 1:  # (inputs reach the disk in order: a gap is a damaged record)
            return Replayed(seq, views, Difference(boot, seq, kind, data, "record",
                                                   f"input {last + 1}", f"input {seq}"))
        last = seq
        item = looks.from_json(kind, at_ms, data)
        assert not isinstance(item, Boot)
        state, effects = core.reduce(state, item)
        got = decided(state, effects)
        if got != recorded:
            return Replayed(seq, views, Difference(boot, seq, kind, data, "decision",
                                                   recorded, got))
        if seq in shown:
            views += 1
            digest = view_digest(core.view_of(state, {}, state.now_ms))
            if digest != shown[seq]:
                return Replayed(seq, views, Difference(boot, seq, kind, data, "public view",
                                                       shown[seq], digest))
    return Replayed(len(rows) - 1, views, None)


def replay_game(journal: Journal, game: int) -> tuple[list[int], Replayed]:
    """Replay every start in which `game` was in play: (the starts, the totals and the
    first difference)."""
    boots = journal.boots(game)
    inputs = views = 0
    for boot in boots:
        done = replay_boot(journal, boot)
        inputs, views = inputs + done.inputs, views + done.views
        if done.difference is not None:
            return boots, Replayed(inputs, views, done.difference)
    return boots, Replayed(inputs, views, None)


def run(path: str, game: int | None, out: list[str]) -> int:
    """The command: lines for people in `out`; 0 the same, 1 a difference, 2 no replay."""
    from pathlib import Path

    from companion.referee.journal import JournalError

    if not Path(path).is_file():
        out.append(f"no journal at {path}")
        return 2
    try:
        journal = Journal(path)
    except JournalError as e:
        out.append(str(e))
        return 2
    try:
        if game is None:
            latest = journal.latest_game()
            if latest is None:
                out.append(f"no game in {path}")
                return 2
            game = latest[0]
        try:
            boots, done = replay_game(journal, game)
        except (KeyError, ValueError, TypeError, json.JSONDecodeError) as e:
            out.append(f"game {game}: the journal's inputs cannot be read: {e}")
            return 2
        if not boots:
            out.append(f"game {game}: no inputs recorded (played before the journal kept "
                       "them, or deleted with the oldest games)")
            return 2
        if done.difference is not None:
            out.append(f"game {game}: {done.difference}")
            return 1
        out.append(f"game {game}: {done.inputs} inputs replayed over {len(boots)} start(s); "
                   f"every decision and the {done.views} public views are the same")
        return 0
    finally:
        journal.close()
