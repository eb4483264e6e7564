"""The Smart's pass at a live table (R28): with physical cards the table rests at the
Smart's step until the Smart says "I pass" (`keep: true`) or "I take my card back"; the
pass is journaled, told in the log, and a replay of the journal makes the same calls."""

from __future__ import annotations

import pytest
from local_table import LocalPort
from smart_step import to_the_smarts_step

from companion.referee.commands import Auth, CommandError
from companion.referee.journal import Journal
from companion.referee.journal_replay import replay_game

PASS = {"type": "smart", "player": "Ana", "keep": True}


def smart_events(port: LocalPort) -> list[tuple[str, str, str]]:
    """The Smart's events the pages are sent: kind, player and the story's words."""
    return [(e["type"], e["player"], e["text"]) for e in port.table.public_state()["events"]
            if e["type"].startswith("smart")]


def test_with_physical_cards_the_table_rests_until_the_smart_passes(tmp_path):
    port = LocalPort(tmp_path / "journal.sqlite3")
    to_the_smarts_step(port.table, "physical")
    port.run_for(60_000)  # a minute of nobody doing anything: the step stays
    state = port.control()
    assert state["phase"] == "courage" and state["waiting"]["key"] == "wait.smart"
    assert [a for a in port.legal(state) if a["type"] == "smart"] == [
        {"type": "smart", "player": "Ana"}, PASS]
    port.act(**PASS)  # from the tablet: a seat without a phone (no card is named)
    assert port.control()["phase"] == "reveal"  # Cyd's and Dee's cards count, not Ana's
    assert smart_events(port) == [("smart_pass", "Ana", "Ana (the Smart) passed.")]
    game = port.table.game.id
    port.table.close()
    _, done = replay_game(Journal(tmp_path / "journal.sqlite3"), game)
    assert done.difference is None, str(done.difference)
    assert done.inputs > 10


def test_the_pass_is_refused_anywhere_but_the_smarts_step(tmp_path):
    port = LocalPort(tmp_path / "journal.sqlite3")
    to_the_smarts_step(port.table, "physical")
    port.act(type="smart", player="Ana")  # took the card back: the step is over
    before = port.table.version
    with pytest.raises(CommandError) as refused:
        port.act(**PASS)
    assert (refused.value.kind, refused.value.extra) == ("rule", {"rule": "R3"})
    assert refused.value.message.startswith("smart is not allowed now: the game is at the "
                                            "card reveals step")
    assert port.table.version == before
    with pytest.raises(CommandError) as refused:
        port.act(type="smart", player="Ana", keep=False)
    assert refused.value.kind == "invalid" and "keep: true" in refused.value.message
    assert smart_events(port) == [("smart", "Ana", "Ana took the card back.")]
    port.table.close()


def test_with_digital_cards_the_phone_passes_by_the_card_played(tmp_path):
    port = LocalPort(tmp_path / "journal.sqlite3")
    to_the_smarts_step(port.table, "digital")
    ana = Auth(seat=port.table.game.seat_of["Ana"])
    with pytest.raises(CommandError) as refused:  # keep is the physical table's word
        port.command({"type": "action", "version": port.table.version, "action": PASS}, ana)
    assert refused.value.kind == "invalid"
    port.command({"type": "action", "version": port.table.version,
                  "action": {"type": "smart", "player": "Ana", "discard": "bang"}}, ana)
    assert smart_events(port) == [("smart_pass", "Ana", "Ana (the Smart) passed.")]
    assert port.control()["phase"] == "split"
    port.table.close()
