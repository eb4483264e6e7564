"""The caller's sentences: what the table says aloud of each game event, in a catalog's words.

Pure (no I/O): the events are the rules engine's typed events, the words the catalog's
`call.*` keys, so the same sentence is spoken in every language with the players' names in
it. Only what the public view shows is spoken: a secret field (the cards a Vulture or a
Professional took) is never read. An event the caller keeps quiet about gives None.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.rules.events import (
    CuteTook,
    Eliminated,
    Event,
    GameOver,
    LaidDown,
    Lucky,
    ProfessionalStole,
    RoundBegun,
    StealthyTook,
    Took,
    VultureTook,
    Wounded,
)

Catalog = Mapping[str, str]


def names(who: Sequence[str], words: Catalog) -> str:
    """"Alice", "Alice and Bob", "Alice, Bob and Carol" in the catalog's words."""
    if len(who) < 2:
        return "".join(who)
    return words["call.and"].format(first=", ".join(who[:-1]), last=who[-1])


def line(event: Event, words: Catalog) -> str | None:
    """The sentence the caller says for `event`, or None when it says nothing."""
    match event:
        case RoundBegun(round=n, godfather=godfather):
            return words["call.round"].format(round=n, godfather=godfather)
        case LaidDown(player=p):
            return words["call.lay_down"].format(player=p)
        case Wounded(player=p, by=by):
            return words["call.wounded"].format(player=p, by=names(by, words))
        case Lucky(player=p):
            return words["call.lucky"].format(player=p)
        case Eliminated(player=p):
            return words["call.eliminated"].format(player=p)
        case Took(player=p, loot=card) | CuteTook(player=p, loot=card) \
                | StealthyTook(player=p, loot=card):
            return words["call.took"].format(player=p, loot=words[f"call.loot.{card}"])
        case ProfessionalStole(player=p, target=target):
            return words["call.robbed"].format(player=p, target=target)
        case VultureTook(player=p, prey=prey):
            return words["call.vulture"].format(player=p, prey=prey)
        case GameOver(winners=winners):
            key = ("call.game_over_nobody", "call.game_over")[len(winners)] \
                if len(winners) < 2 else "call.game_over_shared"
            return words[key].format(winners=names(winners, words))
    return None


def lines(events: Sequence[Event], words: Catalog) -> list[str]:
    """The sentences of `events` in order, the quiet ones left out."""
    return [said for said in (line(e, words) for e in events) if said is not None]
