"""Reading and checking a scenario file into a `Setup` and a list of actions.

Every check names the line and the field at fault; a file that passes can only
be refused by the rules themselves, action by action.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.rules.actions import FIELDS, Action, action_from_dict
from companion.rules.cards import BULLETS, KINDS, LOOT_KIND, ROUNDS, TOKEN
from companion.rules.powers import POWERS, wound_limit
from companion.rules.setup import VARIANTS, Setup, StartPlayer
from companion.yamlfile import Path_, YamlDoc, load_yaml

TOP_FIELDS = ("players", "powers", "seed", "variant", "cards", "loot_mode", "loot", "start",
              "actions", "expect")
START_FIELDS = ("round", "godfather", "discard", "players")
START_PLAYER_FIELDS = ("alive", "wounds", "loot", "hand")
CARD_MODES = ("digital", "physical")
# Card fields given with digital cards and left out with physical ones (hidden cards).
HIDDEN_CARD_FIELDS = {"choose": "card", "swap": "card", "smart": "discard", "hustle": "give"}


@dataclass(frozen=True)
class Scenario:
    setup: Setup
    actions: tuple[Action, ...]
    action_lines: tuple[int | None, ...]
    expect: dict[str, Any]
    filename: str


def load_scenario(path: str | Path) -> Scenario:
    return parse_scenario(load_yaml(Path(path)))


def parse_scenario(doc: YamlDoc) -> Scenario:
    return _Checker(doc).scenario()


def parse_action(data: Any, players: tuple[str, ...], physical: bool,
                 where: str = "action") -> Action:
    """Check one action given as a mapping (from the API or the journal), like a file's."""
    checker = _Checker(YamlDoc(data, where))
    checker.names = players
    return checker.action(data, (), physical)


class _Checker:
    def __init__(self, doc: YamlDoc) -> None:
        self.doc = doc
        self.names: tuple[str, ...] = ()

    def fail(self, path: Path_, message: str) -> Exception:
        return self.doc.error(path, message)

    def mapping(self, value: Any, path: Path_, allowed: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, "must be a mapping")
        for key in value:
            if key not in allowed:
                raise self.fail((*path, key), f"unknown field (expected one of: "
                                 f"{', '.join(allowed)})")
        return value

    def integer(self, value: Any, path: Path_, low: int, high: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(path, f"must be a whole number, not {value!r}")
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise self.fail(path, f"must be {bound}, not {value}")
        return value

    def one_of(self, value: Any, path: Path_, allowed: tuple[str, ...], what: str) -> str:
        if value not in allowed:
            raise self.fail(path, f"unknown {what} {value!r} (expected one of: "
                            f"{', '.join(allowed)})")
        return value

    def player(self, value: Any, path: Path_, nullable: bool = False) -> str | None:
        if value is None and nullable:
            return None
        return self.one_of(value, path, self.names, "player")

    def loot_ids(self, value: Any, path: Path_) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(path, "must be a list of loot ids")
        return tuple(self.one_of(v, (*path, i), tuple(LOOT_KIND), "loot id")
                     for i, v in enumerate(value))

    def scenario(self) -> Scenario:
        data = self.mapping(self.doc.data, (), TOP_FIELDS)
        for key in ("players", "actions"):
            if key not in data:
                raise self.fail((), f"the field {key!r} is missing")
        self.names = self.players(data["players"])
        start = self.mapping(data.get("start") or {}, ("start",), START_FIELDS)
        start_round = self.integer(start.get("round", 1), ("start", "round"), 1, ROUNDS)
        setup = Setup(
            players=self.names,
            powers=self.powers(data.get("powers") or {}),
            seed=self.integer(data.get("seed", 0), ("seed",), -(2**63)),
            variant=self.variant(data.get("variant") or {}),
            cards=self.one_of(data.get("cards", "digital"), ("cards",), CARD_MODES, "cards mode"),
            loot_mode=self.one_of(data.get("loot_mode", "digital"), ("loot_mode",), CARD_MODES,
                                  "loot mode"),
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

    def players(self, value: Any) -> tuple[str, ...]:
        path = ("players",)
        if not isinstance(value, list) or not 4 <= len(value) <= 8:
            raise self.fail(path, "must list 4 to 8 player names")
        for i, name in enumerate(value):
            if not isinstance(name, str) or not name.strip():
                raise self.fail((*path, i), f"a player's name must be a word, not {name!r}")
            if name in value[:i]:
                raise self.fail((*path, i), f"the name {name!r} is given twice")
        return tuple(value)

    def powers(self, value: Any) -> dict[str, str]:
        powers = self.mapping(value, ("powers",), self.names)
        dealt: dict[str, str] = {}
        for name, power in powers.items():
            path = ("powers", name)
            self.one_of(power, path, POWERS, "power")
            if power in dealt.values():
                raise self.fail(path, f"the power {power!r} is dealt twice")
            dealt[name] = power
        return dealt

    def variant(self, value: Any) -> dict[str, str]:
        variant = self.mapping(value, ("variant",), tuple(VARIANTS))
        for key, v in variant.items():
            self.one_of(v, ("variant", key), VARIANTS[key], f"value for {key}")
        return variant

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
        if alive is not None and not isinstance(alive, bool):
            raise self.fail((*path, "alive"), "must be true or false")
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

    def action(self, value: Any, path: Path_, physical: bool) -> Action:
        if not isinstance(value, dict):
            raise self.fail(path, "an action must be a mapping with type and player")
        kind = self.one_of(value.get("type"), (*path, "type"), tuple(FIELDS), "action type")
        fields = FIELDS[kind]
        self.mapping(value, path, ("type", "player", *fields))
        if "player" not in value:
            raise self.fail(path, "the field 'player' is missing")
        self.player(value["player"], (*path, "player"))
        for name, required in fields.items():
            if required and name not in value:
                raise self.fail(path, f"a {kind} action needs the field {name!r}")
            if name in value:
                self.action_field(kind, name, value[name], (*path, name))
        hidden = HIDDEN_CARD_FIELDS.get(kind)
        if hidden and not (kind == "hustle" and value.get("victim") is None):
            if physical and hidden in value:
                raise self.fail((*path, hidden), "cards are physical: the companion does not "
                                "see this card, leave the field out")
            if not physical and hidden not in value:
                raise self.fail(path, f"a {kind} action needs the field {hidden!r}")
        return action_from_dict(value)

    def action_field(self, kind: str, name: str, v: Any, path: Path_) -> None:
        if kind == "deal":
            if not isinstance(v, list) or not 1 <= len(v) <= 8:
                raise self.fail(path, "the cards turned up: a list of 1 to 8 loot ids")
            self.loot_ids(v, path)
        elif name == "got":
            self.one_of(v, path, tuple(LOOT_KIND), "loot id")
        elif name in ("card", "give", "discard"):
            self.one_of(v, path, BULLETS, "bullet card")
        elif name in ("target", "victim", "order"):
            self.player(v, path, nullable=True)
        elif name == "down":
            if not isinstance(v, bool):
                raise self.fail(path, "must be true or false")
        elif name == "kind":
            self.one_of(v, path, KINDS, "loot kind")
        elif name == "pile":
            self.integer(v, path, 1, ROUNDS)
        elif name == "loot":
            shares = (*LOOT_KIND, TOKEN)
            if isinstance(v, list):
                if len(v) != 2:
                    raise self.fail(path, "a double share lists exactly two loot ids")
                for i, x in enumerate(v):
                    self.one_of(x, (*path, i), shares, "loot id")
            elif v is not None:
                self.one_of(v, path, shares, "loot id")
