"""docs/BOTS.md and the code agree: each style's sentence, the strong bot's budget."""

from __future__ import annotations

from pathlib import Path

from companion.bots.lab import STYLES
from companion.bots.strong import PLAYOUTS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "BOTS.md").read_text()


def test_every_style_is_documented_in_the_sentence_players_read():
    for name, bot in STYLES.items():
        assert f"| `{name}` | {bot.summary} |" in DOC, name


def test_the_documented_playout_budget_is_the_strong_bots():
    assert f"({PLAYOUTS} by default, `--playouts` in the lab)" in DOC
