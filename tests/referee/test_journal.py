"""The journal on disk: one transaction per write, owner-only files."""

from __future__ import annotations

import stat
import threading

import pytest

from companion.referee.journal import Journal, JournalError
from companion.rules.actions import Aim, Choose


def test_each_record_is_one_transaction_even_across_connections(tmp_path):
    """Two writers on one file (a second process, say) never get the same sequence number:
    reading the last one and appending are one transaction."""
    path = tmp_path / "journal.sqlite3"
    first, second = Journal(path), Journal(path)
    game = first.new_game({"players": []}, 0.0)
    seqs: list[int] = []
    errors: list[BaseException] = []

    def write(journal: Journal, player: str) -> None:
        try:
            for _ in range(150):
                seqs.append(journal.record(game, Aim(player, target=None), "sensor", 0.0))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=write, args=(j, n))
               for j, n in ((first, "Ana"), (second, "Bob"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(seqs) == list(range(1, 301))
    assert len(first.entries(game)) == 300


def test_a_failed_write_leaves_nothing(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    game = journal.new_game({"players": []}, 0.0)
    try:
        with journal._write() as db:
            db.execute("INSERT INTO action (game, seq, action, source, at_ms) "
                       "VALUES (?, 1, '{}', 'sensor', 0)", (game,))
            raise RuntimeError("the disk is full")
    except RuntimeError:
        pass
    assert journal.entries(game) == []


def test_the_journal_is_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    journal.record(journal.new_game({"players": []}, 0.0), Aim("Ana", target=None), "sensor", 0.0)
    for file in (path, path.with_name(path.name + "-wal")):
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file


@pytest.mark.parametrize("make", ["directory", "under_a_file", "not_sqlite"])
def test_a_journal_that_cannot_be_opened_says_so_in_a_sentence(tmp_path, make):
    path = tmp_path / "journal.sqlite3"
    if make == "directory":
        path.mkdir()
    elif make == "under_a_file":  # a typo in the config, or a card mounted read-only
        path.write_text("")
        path = path / "journal.sqlite3"
    else:
        path.write_bytes(b"this is not a database, " * 100)
    with pytest.raises(JournalError, match=r"cannot open the game journal .*journal"):
        Journal(path)


def test_a_full_disk_mid_game_pauses_play_and_shows_nothing_unwritten(tmp_path):
    from local_table import NAMES8, LocalPort

    from companion.referee.commands import CommandError

    port = LocalPort(tmp_path / "journal.sqlite3")
    port.do("new_game", players=NAMES8[:4], powers="none", seed=2)
    port.act(type="choose", player="Ana", card="bang")
    db = port.table.journal._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    with pytest.raises(JournalError):  # something else fills the card up to its last page
        while True:
            port.table.journal.record(999, Choose("Filler"), "test", 0.0)
    with pytest.raises(CommandError) as refused:
        port.act(type="choose", player="Bob", card="click")
    assert refused.value.kind == "unwritten"
    assert "cannot write the game journal" in refused.value.message
    state = port.table.public_state()
    assert state["paused"] and "database or disk is full" in state["journal_error"]
    shown = [p["chosen"] for p in state["players"]]
    entries = port.table.journal.entries(port.table.game.id)
    assert sum(shown) == len([e for e in entries if e.action.type == "choose"])  # on disk
    db.execute("PRAGMA max_page_count = 1073741823")  # space freed
    port.do("resume")
    assert port.table.public_state()["journal_error"] is None
    for p in port.table.public_state()["players"]:
        if not p["chosen"]:
            port.act(type="choose", player=p["name"], card="click")
    assert all(p["chosen"] for p in port.table.public_state()["players"])
