"""Scenarios written inline in the table's language, for the rules tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import yaml

from companion.bots.random_bot import deal_action, random_setup
from companion.rules import GameState, apply_in_place, legal_actions, new_game, phase_of
from companion.rules.cards import official_deck
from companion.scenario import Replay, parse_scenario, replay
from companion.yamlfile import YamlDoc, load_yaml

FOUR = "players: [Ana, Bob, Cyd, Dee]\n"


def last_round(hands: str = "{bang: 1, click: 1}", loot: str = "[bill5000, bill10000, painting]",
               extra: str = "") -> str:
    """A four-player table at round 8 where everyone holds `hands`."""
    return (
        FOUR
        + "start:\n  round: 8\n  players:\n"
        + "".join(f"    {n}: {{hand: {hands}}}\n" for n in ("Ana", "Bob", "Cyd", "Dee"))
        + f"loot:\n  - {loot}\n"
        + extra
    )


def run(header: str, actions: str = "") -> Replay:
    """Replay `header` plus flow-style action lines, one per line."""
    lines = [ln.strip() for ln in actions.strip().splitlines() if ln.strip()]
    text = header + "actions:\n" + "".join(f"  - {ln}\n" for ln in lines)
    if not lines:
        text = header + "actions: []\n"
    return replay(parse_scenario(load_yaml(text, "test.yaml")))


def ok(header: str, actions: str = "") -> dict[str, Any]:
    r = run(header, actions)
    assert r.error is None, r.error
    return r.output


def refused(header: str, actions: str, rule: str) -> dict[str, Any]:
    """The last action must be refused naming `rule`; returns the output before it."""
    r = run(header, actions)
    assert r.error is not None, "the last action was accepted"
    n = len([ln for ln in actions.strip().splitlines() if ln.strip()])
    assert r.output["error"]["action"] == n, r.error
    assert f"[{rule}]" in r.output["error"]["message"], r.error
    return r.output


def player(out: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in out["players"] if p["name"] == name)


def events(out: dict[str, Any], type_: str) -> list[dict[str, Any]]:
    return [e for e in out["events"] if e["type"] == type_]


def state_of(header: str) -> GameState:
    doc = YamlDoc(yaml.safe_load(header + "actions: []\n"), "test.yaml")
    return new_game(parse_scenario(doc).setup)


def deal_due(s: GameState) -> bool:
    """Physical loot not yet entered: the one action `legal_actions` cannot list (any cards)."""
    return s.physical_loot and s.phase == "loot" and not s.dealt


def legal(state: GameState) -> list[str]:
    return [str(a) for a in legal_actions(state)]


CHOOSE_CLICKS = """
{type: choose, player: Ana, card: click}
{type: choose, player: Bob, card: click}
{type: choose, player: Cyd, card: click}
{type: choose, player: Dee, card: click}
"""
STAND_ALL = """
{type: courage, player: Ana, down: false}
{type: courage, player: Bob, down: false}
{type: courage, player: Cyd, down: false}
{type: courage, player: Dee, down: false}
"""


def chooses(**cards: str) -> str:
    return "\n".join(f"{{type: choose, player: {n}, card: {c}}}" for n, c in cards.items())


def aims(**targets: str | None) -> str:
    return "\n".join(f"{{type: aim, player: {n}, target: {t or 'null'}}}"
                     for n, t in targets.items())


def courage(names: tuple[str, ...] = ("Ana", "Bob", "Cyd", "Dee"),
            down: tuple[str, ...] = ()) -> str:
    return "\n".join(f"{{type: courage, player: {n}, down: {str(n in down).lower()}}}"
                     for n in names)


def takes(*shares: str) -> str:
    """`takes("Ana bill5000", "Bob godfather")`."""
    out = []
    for s in shares:
        name, loot = s.split(" ", 1)
        out.append(f"{{type: take, player: {name}, loot: {loot}}}")
    return "\n".join(out)


def lines(*parts: str) -> str:
    return "\n".join(parts)


def states(seed: int, players: int, powers: bool, cards: str = "digital",
           loot_mode: str = "digital", played: list[Any] | None = None) -> Iterator[GameState]:
    """Every state a random legal game rests at, the end included (the same object, mutated:
    look at it before asking for the next); `played` gets each action before it is applied."""
    rnd = random.Random(seed)
    s = new_game(random_setup(rnd, players, seed, powers, cards, loot_mode))
    deck = official_deck()
    rnd.shuffle(deck)
    while True:
        yield s
        if phase_of(s).then is None:
            return
        legal = legal_actions(s)
        action = rnd.choice(legal) if legal else deal_action(s, deck)
        if played is not None:
            played.append(action)
        apply_in_place(s, action)


def mixed_games(n: int, played: list[Any] | None = None) -> Iterator[GameState]:
    for i in range(n):
        yield from states(i, 4 + i % 5, powers=i % 4 != 0,
                          cards="physical" if i % 3 == 0 else "digital",
                          loot_mode="physical" if i % 5 == 0 else "digital", played=played)
