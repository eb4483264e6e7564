"""The pictures of docs/screenshots/: each view of the dashboard in each language.

    .venv/bin/python docs/screenshots.py

A whole simulated table (tests/dashboard/stack.py) on a Mosquitto of its own and Debian's
Chromium (`apt-get install chromium mosquitto`, and the test extra: `pip install -e
'.[test]'`). A four-player game is played by random legal taps to its hold-up, then the
table view and the Godfather's controls (1280×800) and the Hustler's phone (390×844) are
taken; the game is then played to its end for the end screen. About 1 MB in all.
"""

from __future__ import annotations

import io
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests" / "dashboard")]

from conftest import SIZES  # noqa: E402
from PIL import Image  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402
from sensors_mqtt import free_port, start_mosquitto  # noqa: E402
from stack import PIN, start_live_table  # noqa: E402
from test_languages_and_end import play_to_the_end, start  # noqa: E402
from test_phone_wording import tap_until  # noqa: E402

from companion.dashboard.i18n import LANGUAGES  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
POWERS = {"Ana": "hustler", "Bob": "kid", "Cyd": "doctor", "Dee": "greedy"}


def save_small(png: bytes, path: Path) -> None:
    """256 colours, no dithering: a third of the size, the same picture to the eye."""
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    picture.quantize(colors=256, dither=Image.Dither.NONE).save(path, optimize=True)


def shoot(page, url: str, ready: str, name: str) -> None:
    for lang in LANGUAGES:
        page.goto(f"{url}?lang={lang}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator(ready).first).to_be_visible()
        page.wait_for_load_state("networkidle")
        save_small(page.screenshot(), OUT / f"{name}-{lang}.png")
        print(f"docs/screenshots/{name}-{lang}.png")


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        port = free_port()
        broker = start_mosquitto(port, folder)
        live = start_live_table(Path(folder), f"mqtt://127.0.0.1:{port}")
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            start(live, powers=POWERS)
            tablet = browser.new_page(viewport=SIZES["tablet"])
            phone = browser.new_page(viewport=SIZES["phone"])
            phone.goto(f"{live.url}/seat/1?token={live.table.access.seat_token(1)}")
            expect(phone.locator("#my-turn")).to_be_visible()
            shoot(phone, f"{live.url}/seat/1", "#my-turn", "phone")
            tap_until(live, lambda s: s.phase == "holdup")
            shoot(tablet, f"{live.url}/", ".seat", "table")
            tablet.goto(f"{live.url}/referee")
            tablet.fill("#pin", PIN)
            tablet.click("button[type=submit]")
            expect(tablet.locator("body")).to_have_attribute("data-live", "yes")
            shoot(tablet, f"{live.url}/referee", "#actions button", "referee")
            play_to_the_end(live)
            shoot(tablet, f"{live.url}/", ".final .scores", "end")
        finally:
            browser.close()
            live.stop()
            broker.terminate()
            broker.wait()


if __name__ == "__main__":
    main()
