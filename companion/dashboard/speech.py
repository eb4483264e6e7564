"""The caller's voice: each sentence spoken by espeak-ng on the Pi, served as a WAV.

Why on the Pi and not the browser's speechSynthesis: docs/DASHBOARD.md, "The caller". The
tablet asks for an event of the game by its round and its place in that round; the sentence
is made from the game's own event (companion/dashboard/caller.py), never from text a page
sends, so nothing but the public story can be spoken. espeak-ng runs after the referee's
lock is let go (`Table.view()` hands a frozen snapshot), one at a time, with a timeout, and
each sentence's WAV is kept in a bounded cache: every tablet asking for the same line is
served the one recording.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path

from flask import Blueprint, Response, request

from companion.dashboard import caller, i18n
from companion.dashboard.i18n import VOICES
from companion.referee.table import Table

RATE_WPM = 160
CACHE_LINES = 128  # about 100 KB a line: a few games' worth, a dozen megabytes at most
LOG = logging.getLogger(__name__)
TIMEOUT_S = 10.0  # a line takes espeak-ng about 0.1 s on a PC (docs/DASHBOARD.md)


class SpeechError(RuntimeError):
    """espeak-ng is missing, failed or took too long."""


class Speaker:
    """Sentences to WAV bytes by espeak-ng, each made once while it stays in the cache."""

    def __init__(self, program: str = "espeak-ng", cache_lines: int = CACHE_LINES,
                 timeout_s: float = TIMEOUT_S) -> None:
        self.program, self.cache_lines, self.timeout_s = program, cache_lines, timeout_s
        self._cache: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._making = threading.Lock()  # one espeak-ng at a time: the Pi has other work
        self.made = 0  # lines spoken by espeak-ng (not from the cache)

    def wav(self, text: str, lang: str) -> bytes:
        key = (lang, text)
        with self._cache_lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        with self._making:
            with self._cache_lock:  # (made while this request waited its turn?)
                if key in self._cache:
                    return self._cache[key]
            data = self._speak(text, VOICES[lang])
            self.made += 1
        with self._cache_lock:
            self._cache[key] = data
            while len(self._cache) > self.cache_lines:
                self._cache.popitem(last=False)
        return data

    def _speak(self, text: str, voice: str) -> bytes:
        """The text read from standard input (so no text is ever taken for an option)."""
        if shutil.which(self.program) is None:
            raise SpeechError(f"{self.program} is not installed (apt-get install espeak-ng)")
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "line.wav"
            try:
                subprocess.run([self.program, "-v", voice, "-s", str(RATE_WPM), "-w", str(out),
                                "--stdin"], input=text.encode(), check=True,
                               capture_output=True, timeout=self.timeout_s)
            except subprocess.TimeoutExpired as e:
                raise SpeechError(f"{self.program} took over {self.timeout_s} s") from e
            except subprocess.CalledProcessError as e:
                raise SpeechError(f"{self.program} failed: {e.stderr.decode()[:200]}") from e
            return out.read_bytes()


def speech_blueprint(table: Table, speaker: Speaker) -> Blueprint:
    """`GET /api/call/<game>/<round>/<n>.wav?lang=fr`: the caller's line for the game's
    n-th event (from 0) of that round, as the public log lists them; 204 when the caller
    says nothing of that event, 404 for no such event, 503 when no voice can be made."""
    bp = Blueprint("speech", __name__, url_prefix="/api/call")

    @bp.get("/<int:game>/<int:round_no>/<int:n>.wav")
    def line(game: int, round_no: int, n: int) -> Response | tuple[str, int]:
        lang = i18n.choose(request)
        now = table.view().game  # (the lock is held only to take the snapshot)
        if now is None or now.id != game:
            return "no such game now", 404
        events = [e for e in now.state.events if e.round == round_no]
        if n >= len(events):
            return "no such event", 404
        said = caller.line(events[n], i18n.catalog(lang))
        if said is None:
            return "", 204
        try:
            data = speaker.wav(said, lang)
        except SpeechError as e:
            LOG.warning("caller: %s", e)
            return str(e), 503
        response = Response(data, mimetype="audio/wav")
        response.headers["Cache-Control"] = "private, max-age=3600"
        response.headers["Content-Language"] = lang
        return response

    return bp

