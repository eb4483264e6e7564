"""The game's events in plain words, for people at the table and in logs."""

from __future__ import annotations

from typing import Any

LOOT_WORDS = {
    "bill5000": "a $5k bill", "bill10000": "a $10k bill", "bill20000": "a $20k bill",
    "diamond1000": "a $1k diamond", "diamond5000": "a $5k diamond",
    "diamond10000": "a $10k diamond", "painting": "a painting", "clip": "a Clip",
    "first_aid": "a first aid kit", "godfather": "the New Godfather token",
}


def loot_words(cards: list[str]) -> str:
    return ", ".join(LOOT_WORDS[c] for c in cards) or "nothing"


def _wounds(n: int) -> str:
    return f"{n} wound" + ("s" if n != 1 else "")


def describe(e: dict[str, Any]) -> str:
    """One event as a sentence; unknown types fall back to their raw fields."""
    p = e.get("player", "")
    match e["type"]:
        case "round":
            return f"Round {e['round']}: {e['godfather']} is the Godfather. " \
                   f"On the table: {loot_words(e['loot'])}."
        case "hustled":
            return f"{p} hustled a card from {e['victim']}."
        case "swapped":
            return f"{p} swapped the face-down card."
        case "ordered":
            return f"The Godfather {p} ordered {e['order']} to change target."
        case "lay_down":
            return f"{p} lay down."
        case "healed":
            return f"{p}, the Doctor, healed a wound ({_wounds(e['wounds'])} left)."
        case "stealthy":
            return f"{p} slipped away with {LOOT_WORDS[e['loot']]}."
        case "smart":
            return f"{p} took the card back."
        case "too_slow":
            return f"{p} was too slow."
        case "revealed":
            return f"{p} aimed at {e['target']}: {'Bang!' if e['card'] == 'bang' else 'Click!'}"
        case "professional":
            return f"{p} robbed {e['target']} of {loot_words(e['loot'])}."
        case "lucky":
            return f"{p} dodged {len(e['by'])} bullets: no wound."
        case "wounded":
            return f"{' and '.join(e['by'])} shot {p}: {_wounds(e['wounds'])}."
        case "eliminated":
            return f"{p} is out of the game."
        case "vulture":
            return f"{p} took {loot_words(e['loot'])} from {e['prey']}."
        case "cute":
            return f"{p} took {LOOT_WORDS[e['loot']]} first."
        case "forbid":
            return f"{p} forbade {e['target']} to take a {e['kind']}."
        case "took":
            return f"{p} took {LOOT_WORDS[e['loot']]}."
        case "passed":
            return f"{p} could take nothing."
        case "clip":
            return f"{p} reloaded a Bang! card." if e.get("reloaded") else f"{p}'s Clip was empty."
        case "good_friend":
            return f"{p}, the Good Friend, took a Bang! too."
        case "first_aid":
            return f"{p} healed {_wounds(e['healed'])}." if e["healed"] \
                else f"{p} used a first aid kit: no wound to heal."
        case "junk":
            return f"{p} swapped {LOOT_WORDS[e['gave']]} for {LOOT_WORDS[e['got']]}."
        case "unclaimed":
            fate = "stays on the table" if e["carried"] else "is discarded"
            return f"Nobody took {loot_words(e['loot'])}: it {fate}."
        case "game_over":
            w = e["winners"]
            return f"Game over: {' and '.join(w)} {'win' if len(w) > 1 else 'wins'}!" if w \
                else "Game over: nobody is left standing."
    return f"{e['type']}: {e}"
