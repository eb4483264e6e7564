"""The views' shapes, as the pages read them: every key a view sends, with its type, so
`mypy --strict` checks each view against its shape (views.py builds them).

The JSON is the dicts as built, in their order of keys: a shape adds no key and changes
no byte. Pieces made elsewhere keep their own shape: a text or button (`Json`: board.text,
labels.button), an event (`Event.to_dict`), a countdown's replay (replay.record), a seat's
readings (readings.seat_now).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

Json = dict[str, Any]  # a piece built by its own module (see above), sent as it is


class StageView(TypedDict):
    name: str
    step: NotRequired[str | None]
    beat: NotRequired[int]
    beats_ms: NotRequired[list[float]]
    cutoff_ms: NotRequired[float]
    decide_ms: NotRequired[float]


class WaitingView(TypedDict):
    key: str
    players: list[str]
    count: NotRequired[int]
    args: dict[str, list[str]]
    lay_down: Json | None
    stand_up: Json | None


class CountedAim(TypedDict):
    target: str | None
    mark: Literal["ambiguous", "too_slow"] | None
    seen: NotRequired[list[str]]


class PlayerView(TypedDict):
    name: str
    seat: int
    power: str | None
    alive: bool
    wounds: int
    wound_limit: int
    hand_size: int | None
    chosen: bool
    aimed: bool
    target: str | None
    counted_aim: CountedAim | None
    down: bool | None
    in_split: bool
    loot_count: int
    lay_down: bool
    ambiguous: list[str]
    sensors: Json
    gun: Literal["up", "down"]
    standee: Json | None
    marks: list[Json]
    sensored: dict[str, bool]
    overridden: list[str]
    bot: str | None


class Modes(TypedDict):
    cards: str
    loot: str


class TableLoot(TypedDict):
    loot: list[str]
    godfather_token: bool


class SplitView(TypedDict):
    turn: str | None
    forbidden: str | None


Arrow = TypedDict("Arrow", {"from": int, "to": int, "kind": Literal["live", "lowered",
                                                                      "counted"]})


class FinalRow(TypedDict):
    name: str
    alive: bool
    wounds: int
    loot: list[str]
    score: dict[str, int]
    diamond_cards: int
    bonus: bool
    rank: int  # 1 for the winners, then the living by total, then the dead


class Result(TypedDict):
    winners: Json
    tiebreak: Json


class Ending(TypedDict):
    final: list[FinalRow]
    result: Result


class PublicView(TypedDict):
    """What spectators see: no secret (views.public). The keys after `replays` come with a
    game; `history` once it is over."""

    version: int
    revision: int
    table: str | TableLoot  # the table's name; with a game, what lies on it
    paused: bool
    stage: StageView
    game: int | None
    players: list[PlayerView]
    now_ms: float
    rounds: int
    waiting: WaitingView | None
    over: bool
    links: list[Json]
    voided: str | None
    voided_text: Json | None  # the same, as a text (labels.voided)
    journal_error: str | None
    arrows: list[Arrow]
    replays: list[Json]
    modes: NotRequired[Modes]
    round: NotRequired[int]
    phase: NotRequired[str]
    godfather: NotRequired[str]
    waiting_for: NotRequired[str]
    split: NotRequired[SplitView]
    events: NotRequired[list[Json]]
    winners: NotRequired[list[str]]
    final: NotRequired[list[FinalRow] | None]
    result: NotRequired[Result | None]
    history: NotRequired[Json | None]


class SeatLink(TypedDict):
    seat: int
    player: str
    claimed: bool


class DealForm(TypedDict):
    player: str
    cards: list[str]
    min: int
    max: int


class ControlView(PublicView):
    """The Godfather's tablet: the public view and the table's commands."""

    default_names: dict[str, str]
    legal: list[Json]
    commands: list[Json]
    deal: DealForm | None
    seats: list[SeatLink]


class Hand(TypedDict):
    bang: int
    click: int


class SeatPrivate(TypedDict):
    """What only one seat's phone sees (views.seat_private)."""

    seat: int
    player: str
    power: str | None
    hand: Hand | None
    card: str | None
    loot: list[str]
    legal: list[Json]
    turn: str | None
    commands: list[Json]
    sensors: dict[str, Json]
    overridden: list[str]
    stand_in: str | None


class SeatView(PublicView):
    """A phone's view: the public view with `me` as its last key."""

    me: SeatPrivate | None


def as_json(view: Mapping[str, object]) -> dict[str, Any]:
    """A view as the plain JSON object it is, for callers that read it as such."""
    return cast(dict[str, Any], view)
