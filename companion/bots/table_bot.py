"""A bot table: random players who act as people at a real table would.

Guns and standees are moved through sensors (the real ones, simulated), everything else
goes through the referee's commands, as taps on the tablet and the phones. Used by the
demo, by end-to-end tests and by soak runs; the port decides what "sensor" and "time" are.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from companion.rules.cards import official_deck

SENSED = ("aim", "courage")  # actions the referee takes from the sensors, not from taps


class TablePort(Protocol):
    def control(self) -> dict[str, Any]: ...  # the Godfather's view (docs/API.md)
    def legal(self, state: dict[str, Any]) -> list[dict[str, Any]]: ...  # tablet's and phones'
    def command(self, cmd: dict[str, Any]) -> dict[str, Any]: ...
    def aim(self, seat: int, target: int | None) -> None: ...  # None: lower the gun
    def posture(self, seat: int, down: bool) -> None: ...
    def settle(self, state: dict[str, Any]) -> dict[str, Any]: ...  # let the referee's clock run


class TableBot:
    def __init__(self, port: TablePort, rnd: random.Random, too_slow: float = 0.1) -> None:
        self.port, self.rnd, self.too_slow = port, rnd, too_slow
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
            if state["phase"] == "over":
                return state
            self.step(state)
        raise RuntimeError("the game did not end")

    def step(self, state: dict[str, Any]) -> None:
        """Make one decision of the table."""
        seats = {p["name"]: p["seat"] for p in state["players"]}
        for p in state["players"]:  # the wounded lay their standee down when asked
            if p["lay_down"] and p["sensors"]["posture"] != "down":
                self.port.posture(p["seat"], True)
        legal = self.port.legal(state)
        stage = state["stage"]["name"]
        if stage != "idle":  # a countdown, the Kid's window or a re-aim is running
            if stage == "reaim":
                self._reaim(state, seats)
            self.port.settle(state)
            return
        phase = state["phase"]
        if phase == "holdup" and any(a["type"] == "aim" for a in legal):
            self._aim_all(state, seats, legal)
            self.port.command({"type": "countdown", "version": state["version"]})
            return
        if phase == "courage" and any(a["type"] == "courage" for a in legal):
            for p in state["players"]:
                if p["alive"] and p["down"] is None:
                    self.port.posture(p["seat"], self.rnd.random() < 0.4)
            self.port.command({"type": "countdown", "version": state["version"]})
            return
        if phase == "loot" and not legal:  # physical loot: enter the next real pile
            pile = self.deck[(state["round"] - 1) * 8 : state["round"] * 8]
            action = {"type": "deal", "player": state["godfather"], "loot": pile}
            self.port.command({"type": "action", "version": state["version"], "action": action})
            return
        tapped = [a for a in legal if a["type"] not in SENSED]
        if not tapped:  # only sensed actions remain: e.g. the Kid after the others
            self.port.settle(state)
            return
        action = self.rnd.choice(tapped)
        self.port.command({"type": "action", "version": state["version"], "action": action})

    def _aim_all(self, state: dict[str, Any], seats: dict[str, int],
                 legal: list[dict[str, Any]]) -> None:
        """Point every living gun, the Kid's included: the referee reads each in turn."""
        for p in state["players"]:
            if not p["alive"] or p["aimed"]:
                continue
            targets = [q["name"] for q in state["players"] if q["alive"] and q is not p]
            if self.rnd.random() < self.too_slow:
                self.port.aim(p["seat"], None)
            else:
                self.port.aim(p["seat"], seats[self.rnd.choice(targets)])

    def _reaim(self, state: dict[str, Any], seats: dict[str, int]) -> None:
        """The ordered player points the gun at one of the allowed new targets, once."""
        options = [a for a in self.port.legal(state) if a["type"] == "aim"]
        if not options:
            return
        me = next(p for p in state["players"] if p["name"] == options[0]["player"])
        allowed = {seats[a["target"]] for a in options}
        if me["sensors"]["aim"] not in allowed:
            self.port.aim(me["seat"], seats[self.rnd.choice(options)["target"]])
