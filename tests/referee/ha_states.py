"""Public states of a real game, and what Home Assistant's sensors should read from each,
computed from the public state's own fields as docs/API.md and docs/MQTT.md describe them."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from local_table import NAMES8, LocalPort

from companion.bots.table_bot import TableBot

SEAT_SENSORS = ("player", "wounds", "loot", "standing")


def seat_expected(row: dict[str, Any] | None) -> dict[str, str]:
    """What each seat sensor should read from the seat's row; `None` (unknown) if empty."""
    if row is None:
        return dict.fromkeys(SEAT_SENSORS, "None")
    kind = (row["standee"] or {}).get("kind")
    standing = "out" if not row["alive"] else "lying" if kind in ("down", "stand_up") \
        else "standing"
    return {"player": row["name"], "wounds": str(row["wounds"]),
            "loot": str(row["loot_count"]), "standing": standing}


def expected_values(state: dict[str, Any]) -> dict[str, str]:
    """Every sensor's value, by component id."""
    out = {"phase": str(state["phase"]), "round": str(state["round"]),
           "stage": state["stage"]["name"], "godfather": state["godfather"]}
    rows = {p["seat"]: p for p in state["players"]}
    for seat in range(1, 9):
        for what, value in seat_expected(rows.get(seat)).items():
            out[f"seat{seat}_{what}"] = value
    return out


@cache
def game_states() -> tuple[dict[str, Any], ...]:
    """Each public state a five-player game went through (one per change), up to where it
    has shown every kind of value: wounds, loot, a standee lying, a countdown."""
    port = LocalPort()
    bot = TableBot(port, random.Random(5))
    bot.new_game(NAMES8[:5], powers="none", seed=5)
    states: list[dict[str, Any]] = []
    seen: set[str] = set()
    wanted = {"seat8_standing=None", "stage=countdown", "stage=idle", "lying", "loot",
              "wounds"}
    while not wanted <= seen:
        state = port.table.public_state()
        assert not state["over"], f"the game ended before showing every sensor: {seen}"
        if not states or state["version"] != states[-1]["version"]:
            states.append(state)
            values = expected_values(state)
            seen |= {f"{key}={value}" for key, value in values.items()}
            seen |= {"lying"} if "lying" in values.values() else set()
            seen |= {what for key, value in values.items() for what in ("loot", "wounds")
                     if key.endswith(f"_{what}") and value not in ("0", "None")}
        bot.step(port.control())
    return tuple(states)
