"""The caller's lines for recorded games, in the four languages.

The expected sentences are written here from the rules (who shot whom, who lay down, who
is out, who took what, the Godfather, the winner) and the catalogs' wording, not from the
caller's code: the game of games/caller_round.yaml is the last round at four, where Dee
lies down, Ana and Bob both shoot Cyd (two wounds already: the third is one too many, R8),
and Ana, with the only diamond, wins the count (R15).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.dashboard import caller, i18n
from companion.rules.events import GameOver, Wounded
from companion.scenario.load import load_scenario
from companion.scenario.replay import replay

GAMES = Path(__file__).resolve().parent / "games"
EXAMPLES = Path(__file__).resolve().parents[2] / "scenarios" / "examples"

LAST_ROUND = {
    "en": ["Round 8. Ana is the Godfather.",
           "Dee lies down.",
           "Cyd is shot by Ana and Bob.",
           "Cyd is out of the game.",
           "Ana takes a 10000 dollar bill.",
           "Bob takes a painting.",
           "Ana takes a 1000 dollar diamond.",
           "Bob takes a 5000 dollar bill.",
           "Ana takes the New Godfather token.",
           "Ana wins!"],
    "fr": ["Tour 8. Ana est le Parrain.",
           "Dee se couche.",
           "Cyd reçoit une balle de Ana et Bob.",
           "Cyd quitte la partie.",
           "Ana prend un billet de 10000 dollars.",
           "Bob prend un tableau.",
           "Ana prend un diamant de 1000 dollars.",
           "Bob prend un billet de 5000 dollars.",
           "Ana prend la tuile du Nouveau Parrain.",
           "Ana gagne !"],
    "de": ["Runde 8. Ana ist der Pate.",
           "Dee legt sich hin.",
           "Cyd wird von Ana und Bob getroffen.",
           "Cyd ist aus dem Spiel.",
           "Ana nimmt einen Schein über 10000 Dollar.",
           "Bob nimmt ein Gemälde.",
           "Ana nimmt einen Diamanten für 1000 Dollar.",
           "Bob nimmt einen Schein über 5000 Dollar.",
           "Ana nimmt das Plättchen Neuer Pate.",
           "Ana gewinnt!"],
    "es": ["Turno 8. Ana es el Padrino.",
           "Dee se tumba.",
           "Cyd recibe un disparo de Ana y Bob.",
           "Cyd queda fuera del juego.",
           "Ana se lleva un billete de 10000 dólares.",
           "Bob se lleva una pintura.",
           "Ana se lleva un diamante de 1000 dólares.",
           "Bob se lleva un billete de 5000 dólares.",
           "Ana se lleva la ficha de Nuevo Padrino.",
           "¡Ana gana!"],
}


def events_of(path: Path):
    played = replay(load_scenario(path))
    assert played.error is None, played.error
    return played.state.events


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_last_round_is_called_in_every_language(lang):
    said = caller.lines(events_of(GAMES / "caller_round.yaml"), i18n.catalog(lang))
    assert said == LAST_ROUND[lang]


def test_a_first_round_names_the_shooter_each_share_and_the_next_godfather():
    """scenarios/examples/e01: Dee lies down, Ana's Bang! wounds Cyd, the three standing
    share the loot, Ana takes the New Godfather token and is the Godfather of round 2;
    the Clicks, the Godfather's order, the Clip's reload and an idle first aid kit are not
    spoken."""
    said = caller.lines(events_of(EXAMPLES / "e01_first_round.yaml"), i18n.catalog("en"))
    assert said == [
        "Round 1. Ana is the Godfather.",
        "Dee lies down.",
        "Cyd is shot by Ana.",
        "Ana takes a 20000 dollar bill.",
        "Bob takes a painting.",
        "Eve takes a painting.",
        "Ana takes the New Godfather token.",
        "Bob takes a 5000 dollar diamond.",
        "Eve takes a 10000 dollar bill.",
        "Ana takes a 5000 dollar bill.",
        "Bob takes a clip.",
        "Eve takes a first aid kit.",
        "Round 2. Ana is the Godfather.",
    ]


def test_three_shooters_a_shared_win_and_nobody_left():
    fr = i18n.catalog("fr")
    assert caller.line(Wounded(3, "Eve", ("Ana", "Bob", "Cyd"), 2), fr) == \
        "Eve reçoit une balle de Ana, Bob et Cyd."
    assert caller.line(GameOver(8, ("Ana", "Sofía")), i18n.catalog("es")) == \
        "¡Ana y Sofía comparten la victoria!"
    assert caller.line(GameOver(5, ()), i18n.catalog("de")) == "Niemand steht mehr."
