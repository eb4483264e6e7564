"""The tablet's caller in Chromium: the lines of a round played through the simulated guns
and standees, fetched from the companion and played one after another in the game's order,
and silent while its switch is off."""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import expect
from test_table_reading import GODFATHER, NAMES, act, countdown, new_game
from waiting import wait_for

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is not installed (apt-get install espeak-ng)")

# Every recording the page plays, named by the address it was fetched from.
PLAYBACK_RECORDER = """
window.played = []; window.fetched = [];
const tags = new WeakMap(), buffers = new WeakMap();
const fetchFirst = window.fetch;
window.fetch = async (...args) => {
  const url = new URL(String(args[0]), location.href).pathname;
  window.fetched.push(url);
  const res = await fetchFirst(...args);
  const body = res.arrayBuffer.bind(res);
  res.arrayBuffer = async () => { const data = await body(); tags.set(data, url); return data; };
  return res;
};
const decode = BaseAudioContext.prototype.decodeAudioData;
BaseAudioContext.prototype.decodeAudioData = function (data, ...rest) {
  const url = tags.get(data);
  return decode.call(this, data, ...rest).then((b) => { buffers.set(b, url); return b; });
};
window.gains = [];
const createGain = BaseAudioContext.prototype.createGain;
BaseAudioContext.prototype.createGain = function (...args) {
  const node = createGain.apply(this, args);
  window.gains.push(node);
  return node;
};
const start = AudioBufferSourceNode.prototype.start;
AudioBufferSourceNode.prototype.start = function (...args) {
  window.played.push(buffers.get(this.buffer));
  return start.apply(this, args);
};
"""
SPOKEN = {"round", "lay_down", "wounded", "lucky", "eliminated", "took", "cute", "stealthy",
          "professional", "vulture", "game_over"}  # what the caller says (docs/DASHBOARD.md)


def calls(live, round_no: int, first: int = 0) -> list[str]:
    game = live.table.game
    events = [e for e in game.state.events if e.round == round_no]
    return [f"/api/call/{game.id}/{round_no}/{n}.wav" for n, e in enumerate(events)
            if n >= first and e.type in SPOKEN]


def test_the_tablet_calls_a_round_in_order_and_honours_its_switch(live, open_page):
    sim = live.table.simulator
    new_game(live)
    page = open_page("/")
    page.add_init_script(PLAYBACK_RECORDER)
    page.reload()
    switch = page.locator("#caller")
    expect(switch).to_have_text("Caller: on")
    page.locator("#step").click()  # browsers let a page sound only after a tap
    for name in NAMES:
        act(live, {"type": "choose", "player": name})
    for gun, target in ((1, 2), (2, 3), (3, 1)):
        sim.aim(gun, target)
    expect(page.locator("svg.arrows .aim.live")).to_have_count(3)  # held before the count
    countdown(live, page, "Godfather's privilege")
    act(live, {"type": "privilege", "player": "Ana", "order": None})
    sim.tip(3)  # Cyd lies down
    expect(page.locator('.seat[data-seat="3"]')).to_have_attribute("data-posture", "down")
    live.table.command({"type": "countdown", "version": live.table.version}, GODFATHER)
    expect(page.locator("#step")).to_contain_text(re.compile("Card effects|Loot split"))
    if any(a.type == "reveal" and a.player == "Ana" for a in live.table.legal()):
        act(live, {"type": "reveal", "player": "Ana", "card": "bang"})  # Ana shoots Bob
    expect(page.locator("#step")).to_contain_text("Loot split")
    for _ in range(2):
        act(live, next(a.to_dict() for a in live.table.legal() if a.type == "take"))
    expected = calls(live, 1, first=1)  # the round's start was in the log before the page
    assert len(expected) >= 3  # Cyd lies down, (Bob is shot by Ana,) two shares
    page.wait_for_function(f"() => window.played.length >= {len(expected)}", timeout=30_000)
    assert page.evaluate("window.played") == expected

    switch.click()
    expect(switch).to_have_text("Caller: off")
    fetched = page.evaluate("window.fetched.length")
    take(live, page)
    assert page.evaluate("window.fetched.length") == fetched  # off: not even asked for
    page.reload()
    expect(page.locator("#caller")).to_have_text("Caller: off")  # remembered on the tablet

    page.locator("#caller").click()  # on again (and the tap that lets it sound)
    expect(page.locator("#caller")).to_have_text("Caller: on")
    take(live, page)
    page.wait_for_function("() => window.played.length >= 1", timeout=30_000)
    assert page.evaluate("window.played") == calls(live, 1)[-1:]

    volume = page.locator("#caller-volume")
    expect(volume).to_have_value("80")
    volume.evaluate("v => { v.value = '30'; v.dispatchEvent(new Event('input')); }")
    assert page.evaluate("window.gains.map((g) => Math.round(g.gain.value * 100))") == [30]
    page.reload()
    expect(page.locator("#caller-volume")).to_have_value("30")  # remembered on the tablet


def take(live, page) -> None:
    """The next share taken, and the page has drawn it."""
    act(live, next(a.to_dict() for a in live.table.legal() if a.type == "take"))
    revision = live.table.public_state()["revision"]
    wait_for(lambda: page.evaluate("Number(document.body.dataset.revision)") >= revision,
             what="the page to draw the share")


def test_the_callers_controls_keep_the_tablets_bar_on_one_line(live, open_page):
    """At 1280 px, in every language: the switch and the volume beside the count's and the
    sound's buttons leave the title, the step, the buttons and the language links on one row.
    Measured once the page has drawn the game (its step named): the step is empty, 0 px
    high, until the first state arrives, and an empty span is on no row."""
    new_game(live)
    revision = live.table.public_state()["revision"]
    for lang in ("en", "fr", "de", "es"):
        page = open_page("/", lang=lang)
        expect(page.locator("#caller")).not_to_be_empty()
        expect(page.locator("#step")).not_to_be_empty()
        page.wait_for_function(f"() => Number(document.body.dataset.revision) >= {revision}")
        page.evaluate("document.fonts.ready.then(() => true)")
        spans = page.evaluate("""() => [...document.querySelectorAll('header.bar > *')]
            .map((e) => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom])""")
        assert max(top for top, _ in spans) < min(bottom for _, bottom in spans), (lang, spans)
