"""What the views compute for the pages: buttons, wound limits, rounds, waiting, counted
aims and the tie-break, so that the pages' scripts hold no rule."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from local_table import NAMES8, LocalPort
from still_to_act import StillToAct

from companion.bots.table_bot import TableBot
from companion.referee import ending, labels, phone, views
from companion.rules import Setup, new_game
from companion.rules.cards import LOOT_KIND, PILE_SIZE, ROUNDS
from companion.rules.scoring import finish

CATALOGS = Path(__file__).resolve().parents[2] / "web" / "i18n"
LANGS = ("en", "fr", "de", "es")


def catalog(lang: str = "en") -> dict[str, str]:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))


def start(port: LocalPort, n: int = 4, **extra: Any) -> None:
    port.do("new_game", players=NAMES8[:n], powers=extra.pop("powers", "none"),
            seed=extra.pop("seed", 1), **extra)


def choose_all(port: LocalPort, n: int = 4) -> None:
    for name in NAMES8[:n]:
        port.act(type="choose", player=name, card="click")


def referee_buttons(view: dict[str, Any]) -> list[str]:
    return [b["command"]["type"] for b in view["commands"] if "action" not in b["command"]]


def players(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in view["players"]}


def texts(value: Any) -> list[dict[str, Any]]:
    """Every text ({key, args}) and button label inside a view, nested ones included."""
    out = []
    if isinstance(value, dict):
        if isinstance(value.get("key"), str) and "args" in value:
            out.append(value)
        if isinstance(value.get("label"), str) and "command" in value:
            out.append({"key": value["label"], "args": value["args"]})
        for v in value.values():
            out += texts(v)
    elif isinstance(value, list):
        for v in value:
            out += texts(v)
    return out


# -- the countdown button ------------------------------------------------------------------


def test_the_countdown_is_offered_only_when_the_rules_have_one_and_the_stage_is_idle():
    port = LocalPort()
    start(port)
    assert "countdown" not in referee_buttons(port.control())  # the bullet choice
    choose_all(port)
    view = port.control()
    countdown = next(b for b in view["commands"] if b["command"] == {"type": "countdown"})
    assert countdown["label"] == "ref.countdown" and countdown["primary"] is True
    assert countdown["args"] == {"step": {"key": "step.holdup", "args": {}}}
    assert referee_buttons(view) == ["countdown", "pause", "undo"]
    port.do("pause")
    assert referee_buttons(port.control()) == ["resume", "undo"]
    port.do("resume")
    port.do("countdown")  # the stage is busy counting: no second countdown
    assert referee_buttons(port.control()) == ["pause", "undo"]


def test_the_countdown_is_offered_for_the_kid_alone():
    """Once only the Kid has still to aim, the hold-up has a countdown of its own (R25):
    the page used to refuse it."""
    port = LocalPort()
    start(port, powers={"Dee": "kid"})
    choose_all(port)
    for name, target in (("Ana", "Bob"), ("Bob", "Cyd"), ("Cyd", "Dee")):
        port.act(type="aim", player=name, target=target)
    view = port.control()
    assert view["waiting"]["players"] == ["Dee"] and view["waiting"]["key"] == "wait.holdup"
    assert "countdown" in referee_buttons(view)
    port.aim(4, 2)
    port.do("countdown")
    port.run_for(3000)
    assert players(port.control())["Dee"]["counted_aim"] == {"target": "Bob", "mark": None}


def test_the_buttons_agree_with_the_rules_and_every_label_exists_through_a_whole_game():
    """A bot game: at every step the countdown button is there iff the rules have a
    countdown (a living player still to aim at the hold-up or to decide at the courage step,
    told from the actions played) and nothing is being counted and the game is not paused;
    and every text names a catalog key."""
    seen: set[str] = set()
    keys = {lang: catalog(lang) for lang in LANGS}

    class Checked(LocalPort):
        def control(self) -> dict[str, Any]:
            view = super().control()
            table = self.table
            if table.game is not None:
                offered = "countdown" in referee_buttons(view)
                turn = StillToAct()
                for action in table.game.actions:
                    turn.played(action)
                expected = (bool(turn.left(table.game.state))
                            and view["stage"]["name"] == "idle" and not view["paused"])
                assert offered == expected
                legal = [b["command"]["action"] for b in view["commands"]
                         if "action" in b["command"]]
                assert legal == view["legal"]
            for item in texts(view):
                seen.add(item["key"])
                forms = [item["key"]] if "count" not in item else [
                    f"{item['key']}.one", f"{item['key']}.other"]
                for lang in LANGS:
                    assert all(form in keys[lang] for form in forms), (lang, item)
            return view

    port = Checked()
    bot = TableBot(port, random.Random(3))
    bot.new_game(NAMES8[:5], powers="random", seed=3)
    final = bot.play()
    assert final["over"] is True and final["result"]["tiebreak"]["key"].startswith("final.")
    assert {"ref.countdown", "ref.undo", "wait.choose", "wait.holdup"} <= seen


# -- what every view carries ---------------------------------------------------------------


def test_wound_limits_rounds_and_waiting():
    port = LocalPort()
    start(port, powers={"Ana": "unbreakable", "Bob": "hustler"})
    view = port.table.public_state()
    assert {n: p["wound_limit"] for n, p in players(view).items()} == {
        "Ana": 5, "Bob": 3, "Cyd": 3, "Dee": 3}
    assert view["rounds"] == ROUNDS and view["round"] == 1 and view["over"] is False
    assert view["waiting"] == {"key": "wait.hustle", "players": ["Bob"],
                               "args": {"names": ["Bob"]}, "lay_down": None, "stand_up": None}
    assert "Bob" in view["waiting_for"]  # the words of the documented API are kept
    port.act(type="hustle", player="Bob", victim=None)
    view = port.table.public_state()
    assert view["waiting"]["key"] == "wait.choose" and view["waiting"]["count"] == 4
    assert view["waiting"]["players"] == ["Ana", "Bob", "Cyd", "Dee"]


def test_no_game_yet():
    port = LocalPort()
    view = port.control()
    assert view["commands"] == [] and view["deal"] is None and view["waiting"] is None
    assert view["rounds"] == ROUNDS


def test_the_deal_form_comes_from_the_rules_constants():
    port = LocalPort()
    start(port, loot="physical")
    view = port.control()
    assert view["deal"] == {"player": "Ana", "cards": list(LOOT_KIND), "min": 1,
                            "max": PILE_SIZE}
    assert view["waiting"]["key"] == "wait.deal"
    port.act(type="deal", player="Ana", loot=["bill5000", "painting"])
    assert port.control()["deal"] is None


def test_a_phone_has_its_own_buttons_in_the_same_shape():
    port = LocalPort()
    start(port)
    me = port.table.seat_state(2)["me"]
    assert me["commands"] == [
        {"command": {"type": "action", "action": a}, "label": f"phone.play_{a['card']}",
         "args": {}, "primary": False, "group": "card"} for a in me["legal"]]
    assert me["turn"] == "turn.choose"
    assert {a["player"] for a in me["legal"]} == {"Bob"}
    control = port.control()
    assert control["commands"][0]["command"] == {"type": "pause"}  # no hand is told


def test_action_labels():
    label = labels.action_label
    assert label({"type": "choose", "player": "Ana"}) == (
        "action.choose_hidden", {"player": "Ana"})
    assert label({"type": "aim", "player": "Ana", "target": None}) == (
        "action.aim_nobody", {"player": "Ana"})
    assert label({"type": "take", "player": "Ana", "loot": ["bill5000", "clip"]}) == (
        "action.take", {"player": "Ana", "loot": [{"key": "loot.bill5000", "args": {}},
                                                  {"key": "loot.clip", "args": {}}]})
    assert label({"type": "hustle", "player": "Ana", "victim": "Bob", "give": "bang"}) == (
        "action.hustle_give", {"player": "Ana", "victim": "Bob",
                               "give": {"key": "card.bang", "args": {}}})


def test_a_phones_labels_speak_to_its_owner():
    def said(a: dict[str, Any]) -> tuple[str, dict[str, Any], str]:
        b = phone.phone_button(a, frozenset())
        return b["label"], b["args"], b["group"]

    assert said({"type": "take", "player": "Ana", "loot": "bill5000"}) == (
        "mine.take", {"loot": [{"key": "loot.bill5000", "args": {}}]}, "split")
    assert said({"type": "hustle", "player": "Ana", "victim": "Bob"}) == (
        "mine.hustle", {"victim": "Bob"}, "power")
    assert said({"type": "privilege", "player": "Ana", "order": "Bob"}) == (
        "action.privilege", {"player": "Ana", "order": "Bob"}, "godfather")
    assert not phone.mine({"type": "aim", "player": "Ana", "target": None})  # too slow
    assert phone.mine({"type": "aim", "player": "Ana", "target": "Bob"})


# -- counted aims, apart from the live readings --------------------------------------------


def test_the_counted_aim_stays_when_the_gun_is_lowered():
    port = LocalPort()
    start(port)
    choose_all(port)
    for seat, target in ((1, 2), (2, 3), (3, 1)):  # Dee never raises her gun: too slow
        port.aim(seat, target)
    view = port.table.public_state()
    assert players(view)["Ana"]["counted_aim"] is None  # not counted before the countdown
    assert players(view)["Ana"]["sensors"]["aim"] == 2
    port.do("countdown")
    port.run_for(3000)
    port.aim(1, None)  # Ana lowers her gun after the count
    p = players(port.table.public_state())
    assert p["Ana"]["sensors"]["aim"] is None and p["Ana"]["sensors"]["raised"] is False
    assert p["Ana"]["counted_aim"] == {"target": "Bob", "mark": None}
    assert p["Dee"]["counted_aim"] == {"target": None, "mark": "too_slow"}


def test_an_ambiguous_aim_is_marked_until_the_godfather_decides():
    port = LocalPort()
    start(port)
    choose_all(port)
    for seat, target in ((1, 2), (2, 3), (3, 4)):
        port.aim(seat, target)
    port.fact("raised", 4, True)
    port.fact("aim", 4, (2, 3))
    port.do("countdown")
    port.run_for(3000)
    dee = players(port.table.public_state())["Dee"]
    assert dee["counted_aim"] == {"target": None, "mark": "ambiguous", "seen": ["Bob", "Cyd"]}
    port.do("action", action={"type": "aim", "player": "Dee", "target": "Cyd"}, override=True)
    dee = players(port.table.public_state())["Dee"]
    assert dee["counted_aim"] == {"target": "Cyd", "mark": None}
    assert dee["overridden"] == ["aim"] and "override" in [m["kind"] for m in dee["marks"]]


# -- why these winners ---------------------------------------------------------------------


def ended(alive: dict[str, bool], loot: dict[str, list[str]], wounds: dict[str, int]):
    s = new_game(Setup(players=("Ana", "Bob", "Cyd", "Dee"), seed=1))
    for p in s.players:
        p.alive, p.loot, p.wounds = alive.get(p.name, True), loot.get(p.name, []), \
            wounds.get(p.name, 0)
    finish(s)
    return s


@pytest.mark.parametrize("alive,loot,wounds,key,args", [
    ({"Ana": False, "Bob": False, "Cyd": False, "Dee": False}, {}, {}, "final.nobody", {}),
    ({"Ana": False, "Bob": False, "Cyd": False}, {}, {}, "final.last_standing", {}),
    ({}, {"Bob": ["bill20000"]}, {}, "final.richest", {}),
    ({}, {"Bob": ["bill20000"], "Cyd": ["bill20000"]}, {"Cyd": 2, "Bob": 1},
     "final.tie_wounds", {"total": {"money": 20000}, "winner": "Cyd"}),
    ({}, {"Bob": ["bill20000"], "Cyd": ["bill20000"]}, {"Cyd": 1, "Bob": 1},
     "final.tie_shared", {"total": {"money": 20000}}),
])
def test_the_tiebreak_explains_the_winners(alive, loot, wounds, key, args):
    s = ended(alive, loot, wounds)
    assert ending.tiebreak(s) == {"key": key, "args": args}


def test_the_result_is_in_the_public_view_once_over():
    s = ended({}, {"Bob": ["bill20000"], "Cyd": ["bill20000"]}, {"Cyd": 1, "Bob": 1})
    assert ending.winners_text(s) == {"key": "final.winners", "args": {"names": ["Bob", "Cyd"]}}
    port = LocalPort()
    start(port)
    assert port.table.public_state()["result"] is None
    snap = port.table.view()
    game = snap.game
    assert game is not None
    game.state = s  # (a finished game, as the view reads it)
    view = views.public(snap)
    assert view["over"] is True and view["waiting"]["key"] == "wait.over"
    assert view["result"]["tiebreak"]["key"] == "final.tie_shared"
    assert views.control(snap)["commands"] == []


def test_the_end_chart_has_one_point_per_round_played():
    import random

    from local_table import LocalPort as Port

    from companion.bots.table_bot import TableBot

    for seed in (5, 6, 7):
        port = Port()
        bot = TableBot(port, random.Random(seed))
        bot.new_game(["Ana", "Bob", "Cyd", "Dee"], powers="random", seed=seed)
        final = bot.play()
        wealth = final["history"]["wealth"]
        assert len(wealth) == final["round"], seed  # round 1's end included
        totals = {p["name"]: p["score"]["total"] for p in final["final"]}
        assert wealth[-1] == totals  # the last point is the final count
