"""The tablet as a kiosk: an installable web app in full screen with the repository's own
icons, and a screen that stays on while a game runs and may sleep once it is over."""

from __future__ import annotations

import io
from urllib.parse import urlsplit

from PIL import Image
from playwright.sync_api import expect
from test_languages_and_end import play_to_the_end, start

# A probe in the page: every screen lock the page asks for, kept to read its state.
WAKE_PROBE = """(() => {
  window.screenLocks = [];
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = async (type) => {
    const lock = await request(type);
    window.screenLocks.push(lock);
    return lock;
  };
})()"""
HELD = "() => window.screenLocks.filter((l) => !l.released).length"


def test_the_manifest_makes_a_full_screen_app_from_the_repositorys_icons(live, open_page):
    page = open_page("/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    response = page.request.get(live.url + href)
    assert response.ok and response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["display"] == "fullscreen" and manifest["start_url"] == "/"
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert not urlsplit(icon["src"]).netloc  # the table's own server: no CDN
        picture = page.request.get(live.url + icon["src"])
        assert picture.ok and picture.headers["content-type"] == icon["type"]
        width, height = Image.open(io.BytesIO(picture.body())).size
        assert f"{width}x{height}" == icon["sizes"]
    # what Chromium makes of it: the manifest it parsed, with no error
    cdp = page.context.new_cdp_session(page)
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["errors"] == [] and '"fullscreen"' in parsed["data"]


def test_the_screen_stays_on_while_a_game_runs(live, open_page):
    page = open_page("/")
    page.add_init_script(WAKE_PROBE)
    page.reload()
    expect(page.locator("#no-game")).to_be_visible()
    assert page.evaluate(HELD) == 0  # no game: the screen may sleep
    start(live)
    expect(page.locator(".seat")).to_have_count(4)
    page.wait_for_function(f"({HELD})() === 1")
    # the browser drops the lock when the page is hidden; seen again, the page asks again
    page.evaluate("() => window.screenLocks.at(-1).release()")
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function(f"({HELD})() === 1 && window.screenLocks.length === 2")
    play_to_the_end(live)
    expect(page.locator(".final .scores")).to_be_visible()
    page.wait_for_function(f"({HELD})() === 0")  # the game is over: the screen may sleep
