"""A bot table: random players who act as people at a real table would.

Guns and standees are moved through sensors (the real ones, simulated), everything else
goes through the referee's commands, as taps on the tablet and the phones. Used by the
demo, by end-to-end tests and by soak runs; the port decides what "sensor" and "time" are,
and the `Players` who decides for each seat: random by default; in the demo a bot with a
style per seat, leaving the seats people have taken (companion/bots/stand_ins.py).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from companion.rules.cards import official_deck

SENSED = ("aim", "courage")  # actions the referee takes from the sensors, not from taps
# Optional powers whose holder passes by letting the game go on (companion/bots/arena.py),
# unless the table lists a pass of its own: with physical cards the Smart's step rests until
# the Smart takes the card back or passes out loud (`keep: true`, docs/API.md).
PASS_BY_WAITING = frozenset(("swap", "smart", "junk", "forbid"))
PEOPLE_S = 30.0  # how long the bots wait for the people at the table to raise their guns

Choice = dict[str, Any] | None  # an action as the table lists it; None: pass


class Players(Protocol):
    """Who decides for each seat."""

    def plays(self, seat: int) -> bool: ...  # False: a person plays the seat
    def pick(self, name: str, options: list[Choice]) -> Choice: ...


class RandomPlayers:
    """Every seat played at random among what the rules allow."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def plays(self, seat: int) -> bool:
        return True

    def pick(self, name: str, options: list[Choice]) -> Choice:
        return self.rnd.choice(options)


class TablePort(Protocol):
    def control(self) -> dict[str, Any]: ...  # the Godfather's view (docs/API.md)
    def legal(self, state: dict[str, Any]) -> list[dict[str, Any]]: ...  # tablet's and phones'
    def command(self, cmd: dict[str, Any]) -> dict[str, Any]: ...
    def aim(self, seat: int, target: int | None) -> None: ...  # None: lower the gun
    def posture(self, seat: int, down: bool) -> None: ...
    def settle(self, state: dict[str, Any]) -> Any: ...  # let the referee's clock run
    def wait_for_people(self, seats: list[int], timeout_s: float) -> None: ...  # guns raised


class TableBot:
    def __init__(self, port: TablePort, rnd: random.Random, too_slow: float = 0.1,
                 players: Players | None = None) -> None:
        self.port, self.rnd, self.too_slow = port, rnd, too_slow
        self.players = players or RandomPlayers(rnd)
        self.deck = official_deck()  # the real piles, for a table with physical loot
        rnd.shuffle(self.deck)

    def new_game(self, players: list[str], powers: Any = "random", seed: int = 0,
                 cards: str = "digital", loot: str = "digital") -> dict[str, Any]:
        state = self.port.control()
        return self.port.command({"type": "new_game", "version": state["version"],
                                  "players": players, "powers": powers, "seed": seed,
                                  "cards": cards, "loot": loot, "abandon": True})

    def play(self, max_steps: int = 5000) -> dict[str, Any]:
        """Play until the game is over; returns the final Godfather's view."""
        for _ in range(max_steps):
            state = self.port.control()
            if state["over"]:
                return state
            self.step(state)
        raise RuntimeError("the game did not end")

    def step(self, state: dict[str, Any]) -> None:
        """Make one decision of the table."""
        seats = {p["name"]: p["seat"] for p in state["players"]}
        mine = [p for p in state["players"] if self.players.plays(p["seat"])]
        people = [p["seat"] for p in state["players"] if p["alive"] and p not in mine]
        for p in mine:  # the wounded lay their standee down when asked
            if p["lay_down"] and p["sensors"]["posture"] != "down":
                self.port.posture(p["seat"], True)
        legal = self.port.legal(state)
        stage = state["stage"]["name"]
        if stage != "idle":  # a countdown, the Kid's window or a re-aim is running
            if stage == "reaim":
                self._reaim(state, seats)
            self.port.settle(state)
            return
        # A countdown offered counts the hold-up's aims or the courage step's choices.
        countdown = any(c["command"]["type"] == "countdown" for c in state["commands"])
        if countdown and any(a["type"] == "aim" for a in legal):
            self._aim_all(mine, seats, legal)
            if people:
                self.port.wait_for_people(people, PEOPLE_S)
            self.port.command({"type": "countdown", "version": state["version"]})
            return
        if countdown and any(a["type"] == "courage" for a in legal):
            for p in mine:
                if p["alive"] and p["down"] is None:
                    self._courage(p, legal)
            self.port.command({"type": "countdown", "version": state["version"]})
            return
        if state["deal"] is not None:  # physical loot: enter the next real pile
            pile = self.deck[(state["round"] - 1) * 8 : state["round"] * 8]
            action = {"type": "deal", "player": state["godfather"], "loot": pile}
            self.port.command({"type": "action", "version": state["version"], "action": action})
            return
        tapped = [a for a in legal if a["type"] not in SENSED]
        choice = self._tap(tapped, {p["name"] for p in mine})
        if choice is None:  # only sensed actions remain (the Kid after the others), or a
            self.port.settle(state)  # person's move: wait for the table to change
            return
        self.port.command({"type": "action", "version": state["version"], "action": choice})

    def _tap(self, tapped: list[dict[str, Any]], mine: set[str]) -> Choice:
        """One of the bots' players decides; an optional power may be passed by waiting,
        or out loud where the table lists the pass (a table waiting for it would rest)."""
        by_player: dict[str, list[dict[str, Any]]] = {}
        for a in tapped:
            if a["player"] in mine:
                by_player.setdefault(a["player"], []).append(a)
        for name in self.rnd.sample(sorted(by_player), len(by_player)):
            mine_now = by_player[name]
            kind = mine_now[0]["type"]
            options: list[Choice] = [a for a in mine_now if a["type"] == kind]
            out_loud = any(a is not None and a.get("keep") for a in options)
            if kind in PASS_BY_WAITING and len(tapped) > len(options) and not out_loud:
                options.append(None)
            choice = self.players.pick(name, options)
            after = [a for a in mine_now if a["type"] != kind]
            if choice is None and after:  # passed: the player's own next step goes on
                after_kind = after[0]["type"]
                choice = self.players.pick(name, [a for a in after if a["type"] == after_kind])
            if choice is not None:
                return choice
        return None

    def _aim_all(self, mine: list[dict[str, Any]], seats: dict[str, int],
                 legal: list[dict[str, Any]]) -> None:
        """Point every living gun of the bots, the Kid's included: the referee reads each
        in turn."""
        for p in mine:
            if not p["alive"] or p["aimed"]:
                continue
            options: list[Choice] = [a for a in legal if a["type"] == "aim"
                                     and a["player"] == p["name"] and a.get("target")]
            if not options or self.rnd.random() < self.too_slow:  # aimed at nobody: too slow
                self.port.aim(p["seat"], None)
            else:
                choice = self.players.pick(p["name"], options)
                self.port.aim(p["seat"], seats[choice["target"]] if choice else None)

    def _courage(self, p: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        options: list[Choice] = [a for a in legal
                                 if a["type"] == "courage" and a["player"] == p["name"]]
        choice = self.players.pick(p["name"], options) if options else None
        self.port.posture(p["seat"], bool(choice and choice.get("down")))

    def _reaim(self, state: dict[str, Any], seats: dict[str, int]) -> None:
        """The ordered player points the gun at one of the allowed new targets, once."""
        options = [a for a in self.port.legal(state) if a["type"] == "aim"]
        if not options:
            return
        me = next(p for p in state["players"] if p["name"] == options[0]["player"])
        allowed = {seats[a["target"]] for a in options}
        if me["sensors"]["aim"] not in allowed:
            self.port.aim(me["seat"], seats[self.rnd.choice(options)["target"]])
