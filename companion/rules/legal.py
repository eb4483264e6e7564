"""What is legal now, read from the phase table: listed, or drawn without listing.

`legal_actions` lists every action `apply` accepts, those that pass an optional window
included (at a resting window: its holder's actions, then those of the state once it is
passed). `draw_legal` draws the one `random.choice` would draw from that list, without
building it: a step of everyone at once counts its actions and builds only the one drawn,
and a window is passed in place and put back instead of copying the state, whenever
passing it only moves the game on (`Phase.moves_on`). `play_random`, for a player that
owns the state, draws so and applies what it draws, a step at a time (its fast path: `fastplay.py`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from companion.rules.actions import Action
from companion.rules.engine import apply_in_place, pass_window, settle
from companion.rules.fastplay import below
from companion.rules.menu import Built, Joined
from companion.rules.phases import PHASE, Phase, Window
from companion.rules.state import GameState, Player

if TYPE_CHECKING:
    from random import Random


def beside(ph: Phase, s: GameState) -> list[Action]:
    """The actions of the windows open alongside the step (the Dictator's)."""
    out: list[Action] = []
    for w in ph.beside:
        if w.power is not None and w.power not in s.powers:  # (nobody holds it)
            continue
        h = w.holder(s)
        if h is not None:
            out += w.actions(s, h)
    return out


def _resting(ph: Phase, s: GameState) -> tuple[Window, Sequence[Action]]:
    """The window the state rests at, and its holder's actions."""
    assert s.rests_at is not None
    w = ph.window_named[s.rests_at]
    holder = w.holder(s)
    assert holder is not None  # (`settle` rested there for it)
    return w, w.actions(s, holder)


class LegalActions(Built):
    """Every action `apply` accepts now, in order; its length is known at once, and an
    action of a step of everyone at once is built when asked for. At a resting window, the
    actions that pass it are those of a copy of the state with the window passed."""

    __slots__ = ("_head", "_n", "_rest", "_split")

    def __init__(self, s: GameState) -> None:
        ph = PHASE[s.phase]
        self._rest: LegalActions | list[Action]
        if s.rests_at is None:
            self._head: Sequence[Action] = ph.actions(s)
            self._rest = beside(ph, s)
        else:
            w, self._head = _resting(ph, s)
            passed = s.copy()
            pass_window(passed, w.name)
            self._rest = LegalActions(passed)
        self._split = len(self._head)
        self._n = self._split + len(self._rest)

    def __len__(self) -> int:
        return self._n

    def built(self, i: int) -> Action:
        return self._head[i] if i < self._split else self._rest[i - self._split]

    def __iter__(self) -> Iterator[Action]:
        return iter(self.listed())

    def listed(self) -> list[Action]:
        return [*self._head, *self._rest]


def legal_actions(s: GameState) -> list[Action]:
    """Every action `apply` accepts now, those that pass an optional window included."""
    return LegalActions(s).listed()


# -- drawing one, for a player that owns the state -----------------------------------------


def draw_legal(s: GameState, rnd: Random) -> tuple[Action, GameState] | None:
    """The action `rnd.choice(legal_actions(s))` would draw, found without listing them,
    and the state to apply it to: `s` (left as it was), or, past a window whose passing
    does more than move the game on, a copy with it passed, which a caller that owns `s`
    may go on with (applying the action to `s` gives the same). None when nothing can be
    listed (only a physical deal is due). At a window, `s` is changed while this runs and
    put back: not for a state another thread reads."""
    if s.rests_at is not None:
        return _draw_past_windows(s, rnd)
    ph = PHASE[s.phase]  # (below: `_count` and `_nth`, written out for the most common case)
    count, nth = ph.count, ph.nth
    if count is not None and nth is not None:  # (a step of everyone at once: counted, only
        return nth(s, below(rnd, count(s))), s  # the action drawn is built)
    action = _draw_offered(ph, s, rnd)
    return None if action is None else (action, s)


def _draw_offered(ph: Phase, s: GameState, rnd: Random) -> Action | None:
    """`draw_legal` at a step that lists its actions (one player's turn), at no window."""
    offered = ph.actions(s)
    n = len(offered)
    extra = beside(ph, s) if ph.beside else ()
    total = n + len(extra)
    if not total:
        return None
    i = below(rnd, total)
    return offered[i] if i < n else extra[i - n]


def play_legal(s: GameState, rnd: Random) -> tuple[Action, GameState] | None:
    """`draw_legal`, and the action drawn applied in place, for a caller that owns `s`:
    the action and the state it went to (`s`, or the copy past a window). None, with
    nothing applied, when only a physical deal is due."""
    played: list[Action] = []
    at = play_random(s, rnd, played, 1)
    return (played[0], at) if played else None


def play_random(s: GameState, rnd: Random, played: list[Action], most: int) -> GameState:
    """`play_legal` again and again, each action appended to `played`, until the game is
    over, only a physical deal is due, or `played` holds `most` actions: the state it went
    to (`s`, or a copy past a window)."""
    while len(played) < most:
        ph = PHASE[s.phase]
        plays = ph.plays
        if plays is not None and s.rests_at is None and not s.physical:  # (most draws)
            plays(s, rnd, played, most - len(played), ())
            if not (s.to_act if ph.pends else ph.busy(s)):  # (else still settled)
                settle(s)
        elif s.rests_at is not None:
            s = _play_at_windows(s, rnd, played, most)
        else:
            action = _draw_offered(ph, s, rnd)
            if action is None:  # (the game over, or a physical deal due)
                break
            ph.accepts[action.type](s, s.players[s.index[action.player]], action)
            settle(s)  # (above: `apply_in_place`)
            played.append(action)
    return s


def _play_at_windows(s: GameState, rnd: Random, played: list[Action], most: int,
                     ) -> GameState:
    """`play_random` at a window: its holder's actions first, then those past it. Each
    window is passed in place when that only moves the game on, else (the first only) on a
    copy; once at a step that plays (`Phase.plays`), that step draws among the windows'
    actions and its own. Anywhere else, drawn as `draw_legal` draws."""
    passed: list[tuple[Window, Player, Sequence[Action], Moved | None]] = []
    t = s  # (the state past the windows: `s`, or its copy past the first)
    while t.rests_at is not None:
        w = PHASE[t.phase].window_named[t.rests_at]
        holder = w.holder(t)
        assert holder is not None  # (`settle` rested there for it)
        head = w.actions(t, holder)
        moved = _pass_in_place(t, w)
        if moved is None:
            if passed:
                break
            t = t.copy()
            pass_window(t, w.name)
        passed.append((w, holder, head, moved))
    ph = PHASE[t.phase]
    if ph.plays is None or t.rests_at is not None or t.physical:
        if t is s:
            for _, _, _, moved in reversed(passed):
                _put_back(s, moved)  # type: ignore[arg-type]  # (passed in place)
        drawn, at = _draw_past_windows(s, rnd, keep=True)
        apply_in_place(at, drawn)
        played.append(drawn)
        return at
    heads = passed[0][2] if len(passed) == 1 else Joined([p[2] for p in passed])
    action = ph.plays(t, rnd, played, most - len(played), heads)
    if action is None:  # (the step's own: played)
        if not (t.to_act if ph.pends else ph.busy(t)):
            settle(t)
        return t
    for k, (w, holder, _, moved) in enumerate(passed):
        if action.type == w.name:  # (a window's own: the step's are of other types)
            if moved is None:  # (the window passed on a copy: `s` is where it was)
                t = s
            else:
                for _, _, _, later in reversed(passed[k:]):
                    _put_back(t, later)  # type: ignore[arg-type]  # (passed in place)
            w.handler(t, holder, action)
            settle(t)
            played.append(action)
            return t
    raise AssertionError(action)  # (drawn from the heads: one of the windows')


def _count(t: GameState) -> int:
    """How many actions a state that rests at no window offers."""
    ph = PHASE[t.phase]
    n = len(ph.actions(t))
    return n + len(beside(ph, t)) if ph.beside else n


def _nth(t: GameState, i: int) -> Action:
    """The i-th action a state that rests at no window offers."""
    ph = PHASE[t.phase]
    if ph.nth is not None:
        return ph.nth(t, i)
    offered = ph.actions(t)
    return offered[i] if i < len(offered) else beside(ph, t)[i - len(offered)]


def _draw_past_windows(s: GameState, rnd: Random, keep: bool = False,
                       ) -> tuple[Action, GameState]:
    """`draw_legal` at a window: its holder's actions, then those past it, and so on;
    each window passed in place (put back at the end) when that only moves the game on,
    else on a copy. With `keep` (the caller owns `s` and applies the action drawn), only
    the windows past the one the action belongs to are put back: the state handed is
    where the action applies, not passed a second time."""
    heads: list[tuple[Sequence[Action], GameState, int]] = []  # (+ the passes before it)
    moves: list[tuple[GameState, Moved]] = []
    t = s
    while t.rests_at is not None:
        ph = PHASE[t.phase]
        w, head = _resting(ph, t)
        heads.append((head, t, len(moves)))
        moved = _pass_in_place(t, w)
        if moved is None:
            t = t.copy()
            pass_window(t, w.name)
        else:
            moves.append((t, moved))
    i = below(rnd, sum(len(head) for head, _, _ in heads) + _count(t))
    for head, at, passes in heads:
        if i < len(head):
            drawn, before = (head[i], at), passes
            break
        i -= len(head)
    else:
        drawn, before = (_nth(t, i), t), len(moves)
    for at, moved in reversed(moves[before:] if keep else moves):
        _put_back(at, moved)
    return drawn


Moved = tuple[str, frozenset[str], list[int], str | None, int | None]


def _pass_in_place(s: GameState, w: Window) -> Moved | None:
    """Pass window `w` in place if that only moves the game on: what puts it back; else
    None, with `s` as it was."""
    moved: Moved = (s.phase, s.done, s.to_act, s.rests_at, s.junk_card)
    assert w.close is not None  # (a resting window)
    w.close(s)  # (marks it done, or drops the Junk Dealer's card)
    if settle(s, only_moving_on=True):
        return moved
    _put_back(s, moved)
    return None


def _put_back(s: GameState, moved: Moved) -> None:
    s.phase, s.done, s.to_act, s.rests_at, s.junk_card = moved
