"""The four rulebook languages: catalogs in web/i18n, and which one a request gets.

One flat catalog per language serves both the templates (`t("ui.round")`) and the
page scripts, which render game events from their dicts with the same catalog, so
the event dicts stay the only source of truth and every sentence is translated.
"""

from __future__ import annotations

import json
from functools import cache

from flask import Request

from companion.dashboard import WEB_DIR

LANGUAGES = ("en", "fr", "de", "es")
# espeak-ng's voice for each language: the spoken count (web/voices.py) and the caller
VOICES = {"en": "en-us", "fr": "fr-fr", "de": "de", "es": "es"}
DEFAULT = "en"
COOKIE = "lang"
CATALOG_DIR = WEB_DIR / "i18n"


@cache
def catalog(lang: str) -> dict[str, str]:
    """The language's strings, English filling any gap (a missing key is a test failure)."""
    strings = json.loads((CATALOG_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    if lang == DEFAULT:
        return strings
    return {**catalog(DEFAULT), **strings}


def choose(request: Request) -> str:
    """`?lang=` first, then the cookie a switch left, then the browser's preference."""
    for asked in (request.args.get("lang"), request.cookies.get(COOKIE)):
        if asked in LANGUAGES:
            return asked
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT
