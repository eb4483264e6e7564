"""The four catalogs: the same keys, the same fields, and every key the pages use."""

from __future__ import annotations

import json
import re

import pytest

from companion.dashboard import WEB_DIR, i18n
from companion.referee import phone
from companion.rules.cards import KINDS, LOOT_KIND
from companion.rules.events import EVENTS
from companion.rules.phases import TABLE
from companion.rules.powers import POWERS
from companion.rules.state import PHASES

FIELDS = re.compile(r"\{(\w+)\}")


def raw(lang: str) -> dict[str, str]:
    return json.loads((i18n.CATALOG_DIR / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_every_language_has_every_string_with_the_same_fields(lang):
    en, other = raw("en"), raw(lang)
    assert set(other) == set(en)
    for key, text in en.items():
        assert set(FIELDS.findall(other[key])) == set(FIELDS.findall(text)), key


# The only values a catalog shares with English, each for a reason: the languages' own
# names, the game's name, digits; the rulebook's own words (the French edition keeps the 16
# power names in English, the German one prints "Click" and "Bang!" on its cards); words the
# language writes as English does.
SAME_EVERYWHERE = {"lang.en", "lang.fr", "lang.de", "lang.es", "ui.title",
                   "count.beat1", "count.beat2", "count.beat3", "venue.rank",
                   "overlay.seconds", "overlay.minutes"}  # (the units' symbols: s, min)
# The powers in the French rulebook ("Les Pouvoirs") and the German one ("The Kid (Das Kind)").
# (The English rulebook says "Unbreakable", the French one "The Unbreakable".)
POWER_NAMES = {
    "collector": ("The Collector", "Der Sammler"),
    "cunning": ("The Cunning", "Der Gewiefte"),
    "cute": ("The Cute", "Der Nette"),
    "dictator": ("The Dictator", "Der Diktator"),
    "doctor": ("The Doctor", "Die Ärztin"),
    "good_friend": ("The Good Friend", "Die beste Freundin"),
    "greedy": ("The Greedy", "Die Gierige"),
    "hustler": ("The Hustler", "Der Schwindler"),
    "junk_dealer": ("The Junk Dealer", "Die Schrotthändlerin"),
    "kid": ("The Kid", "Das Kind"),
    "lucky_man": ("The Lucky Man", "Der Glückspilz"),
    "professional": ("The Professional", "Der Profi"),
    "smart": ("The Smart", "Der Clevere"),
    "stealthy": ("The Stealthy", "Die Verstohlene"),
    "unbreakable": ("The Unbreakable", "Der Unverwüstliche"),
    "vulture": ("The Vulture", "Der Geier"),
}
SAME_AS_ENGLISH = {
    "fr": {*(f"power.{p}.name" for p in POWER_NAMES),
           "step.courage", "final.total", "ref.pause",  # French words: Courage, Total, Pause
           "venue.tables", "venue.table", "venue.place", "venue.score"},
    "de": {"card.bang", "card.click",  # the German cards: „Click“-Karten, „Bang!“-Karten
           "ref.pause", "ref.name", "bot.style", "venue.offline"},  # German words
    "es": {"final.total", "bot.style"},  # Spanish words: Total, Bot
}


@pytest.mark.parametrize("lang", sorted(SAME_AS_ENGLISH))
def test_no_value_is_left_in_english(lang):
    """A value equal to the English one is a word the rulebook or the language shares."""
    en, other = raw("en"), raw(lang)
    same = {key for key, text in other.items() if en.get(key) == text}
    allowed = SAME_EVERYWHERE | SAME_AS_ENGLISH[lang]
    assert sorted(same - allowed) == [], f"{lang}: not translated"


def test_official_rulebook_words():
    """The rulebooks' own words: the French and German cards and the powers' names; the
    Spanish edition prints "Bullet" and "Clip" in English, so the Spanish words are the
    ones its French and German neighbours translate (balle, chargeur; bala, cargador)."""
    fr, de, es = raw("fr"), raw("de"), raw("es")
    assert fr["step.holdup"] == "Braquage" and fr["step.privilege"] == "Privilège du Parrain"
    assert de["step.courage"] == "Mutprobe"
    assert (fr["card.click"], de["card.click"], es["card.click"]) == ("Clic", "Click", "Clic")
    assert fr["loot_label.clip"] == "Chargeur" and de["kind.clip"] == "Magazin"
    for power, (french, german) in POWER_NAMES.items():
        assert (fr[f"power.{power}.name"], de[f"power.{power}.name"]) == (french, german)
    assert set(POWER_NAMES) == set(POWERS)
    english = re.compile(r"\b(Bullet|Clip|Click)\b")
    assert [k for k, v in es.items() if english.search(v)] == []
    assert es["step.choose"] == "Elección de la carta de bala" and es["kind.clip"] == "cargador"


def test_every_key_a_page_names_exists():
    sources = [*WEB_DIR.glob("static/js/*.js"), *WEB_DIR.glob("templates/*.html")]
    named = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        named |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z0-9_.]+)["']""", text))
        named |= set(re.findall(r"""plural\(\s*["']([a-z_.]+)["']""", text))
    en = raw("en")
    plural_bases = {k.rsplit(".", 1)[0] for k in en if k.endswith((".one", ".other"))}
    missing = sorted(k for k in named if k not in en and k not in plural_bases)
    assert not missing
    assert len(named) > 100


def test_game_words_are_all_there():
    en = raw("en")
    for power in POWERS:
        assert f"power.{power}.name" in en and f"power.{power}.reminder" in en
    for card in (*LOOT_KIND, "godfather"):
        assert f"loot.{card}" in en and f"loot_label.{card}" in en
    for phase in PHASES:
        assert f"step.{phase}" in en
    for ph in TABLE:  # what the table may wait for (`rules.waiting`): the views' wait.<key>
        for key in (ph.duty, *(w.name for w in ph.resting)):  # (a duty of several: plurals)
            assert f"wait.{key}" in en or f"wait.{key}.other" in en, key
    for kind in KINDS:
        assert f"kind.{kind}" in en
    words = (WEB_DIR / "static/js/words.js").read_text(encoding="utf-8")
    assert len(EVENTS) >= 25  # (one class per kind of event: `companion.rules.events`)
    for event in EVENTS:
        assert f'case "{event}"' in words, f"eventText has no case for {event}"


def test_the_spoken_count_says_each_catalogs_words():
    """The recordings (made by `python web/voices.py`) say what the catalogs say; a changed
    word means running it again."""
    import wave

    audio = WEB_DIR / "static" / "audio"
    made = json.loads((audio / "voices.json").read_text(encoding="utf-8"))["words"]
    assert len(made) == 3 * len(i18n.LANGUAGES)
    for lang in i18n.LANGUAGES:
        for beat in (1, 2, 3):
            name = f"{lang}/beat{beat}.wav"
            assert made[name] == raw(lang)[f"count.say{beat}"], name
            with wave.open(str(audio / name)) as w:
                assert (w.getnchannels(), w.getsampwidth()) == (1, 2)
                assert 0.1 < w.getnframes() / w.getframerate() < 0.6, name  # a word, on the beat


def test_every_word_a_phone_is_given_exists():
    """The server's second-person labels (referee/phone.py): a `mine.` twin of each tablet
    label a phone may show, a heading for each step, a banner for each turn."""
    en = raw("en")
    tablet_only = {"action.aim_nobody", "action.choose_bang", "action.choose_click"}
    phone_keys = [f"mine.{k.removeprefix('action.')}" for k in en if k.startswith("action.")
                  and k not in tablet_only and k not in phone.SECOND_PERSON]
    phone_keys += [f"phone.group_{g}" for g in phone.GROUPS]
    phone_keys += [f"turn.{w}" for w in phone.TURNS]
    assert sorted(k for k in phone_keys if k not in en) == []
    assert set(phone.GROUP.values()) <= set(phone.GROUPS)
    waits = {key for ph in TABLE for key in (ph.duty, *(w.name for w in ph.resting))}
    assert waits - set(phone.TURNS) == {"deal", "over"}  # no player's own move
