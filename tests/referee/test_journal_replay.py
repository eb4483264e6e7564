"""Every live call replayable: the table journals each input it acts on, with what it
decided and a digest of the public view it showed; `companion replay --journal` runs the
inputs through the referee again and must come out the same, byte for byte, or name the
first input that does not."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import subprocess
import sys

from local_table import NAMES8, LocalPort

from companion.bots.table_bot import TableBot
from companion.referee.journal import Journal
from companion.referee.journal_replay import replay_game
from companion.referee.views import compact_json


def play(path, seed: int, players: int = 5) -> LocalPort:
    port = LocalPort(path)
    bot = TableBot(port, random.Random(seed))
    bot.new_game(NAMES8[:players], powers="random", seed=seed)
    final = bot.play()
    assert final["phase"] == "over"
    port.table.close()
    return port


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", "replay", *args],
                          capture_output=True, text=True, timeout=300, check=False)


def test_whole_games_replay_decision_for_decision_and_view_for_view(tmp_path):
    path = tmp_path / "journal.sqlite3"
    for seed in (3, 4):  # two games, two starts of the table on one journal
        play(path, seed)
    journal = Journal(path)
    for game in (1, 2):
        boots, done = replay_game(journal, game)
        assert boots == ([1, 2] if game == 1 else [2])  # (game 1 was resumed, over, at 2)
        assert done.difference is None, str(done.difference)
        assert done.inputs > 200 and done.views > 100  # sensor facts, taps, ticks
    with sqlite3.connect(path) as db:
        kinds = {k for (k,) in db.execute("SELECT DISTINCT kind FROM input")}
        recorded = db.execute("SELECT count(*) FROM shown").fetchone()[0]
    assert {"Boot", "Heard", "Command", "Tick"} <= kinds
    assert recorded > 200
    run = cli("--journal", str(path), "--game", "1")
    assert run.returncode == 0, run.stderr
    assert "every decision and the" in run.stdout and "game 1:" in run.stdout


def test_the_recorded_digest_is_the_public_view_the_table_showed(tmp_path):
    """The digest is of the bytes a page is sent, so a replay's match is a byte match."""
    port = LocalPort(tmp_path / "journal.sqlite3")
    port.do("new_game", players=NAMES8[:4], powers="none", seed=2)
    shown = compact_json(port.table.public_state())  # (the fake clock stands still)
    port.table.close()
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        digest = db.execute("SELECT digest FROM shown ORDER BY seq DESC LIMIT 1").fetchone()[0]
    assert digest == hashlib.sha256(shown).hexdigest()[:32]


def test_a_tampered_journal_names_the_first_input_that_differs(tmp_path):
    path = tmp_path / "journal.sqlite3"
    play(path, 5, players=4)
    with sqlite3.connect(path) as db:
        seq, data = db.execute(
            "SELECT seq, data FROM input JOIN shown USING (boot, seq) WHERE "
            "kind = 'Heard' AND data LIKE '[\"aim\",%' ORDER BY seq LIMIT 1 "
            "OFFSET 30").fetchone()
        fact = json.loads(data)  # [kind, seat, value, t_ms, device]
        fact[2] = None if fact[2] is not None else 1  # the gun said otherwise
        db.execute("UPDATE input SET data = ? WHERE seq = ?", (json.dumps(fact), seq))
    run = cli("--journal", str(path))
    assert run.returncode == 1
    assert f"input {seq} (start 1, Heard" in run.stderr
    assert "the public view differs" in run.stderr and "expected:" in run.stderr


def test_a_changed_decision_is_named_with_what_was_expected_and_what_came(tmp_path):
    path = tmp_path / "journal.sqlite3"
    play(path, 6, players=4)
    with sqlite3.connect(path) as db:
        seq, decided = db.execute("SELECT seq, decided FROM input WHERE kind = 'Command' "
                                  "ORDER BY seq LIMIT 1 OFFSET 5").fetchone()
        db.execute("UPDATE input SET decided = ? WHERE seq = ?",
                   (decided.replace('"version":', '"version":1'), seq))
    run = cli("--journal", str(path), "--game", "1")
    assert run.returncode == 1
    assert f"input {seq} (start 1, Command" in run.stderr and "the decision differs" in run.stderr
    assert decided in run.stderr  # what came out of the replay is what was first recorded


def test_a_game_played_before_inputs_were_kept_says_so(tmp_path):
    path = tmp_path / "journal.sqlite3"
    play(path, 7, players=4)
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM input")
    run = cli("--journal", str(path), "--game", "1")
    assert run.returncode == 2 and "no inputs recorded" in run.stderr
    assert cli("--journal", str(tmp_path / "none.sqlite3")).returncode == 2
    assert cli("--game", "1").returncode == 2  # --game is for --journal
