"""What the table view's seats and arrows carry, step by step: nothing stale from an
earlier step, round or game; this round's cards, too slow and wounds on the seats."""

from __future__ import annotations

from typing import Any

from local_table import NAMES8, LocalPort

from companion.referee import views


def start(port: LocalPort, n: int = 4, **extra: Any) -> None:
    port.do("new_game", players=NAMES8[:n], powers=extra.pop("powers", "none"),
            seed=extra.pop("seed", 1), **extra)


def choose_all(port: LocalPort, cards: tuple[str, ...] = ("bang",) * 4) -> None:
    for name, card in zip(NAMES8, cards, strict=False):
        port.act(type="choose", player=name, card=card)


def seats(port: LocalPort) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in port.table.public_state()["players"]}


def arrows(port: LocalPort) -> set[tuple[int, int, str]]:
    return {(a["from"], a["to"], a["kind"]) for a in port.table.public_state()["arrows"]}


def marks(port: LocalPort, name: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [(m["kind"], m["key"], m["args"]) for m in seats(port)[name]["marks"]]


def standee(port: LocalPort, name: str) -> str:
    return seats(port)[name]["standee"]["kind"]


def holdup_round_table(port: LocalPort, cards: tuple[str, ...] = ("bang",) * 4) -> None:
    """Cards chosen, every gun on the next player, the hold-up counted."""
    choose_all(port, cards)
    port.round_the_table()


def test_arrows_are_live_in_the_hold_up_then_the_counted_aims_then_none():
    port = LocalPort()
    start(port)
    port.aim(1, 2)  # raised during the bullet choice: not an aim yet
    assert arrows(port) == set() and seats(port)["Ana"]["gun"] == "up"
    choose_all(port)
    assert arrows(port) == {(1, 2, "live")}
    port.fact("raised", 1, False)  # read aiming while down
    assert arrows(port) == {(1, 2, "lowered")}
    for seat, target in [(1, 2), (2, 3), (3, 4), (4, 1)]:
        port.aim(seat, target)
    port.do("countdown")
    port.run_for(3000)
    port.aim(1, 3)  # after "three" the gun moves: the counted aim stays, drawn as counted
    port.aim(2, None)
    assert arrows(port) == {(1, 2, "counted"), (2, 3, "counted"), (3, 4, "counted"),
                            (4, 1, "counted")}
    port.act(type="privilege", player="Ana", order="Cyd")
    port.aim(3, 1)  # the ordered gun is watched live; the others stay counted
    assert (3, 1, "live") in arrows(port) and (3, 4, "counted") not in arrows(port)


def test_after_the_cards_the_split_and_the_next_round_show_nothing_stale():
    port = LocalPort()
    start(port)
    holdup_round_table(port, cards=("bang", "click", "bang", "click"))
    port.act(type="privilege", player="Ana", order=None)
    port.posture(3, True)  # Cyd lies down
    port.do("countdown")
    port.run_for(3000)
    s = port.table.public_state()
    assert s["phase"] == "split" and s["arrows"] == []
    assert ("bang", "seat.bang_hit", {"target": "Bob"}) in marks(port, "Ana")
    assert marks(port, "Dee") == [("click", "seat.click", {"target": "Ana"})]
    assert marks(port, "Bob") == [("hit", "seat.shot_by", {"names": ["Ana"]})]  # Cyd lay down
    assert marks(port, "Cyd") == []  # lay down: the card was discarded
    assert standee(port, "Cyd") == "down"
    assert seats(port)["Cyd"]["standee"]["key"] == "standee.no_share"
    assert standee(port, "Bob") == "lie_down"  # wounded: asked to lie down
    port.posture(2, True)
    assert standee(port, "Bob") == "down"
    while port.table.game.state.phase == "split":  # take shares until the round ends
        port.act(**next(a for a in port.legal({}) if a["type"] == "take"))
    s = port.table.public_state()
    assert s["round"] == 2 and s["arrows"] == []
    assert all(p["marks"] == [] for p in s["players"])
    assert standee(port, "Cyd") == standee(port, "Bob") == "stand_up"  # still lying
    assert s["waiting"]["stand_up"] == {"key": "wait.stand_up", "args": {"names": ["Bob", "Cyd"]},
                                        "count": 2}
    port.posture(3, False)
    assert standee(port, "Cyd") == "up"
    port.do("new_game", players=NAMES8[:4], abandon=True)  # a new game: nothing of the last
    assert all(p["marks"] == [] for p in port.table.public_state()["players"])
    assert standee(port, "Bob") == "stand_up" and port.table.public_state()["replays"] == []


def test_too_slow_is_on_the_seat_and_the_godfather_orders_them_to_aim():
    port = LocalPort()
    start(port)
    choose_all(port, cards=("click",) * 4)
    for seat, target in [(1, 2), (2, 3), (3, 4)]:
        port.aim(seat, target)
    port.do("countdown")
    port.run_for(3000)
    assert marks(port, "Dee") == [("too_slow", "seat.too_slow", {})]
    orders = {b["command"]["action"]["order"]: b["label"] for b in port.control()["commands"]
              if b["command"].get("action", {}).get("type") == "privilege"
              and b["command"]["action"].get("order")}
    assert orders == {"Bob": "action.privilege", "Cyd": "action.privilege",
                      "Dee": "action.privilege_aim"}  # R5: the too slow may be ordered to aim


def test_the_card_down_shows_during_the_choice_only():
    port = LocalPort()
    start(port)
    port.act(type="choose", player="Ana", card="bang")
    assert marks(port, "Ana") == [("card_down", "seat.card_down", {})]
    assert marks(port, "Bob") == []


def test_the_log_keeps_whole_rounds():
    port = LocalPort()
    start(port)
    for _ in range(4):  # four quiet rounds
        choose_all(port, cards=("click",) * 4)
        port.do("countdown")
        port.run_for(3000)
        port.act(type="privilege", player=port.table.game.state.players[
            port.table.game.state.godfather].name, order=None)
        port.do("countdown")
        port.run_for(3000)
        while port.table.game.state.phase == "split":
            port.act(**next(a for a in port.legal({}) if a["type"] == "take"))
    events = port.table.public_state()["events"]
    assert {e["round"] for e in events} == {3, 4, 5}
    assert events[0]["type"] == "round" and events[0]["round"] == 3
    assert len(port.table.game.state.events) > len(events)
    assert views.LOG_ROUNDS == 3


def test_the_end_table_says_the_diamond_cards_that_decide_the_bonus():
    from companion.referee.ending import final
    from companion.rules import Setup, new_game
    from companion.rules.scoring import finish, scores

    s = new_game(Setup(players=("Ana", "Bob", "Cyd", "Dee"), seed=1))
    for p, loot in zip(s.players, (["diamond1000", "diamond1000"], ["diamond10000"], [], []),
                       strict=True):
        p.loot = loot
    finish(s)
    rows = {r["name"]: r for r in final(s, scores(s))["final"]}
    assert rows["Ana"]["diamond_cards"] == 2 and rows["Ana"]["bonus"] is True
    assert rows["Bob"]["diamond_cards"] == 1 and rows["Bob"]["bonus"] is False
    assert rows["Bob"]["score"]["diamonds"] > rows["Ana"]["score"]["diamonds"]
