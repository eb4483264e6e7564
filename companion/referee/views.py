"""What each audience may see of the table: spectators, the Godfather's tablet, one phone.

Everything goes through `public()`, which leaves out every secret: hands, face-down
cards, and the identity of cards taken in secret (the Hustler's draw, the Junk Dealer's
draw, the Professional's and the Vulture's theft are counted, not named). Loot is shown
as counts until the game is over, as the rules suggest.

The server computes, the pages draw: each view carries what its page shows, ready made
(the buttons allowed now, wound limits, rounds, what the table waits for, why these
winners, the aims the rules counted), so no script holds a rule. Words travel as *texts*,
`{"key": catalog key, "args": {...}}`, which the page renders in its language: an arg is a
plain value, a list (joined with "and"), a text, or `{"money": n}`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, cast

from companion.referee import board, ending
from companion.referee.access import SENSED, sensed_by, tells_a_hand
from companion.referee.amend import OVERRIDE
from companion.referee.equipment import Kit
from companion.referee.game import Game
from companion.referee.labels import action_button, aiming_at_nobody, button
from companion.referee.phone import my_turn, phone_buttons
from companion.referee.stage import Stage, countdown_allowed
from companion.referee.view_model import (
    ControlView,
    CountedAim,
    DealForm,
    Hand,
    PlayerView,
    PublicView,
    SeatPrivate,
    SeatView,
    WaitingView,
)
from companion.rules import GameState, legal_actions, phase_of, waiting
from companion.rules.cards import LOOT_KIND, PILE_SIZE, ROUNDS
from companion.rules.events import EVENTS, Event, RoundBegun
from companion.rules.phases import NOBODY, reads_postures
from companion.rules.phases import describe as rules_words
from companion.rules.powers import wound_limit
from companion.rules.scoring import scores
from companion.story import describe

SECRET_FIELDS = {kind: cls.secret for kind, cls in EVENTS.items() if cls.secret}
LOG_ROUNDS = 3  # the log shows this many rounds, each whole


def public_event(event: Event) -> dict[str, Any]:
    e = event.to_dict()
    out = {k: v for k, v in e.items() if k not in SECRET_FIELDS.get(e["type"], ())}
    for key in SECRET_FIELDS.get(e["type"], ()):
        out[f"{key}_count"] = len(e[key]) if isinstance(e[key], list) else 1
    if e["type"] == "professional":
        out["text"] = f"{e['player']} robbed {e['target']}."
    elif e["type"] == "vulture":
        out["text"] = f"{e['player']} took {len(e['loot'])} cards from {e['prey']}."
    elif e["type"] == "junk":
        out["text"] = f"{e['player']} swapped a card with a later pile."
    else:
        out["text"] = describe(event)
    return out


@dataclass(frozen=True)
class Snapshot:
    """The table at one instant, as the views need it: taken under the table's lock, read
    without it. A game's state is never changed once shown (an action makes a new one)."""

    table: str
    version: int
    revision: int
    paused: bool
    stage: Stage
    now_ms: float
    game: Game | None
    sensors: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat 1..8 -> readings now
    looks: tuple[int, ...] = ()  # the seats the hub's looks cover (its IR reads their aims)
    lay_down: frozenset[str] = frozenset()
    ambiguous: dict[str, list[int]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)  # default player names by seat
    claimed: frozenset[int] = frozenset()  # the seats a phone holds
    stand_ins: dict[int, str] = field(default_factory=dict)  # seat -> a bot's style (the demo)
    links: list[dict[str, Any]] = field(default_factory=list)  # links down now
    voided: str | None = None  # why the last countdown was called off
    voided_text: dict[str, Any] | None = None  # the same, as a text (labels.voided)
    journal_error: str | None = None  # the journal cannot be written: play is paused
    replays: tuple[dict[str, Any], ...] = ()  # this round's countdowns, as read (replay.py)
    kit: Kit = field(default_factory=Kit)  # the seats whose sensors speak for them (aims, postures)

    @cached_property
    def legal(self) -> list[Any]:
        """The rules' legal actions at this instant, listed once for all the phones' views."""
        return legal_actions(self.game.state) if self.game else []


Text = board.Text  # {"key": a catalog key, "args": {...}} (see the module's doc)
text = board.text


def public(t: Snapshot) -> PublicView:
    base: PublicView = {
        "version": t.version, "revision": t.revision, "table": t.table, "paused": t.paused,
        "stage": t.stage.public(), "game": None, "players": [], "now_ms": t.now_ms,
        "rounds": ROUNDS, "waiting": None, "over": False,
        "links": t.links, "voided": t.voided, "voided_text": t.voided_text,
        "journal_error": t.journal_error,
        "arrows": [], "replays": [],
    }
    game = t.game
    if game is None:
        return base
    s = game.state
    over = s.over
    totals = scores(s)
    players: list[PlayerView] = []
    this_round = board.round_events(s)
    for p in s.players:
        seat = game.seat_of[p.name]
        ambiguous = [game.player_at[s_] for s_ in t.ambiguous.get(p.name, ())]
        players.append({
            "name": p.name, "seat": seat, "power": p.power, "alive": p.alive,
            "wounds": p.wounds, "wound_limit": wound_limit(p.power),
            "hand_size": None if s.physical else p.hand_size,
            "chosen": p.card is not None, "aimed": p.aimed,
            "target": s.players[p.target].name if p.target is not None else None,
            "counted_aim": counted_aim(t, game, p.name),
            "down": p.down, "in_split": p.in_split, "loot_count": len(p.loot),
            "lay_down": p.name in t.lay_down,
            "ambiguous": ambiguous,
            "sensors": t.sensors[seat],
            "gun": "up" if t.sensors[seat]["raised"] else "down",
            "standee": board.standee(s, p, t.sensors[seat]["posture"] == "down",
                                     p.name in t.lay_down) if p.alive else None,
            "marks": (board.marks(game, p, ambiguous, this_round)
                      + override_mark(overridden(game, p, t.sensors[seat]))) if p.alive else [],
            "sensored": {part: sensed_by(t.kit, seat, kind) is not None
                         for kind, part in SENSED.items()},
            "overridden": overridden(game, p, t.sensors[seat]),
            "bot": None if seat in t.claimed else t.stand_ins.get(seat),  # who plays it
        })
    base.update({
        "game": game.id,
        "modes": {"cards": game.setup.get("cards", "digital"),
                  "loot": game.setup.get("loot", "digital")},
        "round": s.round, "phase": s.phase, "godfather": s.players[s.godfather].name,
        "over": over,
        "waiting_for": rules_words(s),
        "waiting": waiting_text(t, s, over, [p["name"] for p in players if p["standee"]
                                             and p["standee"]["kind"] == "stand_up"]),
        "players": players,
        "table": {"loot": s.table[:], "godfather_token": s.token},
        "split": {"turn": s.players[s.turn].name if s.turn is not None else None,
                  "forbidden": s.forbidden},
        "events": [public_event(e) for e in log_events(s)],
        "arrows": [] if over else board.arrows(game, {
            seat: (r["aim"], r["raised"]) for seat, r in t.sensors.items()}),
        "replays": list(t.replays),
        "winners": s.winners[:],
        "final": None,
        "result": None,
    })
    if over:
        end = ending.final(s, totals)
        base["final"], base["result"] = end["final"], end["result"]
        base["history"] = game.history
    return base


def log_events(s: GameState) -> list[Event]:
    """The events of the last `LOG_ROUNDS` rounds, each round whole, oldest first."""
    starts = [i for i, e in enumerate(s.events) if isinstance(e, RoundBegun)]
    return s.events[starts[-LOG_ROUNDS] if len(starts) >= LOG_ROUNDS else 0:]


# The catalog field each "waiting for" text names its players by, when not {names}.
WAIT_FIELD = {"split": "player", "privilege": "godfather"}
PLURAL_WAITS = ("choose", "holdup", "courage")  # duties of several players: `count` is said


def waiting_text(t: Snapshot, s: GameState, over: bool, stand_up: list[str]) -> WaitingView:
    """What the table waits for, for the banner: the rules' `waiting` (a duty or an open
    window, and who; `count` picks the plural), the wounded asked to lie their standee
    down, and `stand_up`, the players whose standee lies where it no longer counts (their
    seats say so: `board.standee`), asked back up."""
    wait = waiting(s)
    players = list(wait.players)
    lay_down = [] if over else [p.name for p in s.players if p.alive and p.name in t.lay_down]
    args = {WAIT_FIELD.get(wait.key, "names"): players}
    lay = text("wait.lay_down", count=len(lay_down), names=lay_down) if lay_down else None
    stand = text("wait.stand_up", count=len(stand_up), names=stand_up) if stand_up else None
    if wait.key in PLURAL_WAITS:  # (`count` after `players`: the keys in the pages' order)
        return {"key": f"wait.{wait.key}", "players": players, "count": len(players),
                "args": args, "lay_down": lay, "stand_up": stand}
    return {"key": f"wait.{wait.key}", "players": players, "args": args, "lay_down": lay,
            "stand_up": stand}


def overridden(game: Game, p: Any, sensors: dict[str, Any]) -> list[str]:
    """What the Godfather entered for this player instead of the sensors: this round's
    counted aim or posture (journaled with the source `override`), and every reading
    replaced now (`aim`, `raised`, `posture`)."""
    out = []
    for kind, counted in (("aim", p.aimed), ("courage", p.down is not None)):
        last = next((src for a, src in zip(reversed(game.actions), reversed(game.sources),
                                            strict=True)
                     if a.type == kind and a.player == p.name), None)
        if counted and last == OVERRIDE:
            out.append(kind)
    return out + [f for f in sensors["manual"] if f not in out]


def override_mark(facts: list[str]) -> list[Text]:
    return [text("seat.override") | {"kind": "override"}] if facts else []


def counted_aim(t: Snapshot, game: Game, name: str) -> CountedAim | None:
    """The aim the rules counted this round, apart from what the gun reads now: None
    until counted; `mark` is "too_slow" (counted, at nobody) or "ambiguous" (the gun saw
    several players: the Godfather decides, `seen` names them)."""
    s = game.state
    p = s.players[s.index[name]]
    if not p.alive:
        return None
    if name in t.ambiguous and not p.aimed:
        return {"target": None, "mark": "ambiguous",
                "seen": [game.player_at[seat] for seat in t.ambiguous[name]]}
    if not p.aimed:
        return None
    target = s.players[p.target].name if p.target is not None else None
    return {"target": target, "mark": None if target else "too_slow"}


def control(t: Snapshot) -> ControlView:
    out = cast(ControlView, public(t))  # (its keys follow, in this order)
    game = t.game
    out["default_names"] = {str(seat): name for seat, name in sorted(t.names.items())}
    # The Godfather is a player too: no button may tell what another player holds.
    legal = [] if game is None else [
        a.to_dict() for a in legal_actions(game.state) if not tells_a_hand(a.to_dict())]
    out["legal"] = legal
    aimless = aiming_at_nobody(game.state) if game else frozenset()
    out["commands"] = referee_commands(t) + [
        overriding(action_button(a, aimless=aimless), t.kit, game) for a in legal]
    out["deal"] = deal_form(game.state) if game else None
    out["replays"] = [r | {"rows": [row | {"recount": recounts(r, row, game)}
                                    for row in r["rows"]]}
                      if game is not None and recountable(t, r) else r for r in t.replays]
    out["seats"] = [] if game is None else [  # a link is in its seat's QR code only
        {"seat": seat, "player": name, "claimed": seat in t.claimed}
        for seat, name in sorted(game.player_at.items())
    ]
    return out


def overriding(b: dict[str, Any], kit: Kit, game: Game | None) -> dict[str, Any]:
    """A tablet button for what a seat's sensors say (an aim, a posture): the Godfather's
    override, sent and shown as such; any other button as it is."""
    a = b["command"]["action"]
    if game is None or sensed_by(kit, game.seat_of[a["player"]], a["type"]) is None:
        return b
    return b | {"command": b["command"] | {"override": True}, "override": True}


def referee_commands(t: Snapshot) -> list[dict[str, Any]]:
    """The Godfather's own commands allowed now: the countdown, pause or resume, undo."""
    game = t.game
    if game is None or phase_of(game.state).acts == NOBODY:
        return []
    out = []
    step = countdown_allowed(game.state, t.stage, t.paused)
    if step is not None:
        out.append(button({"type": "countdown"}, "ref.countdown", primary=True,
                          step=text(f"step.{step}")))
    out.append(button({"type": "resume"}, "ref.resume") if t.paused
               else button({"type": "pause"}, "ref.pause"))
    out.append(button({"type": "undo"}, "ref.undo"))
    return out


def recountable(t: Snapshot, replay: dict[str, Any]) -> bool:
    """A countdown of this round, settled, in a game still on: the Godfather may recount."""
    s = t.game.state if t.game else None
    return s is not None and replay["round"] == s.round and not s.over \
        and t.stage.name not in ("countdown", "kid")


def recounts(replay: dict[str, Any], row: dict[str, Any], game: Game) -> list[dict[str, Any]]:
    """The counts the Godfather may put instead of what the sensors gave (amend.recount)."""
    cmd = {"type": "recount", "replay": replay["id"], "player": row["player"]}
    if reads_postures(replay["step"]):
        down = not row["counted"]["down"]
        return [button(cmd | {"down": down}, "recount.down" if down else "recount.up")]
    now = row["counted"].get("target")
    out = [button(cmd | {"target": p.name}, "recount.aim", target=p.name)
           for p in game.state.living() if p.name not in (row["player"], now)]
    if now is not None or "unclear" in row["counted"]:
        out.append(button(cmd | {"target": None}, "recount.too_slow"))
    return out


def deal_form(s: GameState) -> DealForm | None:
    """Physical loot: the cards the Godfather may enter as turned up, and how many."""
    if waiting(s).key != "deal":
        return None
    return {"player": s.players[s.godfather].name, "cards": list(LOOT_KIND),
            "min": 1, "max": PILE_SIZE}


def seat(t: Snapshot, seat_no: int) -> SeatView:
    """A phone's view: the public view plus `me`, its last key (the event streams splice
    `me` onto the public view's bytes instead of building the public part again)."""
    return {**public(t), "me": seat_private(t, seat_no)}


def seat_private(t: Snapshot, seat_no: int) -> SeatPrivate | None:
    """What only the phone of `seat_no` sees: its player's hand, loot, power and buttons."""
    game = t.game
    if game is None or seat_no not in game.player_at:
        return None
    name = game.player_at[seat_no]
    p = game.state.players[game.state.index[name]]
    hand: Hand | None = None if game.state.physical else {"bang": p.bang, "click": p.click}
    sensed = frozenset(k for k in SENSED if sensed_by(t.kit, seat_no, k))
    legal = [a.to_dict() for a in t.legal if a.player == name]  # the rules' (the bots read it)
    me: SeatPrivate = {
        "seat": seat_no, "player": name, "power": p.power, "hand": hand,
        "card": p.card if not game.state.physical else None, "loot": p.loot[:],
        "legal": legal, "turn": my_turn(game.state, name),
        "commands": phone_buttons(game.state, [a for a in legal if a["type"] not in sensed]),
        "sensors": my_sensors(t, game, seat_no, sensed) if p.alive else {},
        "overridden": overridden(game, p, t.sensors[seat_no]) if p.alive else [],
        "stand_in": t.stand_ins.get(seat_no),  # the bot this phone may hand the seat back to
    }
    return me


def my_sensors(t: Snapshot, game: Game, seat_no: int,
               sensed: frozenset[str]) -> dict[str, Text]:
    """What this seat's own gun and standee read now, as its player reads it: "held on
    Jonas", "raised, on no single player", "lowered"; "standing", "lying down"."""
    now, out = t.sensors[seat_no], {}
    if "aim" in sensed:
        aim, name = now["aim"], game.player_at[seat_no]
        if seat_no in t.kit.tilt and not now["raised"]:
            out["gun"] = text("phone.gun_lowered")
        elif name in t.ambiguous or aim not in game.player_at or aim == seat_no:
            out["gun"] = text("phone.gun_ambiguous")
        else:
            out["gun"] = text("phone.gun_held", target=game.player_at[aim])
    if "courage" in sensed:
        out["standee"] = text("phone.standee_down" if now["posture"] == "down"
                              else "phone.standee_up")
    return out


def compact_json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def splice(public: bytes, me: Any) -> bytes:
    """A phone's view from the public view's bytes: `seat` is the public view with `me` as
    its last key, so this is the same JSON without building the public part again."""
    return public[:-1] + b',"me":' + compact_json(me) + b"}"


class TableFrame:
    """The table after one change, as the live streams send it: each audience's view as
    JSON, a phone's spliced from the public view's bytes (dashboard/streams.py)."""

    def __init__(self, t: Snapshot) -> None:
        self.t, self.version, self.revision = t, t.version, t.revision
        self._public: bytes | None = None

    def public_json(self) -> bytes:
        """The public view's bytes, built once: what the journal digests and pages get."""
        if self._public is None:
            self._public = compact_json(public(self.t))
        return self._public

    def body(self, view: str | tuple[str, int], public_body: Callable[[], bytes]) -> bytes:
        if isinstance(view, tuple):
            return splice(public_body(), seat_private(self.t, view[1]))
        return compact_json(control(self.t)) if view == "control" else self.public_json()
