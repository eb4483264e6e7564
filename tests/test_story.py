"""The terminal's story: every event a sentence, with no slips."""

from __future__ import annotations

from companion.rules.events import Clipped, FirstAid
from companion.story import describe


def test_sentences_end_once_and_say_nothing_healed_as_such():
    assert describe(Clipped(1, player="Ana", reloaded=True)) == \
        "Ana reloaded a Bang! card."
    assert describe(FirstAid(1, player="Dee", healed=0)) == \
        "Dee used a first aid kit: no wound to heal."
    assert describe(FirstAid(1, player="Dee", healed=2)) == "Dee healed 2 wounds."
