"""The game's events in plain words, for people at the table and in logs."""

from __future__ import annotations

from collections.abc import Iterable

from companion.rules.events import (
    Clipped,
    CuteTook,
    Eliminated,
    Event,
    FirstAid,
    Forbade,
    GameOver,
    GoodFriend,
    Healed,
    Hustled,
    JunkSwapped,
    LaidDown,
    Lucky,
    Ordered,
    Passed,
    ProfessionalStole,
    Revealed,
    RoundBegun,
    SmartPassed,
    SmartTookBack,
    StealthyTook,
    Swapped,
    Took,
    TooSlow,
    Unclaimed,
    VultureTook,
    Wounded,
)

LOOT_WORDS = {
    "bill5000": "a $5k bill", "bill10000": "a $10k bill", "bill20000": "a $20k bill",
    "diamond1000": "a $1k diamond", "diamond5000": "a $5k diamond",
    "diamond10000": "a $10k diamond", "painting": "a painting", "clip": "a Clip",
    "first_aid": "a first aid kit", "godfather": "the New Godfather token",
}


def loot_words(cards: Iterable[str]) -> str:
    return ", ".join(LOOT_WORDS[c] for c in cards) or "nothing"


def _wounds(n: int) -> str:
    return f"{n} wound" + ("s" if n != 1 else "")


def describe(e: Event) -> str:
    """One event as a sentence."""
    match e:
        case RoundBegun(round=n, godfather=godfather, loot=loot):
            return f"Round {n}: {godfather} is the Godfather. On the table: {loot_words(loot)}."
        case Hustled(player=p, victim=victim):
            return f"{p} hustled a card from {victim}."
        case Swapped(player=p):
            return f"{p} swapped the face-down card."
        case Ordered(player=p, order=order):
            return f"The Godfather {p} ordered {order} to change target."
        case LaidDown(player=p):
            return f"{p} lay down."
        case Healed(player=p, wounds=wounds):
            return f"{p}, the Doctor, healed a wound ({_wounds(wounds)} left)."
        case StealthyTook(player=p, loot=card):
            return f"{p} slipped away with {LOOT_WORDS[card]}."
        case SmartTookBack(player=p):
            return f"{p} took the card back."
        case SmartPassed(player=p):
            return f"{p} (the Smart) passed."
        case TooSlow(player=p):
            return f"{p} was too slow."
        case Revealed(player=p, target=target, card=card):
            return f"{p} aimed at {target}: {'Bang!' if card == 'bang' else 'Click!'}"
        case ProfessionalStole(player=p, target=target, loot=loot):
            return f"{p} robbed {target} of {loot_words(loot)}."
        case Lucky(player=p, by=by):
            return f"{p} dodged {len(by)} bullets: no wound."
        case Wounded(player=p, by=by, wounds=wounds):
            return f"{' and '.join(by)} shot {p}: {_wounds(wounds)}."
        case Eliminated(player=p):
            return f"{p} is out of the game."
        case VultureTook(player=p, prey=prey, loot=loot):
            return f"{p} took {loot_words(loot)} from {prey}."
        case CuteTook(player=p, loot=card):
            return f"{p} took {LOOT_WORDS[card]} first."
        case Forbade(player=p, target=target, kind=kind):
            return f"{p} forbade {target} to take a {kind}."
        case Took(player=p, loot=card):
            return f"{p} took {LOOT_WORDS[card]}."
        case Passed(player=p):
            return f"{p} could take nothing."
        case Clipped(player=p, reloaded=reloaded):
            return f"{p} reloaded a Bang! card." if reloaded else f"{p}'s Clip was empty."
        case GoodFriend(player=p):
            return f"{p}, the Good Friend, took a Bang! too."
        case FirstAid(player=p, healed=healed):
            return f"{p} healed {_wounds(healed)}." if healed \
                else f"{p} used a first aid kit: no wound to heal."
        case JunkSwapped(player=p, gave=gave, got=got):
            return f"{p} swapped {LOOT_WORDS[gave]} for {LOOT_WORDS[got]}."
        case Unclaimed(loot=loot, carried=carried):
            fate = "stays on the table" if carried else "is discarded"
            return f"Nobody took {loot_words(loot)}: it {fate}."
        case GameOver(winners=w):
            return f"Game over: {' and '.join(w)} {'win' if len(w) > 1 else 'wins'}!" if w \
                else "Game over: nobody is left standing."
    return f"{e.type}: {e.to_dict()}"  # (a kind told in no sentence yet)
