"""Reading and checking a scenario file into a `Setup` and a list of actions.

Every check names the line and the field at fault; a file that passes can only
be refused by the rules themselves, action by action.
"""

from __future__ import annotations

import os

from companion.rules.actions import Action
from companion.rules.cards import BULLETS, ROUNDS
from companion.rules.powers import wound_limit
from companion.rules.setup import Setup, StartPlayer
from companion.schema import Checker, parse_action
from companion.yamlfile import Path_, YamlDoc, read_yaml

TYPE_CHECKING = False  # (typing is not imported to run: a replay starts faster without it)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Scenario", "load_scenario", "parse_action", "parse_scenario"]

TOP_FIELDS = ("players", "powers", "seed", "variant", "cards", "loot_mode", "loot", "start",
              "actions", "expect")
START_FIELDS = ("round", "godfather", "discard", "players")
START_PLAYER_FIELDS = ("alive", "wounds", "loot", "hand")


class Scenario:
    """A checked scenario file: the setup, the actions with their lines, the expectations.

    (A plain class: making a dataclass costs about a millisecond at every start.)"""

    __slots__ = ("action_lines", "actions", "expect", "filename", "setup")

    def __init__(self, setup: Setup, actions: tuple[Action, ...],
                 action_lines: tuple[int | None, ...], expect: dict[str, Any],
                 filename: str) -> None:
        self.setup, self.actions, self.action_lines = setup, actions, action_lines
        self.expect, self.filename = expect, filename


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    return parse_scenario(read_yaml(path))


def parse_scenario(doc: YamlDoc) -> Scenario:
    return _Checker(doc).scenario()


class _Checker(Checker):
    """The setup and action rules of companion.schema, plus what only a file has: a start
    position, the piles still to come, the actions in order and the expectations."""

    def __init__(self, doc: YamlDoc) -> None:
        super().__init__(doc)
        self.doc: YamlDoc = doc

    def scenario(self) -> Scenario:
        data = self.mapping(self.doc.data, (), TOP_FIELDS)
        for key in ("players", "actions"):
            if key not in data:
                raise self.fail((), f"the field {key!r} is missing")
        self.names = self.players(data["players"], ("players",))
        start = self.mapping(data.get("start") or {}, ("start",), START_FIELDS)
        start_round = self.integer(start.get("round", 1), ("start", "round"), 1, ROUNDS)
        setup = Setup(
            players=self.names,
            powers=self.powers(data.get("powers") or {}),
            seed=self.seed(data.get("seed", 0)),
            variant=self.variant(data.get("variant") or {}),
            cards=self.mode(data.get("cards", "digital"), ("cards",), "cards mode"),
            loot_mode=self.mode(data.get("loot_mode", "digital"), ("loot_mode",), "loot mode"),
            loot=self.piles(data.get("loot"), start_round),
            start_round=start_round,
            **self.start(start),
        )
        self.check_start_alive(setup)
        if setup.loot_mode == "physical" and setup.loot is not None:
            raise self.fail(("loot",), "with loot_mode: physical the piles are on the table: "
                            "each round's cards come with a deal action")
        actions, lines = self.actions(data["actions"], setup.cards == "physical")
        expect = data.get("expect") or {}
        if not isinstance(expect, dict):
            raise self.fail(("expect",), "must be a mapping of output paths to values")
        return Scenario(setup, actions, lines, expect, self.doc.filename)

    def piles(self, value: Any, start_round: int) -> tuple[tuple[str, ...], ...] | None:
        if value is None:
            return None
        want = ROUNDS - start_round + 1
        if not isinstance(value, list) or len(value) != want:
            raise self.fail(("loot",), f"must hold exactly {want} piles, one for each round "
                            f"from {start_round} to {ROUNDS}")
        return tuple(self.loot_ids(pile, ("loot", i)) for i, pile in enumerate(value))

    def start(self, start: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if "godfather" in start:
            out["start_godfather"] = self.player(start["godfather"], ("start", "godfather"))
        if "discard" in start:
            d = self.mapping(start["discard"], ("start", "discard"), BULLETS)
            out["start_discard"] = tuple(
                self.integer(d.get(c, 0), ("start", "discard", c), 0) for c in BULLETS
            )
        entries = self.mapping(start.get("players") or {}, ("start", "players"), self.names)
        out["start_players"] = {
            name: self.start_player(entry or {}, ("start", "players", name))
            for name, entry in entries.items()
        }
        return out

    def start_player(self, entry: Any, path: Path_) -> StartPlayer:
        e = self.mapping(entry, path, START_PLAYER_FIELDS)
        alive = e.get("alive")
        if alive is not None:
            self.flag(alive, (*path, "alive"))
        hand = self.mapping(e.get("hand") or {}, (*path, "hand"), BULLETS)
        return StartPlayer(
            alive=alive,
            wounds=self.integer(e["wounds"], (*path, "wounds"), 0) if "wounds" in e else None,
            loot=self.loot_ids(e["loot"], (*path, "loot")) if "loot" in e else None,
            bang=self.integer(hand["bang"], (*path, "hand", "bang"), 0) if "bang" in hand else None,
            click=(self.integer(hand["click"], (*path, "hand", "click"), 0)
                   if "click" in hand else None),
        )

    def check_start_alive(self, setup: Setup) -> None:
        for name, sp in setup.start_players.items():
            limit = wound_limit(setup.powers.get(name))
            if sp.alive is not False and (sp.wounds or 0) >= limit:
                raise self.fail(("start", "players", name, "wounds"),
                                f"a living player has fewer than {limit} wounds")
        gf = setup.start_godfather
        if gf is not None and setup.start_players.get(gf, StartPlayer()).alive is False:
            raise self.fail(("start", "godfather"), f"{gf} is not alive")

    def actions(
        self, value: Any, physical: bool
    ) -> tuple[tuple[Action, ...], tuple[int | None, ...]]:
        if not isinstance(value, list):
            raise self.fail(("actions",), "must be a list of actions")
        actions = tuple(self.action(a, ("actions", i), physical) for i, a in enumerate(value))
        lines = tuple(self.doc.line(("actions", i)) for i in range(len(value)))
        return actions, lines
