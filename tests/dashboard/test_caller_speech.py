"""The caller's lines spoken by the real espeak-ng (Debian's espeak-ng) and served as WAVs."""

from __future__ import annotations

import io
import shutil
import wave

import pytest
from flask import Flask

from companion.clock import SYSTEM_CLOCK
from companion.dashboard.app import create_app
from companion.dashboard.settings import DashboardSettings
from companion.dashboard.speech import Speaker, speech_blueprint
from companion.referee.commands import Auth
from companion.referee.journal import Journal
from companion.referee.settings import RefereeSettings
from companion.referee.table import Table

GODFATHER = Auth(control=True)
NAMES = ["Ana", "Bob", "Cyd", "Dee"]
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (apt-get install espeak-ng)")


@pytest.fixture
def table(tmp_path):
    t = Table("unit", RefereeSettings(pin="1357"), Journal(tmp_path / "j.sqlite3"), SYSTEM_CLOCK)
    t.command({"type": "new_game", "version": t.version, "players": NAMES, "powers": "none"},
              GODFATHER)
    yield t
    t.journal.close()


def act(table: Table, action: dict) -> None:
    table.command({"type": "action", "version": table.version, "action": action}, GODFATHER)


def app_with(table: Table, speaker: Speaker):
    app = Flask(__name__)
    app.register_blueprint(speech_blueprint(table, speaker))
    return app.test_client()


def seconds(data: bytes) -> float:
    with wave.open(io.BytesIO(data)) as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2)
        return w.getnframes() / w.getframerate()


@needs_espeak
def test_a_line_is_a_wav_made_once_per_language(table):
    speaker = Speaker()
    client = app_with(table, speaker)
    game = table.view().game.id
    fr = client.get(f"/api/call/{game}/1/0.wav?lang=fr")  # "Tour 1. Ana est le Parrain."
    assert fr.status_code == 200 and fr.mimetype == "audio/wav"
    assert 1.0 < seconds(fr.data) < 5.0  # a short sentence, not silence nor a stuck voice
    assert client.get(f"/api/call/{game}/1/0.wav?lang=fr").data == fr.data
    assert speaker.made == 1  # the second tablet's request came from the cache
    en = client.get(f"/api/call/{game}/1/0.wav?lang=en")
    assert en.status_code == 200 and en.data != fr.data and speaker.made == 2


@needs_espeak
def test_only_the_games_own_events_are_spoken(table):
    table.command({"type": "new_game", "version": table.version, "players": NAMES,
                   "powers": "none", "cards": "physical", "abandon": True}, GODFATHER)
    client = app_with(table, Speaker())
    game = table.view().game.id
    assert client.get(f"/api/call/{game + 1}/1/0.wav").status_code == 404  # another game
    assert client.get(f"/api/call/{game}/1/1.wav").status_code == 404  # not happened yet
    assert client.get(f"/api/call/{game}/2/0.wav").status_code == 404
    for name in NAMES:
        act(table, {"type": "choose", "player": name})
    for name, target in zip(NAMES, NAMES[1:] + NAMES[:1], strict=True):
        act(table, {"type": "aim", "player": name, "target": target})
    act(table, {"type": "privilege", "player": "Ana", "order": "Bob"})
    act(table, {"type": "aim", "player": "Bob", "target": "Dee"})
    kinds = [e.type for e in table.view().game.state.events]
    assert kinds == ["round", "ordered"]
    assert client.get(f"/api/call/{game}/1/1.wav").status_code == 204  # an order: not called


@needs_espeak
def test_the_cache_is_bounded(table):
    speaker = Speaker(cache_lines=2)
    for text in ("Ana.", "Bob.", "Cyd."):
        speaker.wav(text, "en")
    speaker.wav("Cyd.", "en")
    assert speaker.made == 3
    speaker.wav("Ana.", "en")  # the oldest line was let go
    assert speaker.made == 4


def test_a_voice_that_hangs_or_is_missing_is_a_503_not_a_stuck_page(table, tmp_path):
    hang = tmp_path / "hang"
    hang.write_text("#!/bin/sh\nexec sleep 30\n")
    hang.chmod(0o755)
    game = table.view().game.id
    for program, why in ((str(hang), "took over"), ("no-such-espeak", "not installed")):
        client = app_with(table, Speaker(program=program, timeout_s=0.3))
        r = client.get(f"/api/call/{game}/1/0.wav")
        assert r.status_code == 503 and why in r.text


@needs_espeak
def test_the_dashboard_serves_the_caller(table):
    client = create_app(table, DashboardSettings()).test_client()
    game = table.view().game.id
    r = client.get(f"/api/call/{game}/1/0.wav", headers={"Accept-Language": "de"})
    assert r.status_code == 200 and r.headers["Content-Language"] == "de"
