"""A journaled game as a scenario file (shared/spec/scenario-format.md), for `companion replay`.

The seed, not the piles, carries the deal: the game's random draws (the Junk Dealer's,
the Vulture's...) follow the shuffle in the same generator, so only the seed replays
them exactly. The piles are written as comments for people; each action carries, as a
comment, what made it (a sensor, the tablet, a phone, an override).
"""

from __future__ import annotations

import json
from typing import Any

from companion.referee.game import engine_setup
from companion.referee.journal import Journal
from companion.rules import new_game
from companion.rules.actions import Action


def _flow(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def action_line(action: Action) -> str:
    return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in action.to_dict().items()) + "}"


def export_scenario(journal: Journal, game: int) -> str:
    setup = journal.setup(game)
    first = new_game(engine_setup(setup))
    piles = [first.table[:]] + [pile[:] for pile in first.piles]
    lines = [
        f"# Game {game} of the table's journal, exported for `companion replay`.",
        f"players: {_flow(setup['players'])}",
        f"# seats: {_flow(setup['seats'])}",
    ]
    if setup.get("powers"):
        lines.append(f"powers: {_flow(setup['powers'])}")
    lines.append(f"seed: {setup['seed']}")
    if setup.get("variant"):
        lines.append(f"variant: {_flow(setup['variant'])}")
    if setup.get("cards", "digital") != "digital":
        lines.append(f"cards: {setup['cards']}")
    if setup.get("loot", "digital") != "digital":
        lines.append(f"loot_mode: {setup['loot']}")
    else:
        lines.append("# the deal from this seed, one pile a round:")
        lines += [f"#   {_flow(pile)}" for pile in piles]
    entries = journal.entries(game)
    lines.append("actions:" if entries else "actions: []")
    lines += [f"  - {action_line(e.action)}  # {e.source}" for e in entries]
    return "\n".join(lines) + "\n"
