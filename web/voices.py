"""The spoken countdown's words, made from the catalogs: `python web/voices.py`.

Each language's "one", "two", "three" (`count.say1` to `count.say3` in web/i18n) is
spoken by espeak-ng (`apt-get install espeak-ng`, only to rebuild: the files are kept in
the repository), trimmed of its silences so the word starts on the beat, and written as
a 16-bit mono WAV under web/static/audio/<lang>/. The pages play them with Web Audio, so
"three" sounds on the referee's beat, offline, the same on every tablet (speechSynthesis
starts a voice after a delay that depends on the device, and many have no voice at all).
`voices.json` records the words each file says; a test checks it against the catalogs.
"""

from __future__ import annotations

import array
import json
import shutil
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

from companion.dashboard.i18n import VOICES

WEB = Path(__file__).resolve().parent
AUDIO = WEB / "static" / "audio"
BEATS = (1, 2, 3)
SILENCE = 600  # samples quieter than this (of 32767) before and after the word are cut
FADE = 64  # samples of fade-out, so the cut ends without a click


def spoken(word: str, voice: str, beat: int) -> tuple[array.array, int]:
    """The word as espeak-ng says it (a higher pitch on "three"), trimmed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "word.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", "150", "-p", "70" if beat == 3 else "50",
                        "-a", "180", "-w", str(out), word], check=True)
        with wave.open(str(out)) as w:
            rate = w.getframerate()
            samples = array.array("h", w.readframes(w.getnframes()))
    loud = [i for i, v in enumerate(samples) if abs(v) > SILENCE]
    kept = samples[loud[0]:loud[-1] + 1] if loud else samples
    for i in range(min(FADE, len(kept))):
        kept[-1 - i] = int(kept[-1 - i] * i / FADE)
    return kept, rate


def build() -> dict[str, str]:
    made: dict[str, str] = {}
    for lang, voice in VOICES.items():
        catalog = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        (AUDIO / lang).mkdir(parents=True, exist_ok=True)
        for beat in BEATS:
            word = catalog[f"count.say{beat}"]
            samples, rate = spoken(word, voice, beat)
            with wave.open(str(AUDIO / lang / f"beat{beat}.wav"), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(rate)
                w.writeframes(samples.tobytes())
            made[f"{lang}/beat{beat}.wav"] = word
    return made


def main() -> int:
    if shutil.which("espeak-ng") is None:
        print("espeak-ng is not installed: apt-get install espeak-ng", file=sys.stderr)
        return 1
    version = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True,
                             check=True).stdout.split(":")[1].split("Data")[0].strip()
    made = build()
    (AUDIO / "voices.json").write_text(json.dumps(
        {"made_by": f"espeak-ng {version}", "words": made}, ensure_ascii=False, indent=2) + "\n",
        encoding="utf-8")
    print(f"{len(made)} words written under {AUDIO}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
