"""The balance lab's runner: many whole games between bots, on every core, repeatable.

Game `i` of a run draws everything (the powers dealt, the engine's seed, each bot's seed)
from its own generator, seeded by the run's seed and `i` alone; so a run gives the same
games whatever the number of processes, and the records are put back in game order.
Each game gives a small record (`GameRecord`, plain data) for the statistics, written to
the lab's store as chunks of games finish (lab_store.py).
"""

from __future__ import annotations

import random
import signal
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from companion.bots.arena import Arena
from companion.bots.random_bot import random_setup
from companion.bots.strong import StrongBot
from companion.bots.styles import (
    AggressiveBot,
    Bot,
    CautiousBot,
    GreedyBot,
    RandomBot,
    VengefulBot,
)
from companion.rules import GameState, random_game
from companion.rules.cards import DIAMOND_BONUS, TOKEN
from companion.rules.events import Eliminated, Event, RoundBegun, Took
from companion.rules.random_game import Tally
from companion.rules.scoring import bonus_holder, worth
from companion.rules.state import Player

STYLES: dict[str, type[Bot]] = {
    b.style: b for b in (RandomBot, CautiousBot, AggressiveBot, GreedyBot, VengefulBot, StrongBot)
}

GameRecord = dict[str, Any]


class LabError(RuntimeError):
    """A game of the run failed; the message names it and holds the traceback."""


@dataclass(frozen=True)
class Plan:
    """What a run plays: how many games, at which table, with which bots."""

    games: int
    players: int
    styles: tuple[str, ...]  # bots by seat, turning one seat each game
    seed: int = 0
    powers: bool = True
    cards: str = "digital"  # or "physical": hands are not kept (no strong bot)
    playouts: int | None = None  # the strong bot's playouts per decision (None: its default)
    checked: bool = False  # check every action against the engine's legal actions (tests)

    def styles_of(self, game: int) -> list[str]:
        """The bots of game `i` by seat. A table takes `players` styles in the order given,
        from a start that moves on every `players` games; within those games its bots turn
        one seat each game. So every style sits at every seat as often, and a style that
        plays twice at a table (fewer styles than seats) is twinned at every seat alike."""
        k, n = self.players, len(self.styles)
        table = [self.styles[(game // k + m) % n] for m in range(k)]
        return [table[(j + game) % k] for j in range(k)]


def parse_styles(text: str) -> tuple[str, ...]:
    """`"strong,random"` as a tuple of known styles; ValueError names what is wrong."""
    names = tuple(s.strip() for s in text.split(","))
    unknown = [s for s in names if s not in STYLES]
    if not names or unknown:
        raise ValueError(f"unknown bot style {', '.join(map(repr, unknown)) or repr(text)} "
                         f"(known: {', '.join(STYLES)})")
    return names


def make_bot(style: str, seed: int, playouts: int | None = None) -> Bot:
    bot = STYLES[style]
    if issubclass(bot, StrongBot) and playouts is not None:
        return bot(seed, playouts=playouts)
    return bot(seed)


def play_game(plan: Plan, i: int) -> GameRecord:
    """Game `i` of the plan, from its own seed, as a record. A table of random bots only,
    with digital cards, plays the lean random game (`rules/random_game.py`), which draws
    what the arena draws for them; any other table plays through the arena."""
    rnd = random.Random(f"lab:{plan.seed}:{i}")
    setup = random_setup(rnd, plan.players, rnd.getrandbits(63), plan.powers, plan.cards)
    styles = plan.styles_of(i)
    if (not plan.checked and all(style == RandomBot.style for style in styles)
            and random_game.plays(setup)):  # (each bot's generator, as `make_bot` seeds it)
        rnds = [random.Random(rnd.getrandbits(63)) for _ in styles]
        return record(*random_game.play(setup, rnds), styles)
    bots = {name: make_bot(style, rnd.getrandbits(63), plan.playouts)
            for name, style in zip(setup.players, styles, strict=True)}
    arena = Arena(setup, bots, checked=plan.checked)
    s = arena.play()
    out = record(s, tally(s.events, arena.actions), styles)
    strong = [b for b in bots.values() if isinstance(b, StrongBot)]
    if strong:  # (its decisions and their CPU seconds: the lab's decisions a second)
        out["strong"] = (sum(b.decisions for b in strong), sum(b.thinking_s for b in strong))
    return out


def tally(events: list[Event], actions: int) -> Tally:
    """What the lab reads of a game's story (`random_game.Tally`), counted from its events."""
    t = Tally(actions)
    tokens, godfather = t.tokens, t.godfather
    for e in events:  # (by exact type, the most common first: the events are final)
        if type(e) is Took:
            if e.loot == TOKEN:
                tokens[e.player] = tokens.get(e.player, 0) + 1
        elif type(e) is RoundBegun:
            godfather[e.godfather] = godfather.get(e.godfather, 0) + 1
        elif type(e) is Eliminated:
            t.died[e.player] = e.round
    return t


def record(s: GameState, t: Tally, styles: list[str]) -> GameRecord:
    """The few facts of a finished game the lab's statistics need: of the final count, only
    each total and who has the diamond bonus (R15), not every part of it."""
    bonus = bonus_holder(s)
    totals = [worth(p, bonus) if p.alive else 0 for p in s.players]
    died, godfather, tokens = t.died, t.godfather, t.tokens
    return {
        "rounds": s.round, "actions": t.actions,
        "winners": [s.index[w] for w in s.winners],
        "end": ending(s, totals),
        "bonus_decided": bonus_decided(s, totals, bonus),
        "seats": [{"style": styles[p.seat], "power": p.power, "alive": p.alive,
                   "wounds": p.wounds, "total": totals[p.seat], "bonus": p is bonus,
                   "died": died.get(p.name), "godfather": godfather.get(p.name, 0),
                   "tokens": tokens.get(p.name, 0)} for p in s.players],
    }


def ending(s: GameState, totals: list[int]) -> str:
    """How the game was decided: last one standing, nobody, money, wounds (R15), shared."""
    living = s.living()
    if len(living) <= 1:
        return "last_standing" if living else "no_winner"
    best = max(totals[p.seat] for p in living)
    richest = [p for p in living if totals[p.seat] == best]
    if len(richest) == 1:
        return "richest"
    return "tiebreak" if len(s.winners) < len(richest) else "shared"


def bonus_decided(s: GameState, totals: list[int], bonus: Player | None) -> bool:
    """The winners would differ without the $60k diamond bonus (held by `bonus`)."""
    living = s.living()
    if len(living) <= 1 or bonus is None:
        return False
    plain = {p.name: (totals[p.seat] - (DIAMOND_BONUS if p is bonus else 0), p.wounds)
             for p in living}
    best = max(plain.values())
    return sorted(n for n, v in plain.items() if v == best) != sorted(s.winners)


Chunk = tuple[Plan, int, int]  # the plan, and the games from `start` to `stop` to play


def _chunk(args: Chunk) -> tuple[int, list[GameRecord]]:
    plan, start, stop = args
    records = []
    for i in range(start, stop):
        try:
            records.append(play_game(plan, i))
        except Exception as e:  # (sent back as text: not every exception unpickles)
            raise LabError(f"game {i} of seed {plan.seed} failed:\n{traceback.format_exc()}"
                           ) from e
    return start, records


def chunks(plan: Plan, todo: list[tuple[int, int]], jobs: int) -> Iterator[Chunk]:
    """The games of the ranges `todo` in chunks a process plays at once: small enough that
    every process finishes near the end, large enough that sending them costs little."""
    size = max(1, min(50, plan.games // (jobs * 10) or 1))
    if StrongBot.style in plan.styles:
        size = 1
    for start, stop in todo:
        for i in range(start, stop, size):
            yield plan, i, min(i + size, stop)


Played = Iterator[tuple[int, list[GameRecord]]]  # (first game, its records) per chunk


def results(plan: Plan, todo: list[tuple[int, int]], jobs: int,
            elsewhere: Callable[[Iterator[Chunk]], Played] | None = None) -> Played:
    """The records of the games `todo` (ranges), a chunk at a time as they finish, in no
    set order: on `jobs` processes here (1: in this one), or by `elsewhere` (a Dask
    cluster's workers, lab_cluster.py)."""
    if elsewhere is not None:
        yield from elsewhere(chunks(plan, todo, jobs))
    elif jobs <= 1:
        yield from map(_chunk, chunks(plan, todo, jobs))
    else:
        import multiprocessing  # (only with processes to start: 10 ms of a run's CPU)

        with multiprocessing.get_context("spawn").Pool(jobs, _quiet) as pool:
            yield from pool.imap_unordered(_chunk, chunks(plan, todo, jobs))


def _quiet() -> None:
    """A worker leaves Ctrl-C to the run, which stops it and keeps what is on disk."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(plan: Plan, jobs: int, tick: Callable[[int], None] = lambda done: None,
        ) -> list[GameRecord]:
    """The plan's records in game order, held in memory: for small runs and the tests; the
    command writes them to a store as they come (lab_store.py)."""
    records: list[GameRecord | None] = [None] * plan.games
    done = 0
    for start, batch in results(plan, [(0, plan.games)], jobs):
        records[start:start + len(batch)] = batch
        done += len(batch)
        tick(done)
    return [r for r in records if r is not None]
