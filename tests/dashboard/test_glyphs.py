"""No glyph drawn as a missing-glyph box: every character the pages can show is in a font
the browser has (Debian's Chromium, its fonts), for the page's own font settings."""

from __future__ import annotations

import json
import shutil
import subprocess

from companion.dashboard import WEB_DIR, i18n

TOFU = """(chars) => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const family = getComputedStyle(document.body).fontFamily;
  const draw = (ch, weight) => {
    ctx.clearRect(0, 0, 64, 64);
    ctx.font = `${weight} 40px ${family}`;
    ctx.fillText(ch, 4, 48);
    const data = ctx.getImageData(0, 0, 64, 64).data;
    let print = 0;
    for (let i = 3; i < data.length; i += 4) print = (print * 31 + data[i] * (i + 1)) % 2147483647;
    return print;
  };
  const missing = {400: draw('\\u{10FFFD}', 400), 700: draw('\\u{10FFFD}', 700)};
  return chars.filter((ch) => [400, 700].some((w) => draw(ch, w) === missing[w]));
}"""


def shown_characters() -> list[str]:
    """Every non-ASCII character of the catalogs, the templates, the scripts and the style."""
    texts = [json.dumps(i18n.catalog(lang), ensure_ascii=False) for lang in i18n.LANGUAGES]
    for pattern in ("templates/*.html", "static/js/*.js", "static/css/*.css"):
        texts += [p.read_text(encoding="utf-8") for p in WEB_DIR.glob(pattern)]
    return sorted({ch for text in texts for ch in text if ord(ch) > 127 and not ch.isspace()})


def fonts_have(codepoint: int) -> bool | None:
    """What fontconfig says of a character (None without fc-list)."""
    if shutil.which("fc-list") is None:
        return None
    out = subprocess.run(["fc-list", f":charset={codepoint:x}"], capture_output=True, text=True)
    return bool(out.stdout.strip())


def test_every_character_the_pages_show_has_a_glyph(open_page):
    page = open_page("/")
    chars = shown_characters()
    assert len(chars) > 30 and "◆" in chars and "é" in chars
    assert page.evaluate(TOFU, chars) == []
    # the check itself: a character no installed font has is found missing
    if fonts_have(0xFF3C) is False:
        assert page.evaluate(TOFU, ["\uff3c"]) == ["\uff3c"]
