"""One schema for each shape the companion is handed: a game's setup, an action, a sensor fact.

Every entry point checks a shape here and nowhere else: a scenario file and the API's
`new_game` share the setup rules (player names, powers, variant, modes, seed), a scenario's
steps and the API's `action` command share the action rules, and the MQTT codec and the
tablet's override share the sensor-fact rules. Config sections are checked by
`companion.config.Node`, section by section, in each part's `settings.py`.

Where an error points depends on where the data came from, not on the rule: a YAML file
(`companion.yamlfile.YamlDoc`) names the file, the line and the key; JSON from the API
(`JsonDoc`) names the field path, e.g. `action.player: unknown player 'Zed'`.

Why no validation library: see docs/DESIGN-NOTES.md, "Validation".
"""

from __future__ import annotations

from companion.rules.actions import FIELDS, Action, action_from_dict
from companion.rules.cards import BULLETS, KINDS, LOOT_KIND, ROUNDS, TOKEN
from companion.rules.powers import POWERS
from companion.rules.setup import VARIANTS
from companion.yamlfile import FieldError, Path_, dotted

TYPE_CHECKING = False  # (typing is not imported to run: a replay starts faster without it)
if TYPE_CHECKING:
    from typing import Any, Protocol

    class Doc(Protocol):
        """Where checked data came from: it turns a path and a message into the right error."""

        def error(self, path: Path_, message: str) -> ValueError: ...

# -- the setup ------------------------------------------------------------------------------
MIN_PLAYERS, MAX_PLAYERS = 4, 8
MAX_NAME = 24  # a name fits a seat's label on the tablet and a phone's title
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1  # what the journal (SQLite) stores
CARD_MODES = ("digital", "physical")

# -- actions --------------------------------------------------------------------------------
# Card fields given with digital cards and left out with physical ones (hidden cards).
HIDDEN_CARD_FIELDS = {"choose": "card", "swap": "card", "smart": "discard", "hustle": "give"}

# -- sensor facts ---------------------------------------------------------------------------
MAX_SEAT = 8
MAX_T_MS = 2.0**53  # a time beyond this has lost its millisecond precision
FACT_KINDS = ("aim", "raised", "posture", "lock", "seen")


class JsonDoc:
    """Data from JSON (the API): errors name the field path below `root`."""

    def __init__(self, data: Any, root: str = "") -> None:
        self.data, self.root = data, root

    def error(self, path: Path_, message: str) -> FieldError:
        return FieldError(dotted(((self.root,) if self.root else ()) + tuple(path)), message)


class Checker:
    """The rules of the setup and of actions, reporting through one `Doc`.

    `names` are the players once known: actions and powers may only name them.
    """

    def __init__(self, doc: Doc, names: tuple[str, ...] = ()) -> None:
        self.doc = doc
        self.names = names

    def fail(self, path: Path_, message: str) -> ValueError:
        return self.doc.error(path, message)

    # -- building blocks ---------------------------------------------------------------------

    def mapping(self, value: Any, path: Path_, allowed: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, "must be a mapping")
        for key in value:
            if key not in allowed:
                raise self.fail((*path, key), f"unknown field (expected one of: "
                                f"{', '.join(allowed)})")
        return value

    def integer(self, value: Any, path: Path_, low: int, high: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(path, f"must be a whole number, not {value!r}")
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise self.fail(path, f"must be {bound}, not {value}")
        return value

    def flag(self, value: Any, path: Path_) -> bool:
        if not isinstance(value, bool):
            raise self.fail(path, "must be true or false")
        return value

    def one_of(self, value: Any, path: Path_, allowed: tuple[str, ...], what: str) -> str:
        if value not in allowed:
            raise self.fail(path, f"unknown {what} {value!r} (expected one of: "
                            f"{', '.join(allowed)})")
        return value  # one of `allowed`: a str

    def player(self, value: Any, path: Path_, nullable: bool = False) -> str | None:
        if value is None and nullable:
            return None
        return self.one_of(value, path, self.names, "player")

    def loot_ids(self, value: Any, path: Path_) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(path, "must be a list of loot ids")
        return tuple(self.one_of(v, (*path, i), tuple(LOOT_KIND), "loot id")
                     for i, v in enumerate(value))

    # -- the setup ---------------------------------------------------------------------------

    def name(self, value: Any, path: Path_) -> str:
        """A player's name: 1 to MAX_NAME characters, not only spaces."""
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
            raise self.fail(path, f"a player's name must be a word of 1 to {MAX_NAME} "
                            f"characters, not {value!r}")
        return value

    def players(self, value: Any, path: Path_, name_of: Any = None) -> tuple[str, ...]:
        """4 to 8 distinct names, clockwise from the Godfather's desk; `name_of(i, item)`
        gives the path of item i's name when items are more than names (the API's seats)."""
        if not isinstance(value, list) or not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
            raise self.fail(path, f"must list {MIN_PLAYERS} to {MAX_PLAYERS} player names")
        names: list[str] = []
        for i, item in enumerate(value):
            name, where = name_of(i, item) if name_of else (item, (*path, i))
            self.name(name, where)
            if name in names:
                raise self.fail(where, f"the name {name!r} is given twice")
            names.append(name)
        return tuple(names)

    def powers(self, value: Any, path: Path_ = ("powers",)) -> dict[str, str]:
        powers = self.mapping(value, path, self.names)
        dealt: dict[str, str] = {}
        for name, power in powers.items():
            where = (*path, name)
            self.one_of(power, where, POWERS, "power")
            if power in dealt.values():
                raise self.fail(where, f"the power {power!r} is dealt twice")
            dealt[name] = power
        return dealt

    def variant(self, value: Any, path: Path_ = ("variant",)) -> dict[str, str]:
        variant = self.mapping(value, path, tuple(VARIANTS))
        for key, v in variant.items():
            self.one_of(v, (*path, key), VARIANTS[key], f"value for {key}")
        return variant

    def seed(self, value: Any, path: Path_ = ("seed",)) -> int:
        return self.integer(value, path, SEED_MIN, SEED_MAX)

    def mode(self, value: Any, path: Path_, what: str) -> str:
        return self.one_of(value, path, CARD_MODES, what)

    # -- actions -----------------------------------------------------------------------------

    def action(self, value: Any, path: Path_, physical: bool) -> Action:
        if not isinstance(value, dict):
            raise self.fail(path, "an action must be a mapping with type and player")
        kind = self.one_of(value.get("type"), (*path, "type"), tuple(FIELDS), "action type")
        fields = FIELDS[kind]
        self.mapping(value, path, ("type", "player", *fields))
        if "player" not in value:
            raise self.fail(path, "the field 'player' is missing")
        self.player(value["player"], (*path, "player"))
        for name, required in fields.items():
            if required and name not in value:
                raise self.fail(path, f"a {kind} action needs the field {name!r}")
            if name in value:
                self.action_field(kind, name, value[name], (*path, name))
        hidden = HIDDEN_CARD_FIELDS.get(kind)
        if hidden and not (kind == "hustle" and value.get("victim") is None):
            if physical and hidden in value:
                raise self.fail((*path, hidden), "cards are physical: the companion does not "
                                "see this card, leave the field out")
            if not physical and hidden not in value:
                raise self.fail(path, f"a {kind} action needs the field {hidden!r}")
        return action_from_dict(value)

    def action_field(self, kind: str, name: str, v: Any, path: Path_) -> None:
        if kind == "deal":
            if not isinstance(v, list) or not 1 <= len(v) <= 8:
                raise self.fail(path, "the cards turned up: a list of 1 to 8 loot ids")
            self.loot_ids(v, path)
        elif name == "got":
            self.one_of(v, path, tuple(LOOT_KIND), "loot id")
        elif name in ("card", "give", "discard"):
            self.one_of(v, path, BULLETS, "bullet card")
        elif name in ("target", "victim", "order"):
            self.player(v, path, nullable=True)
        elif name == "down":
            self.flag(v, path)
        elif name == "keep" and v is not True:
            raise self.fail(path, "keep: true (the Smart keeps the card down), or left out")
        elif name == "kind":
            self.one_of(v, path, KINDS, "loot kind")
        elif name == "pile":
            self.integer(v, path, 1, ROUNDS)
        elif name == "loot":
            shares = (*LOOT_KIND, TOKEN)
            if isinstance(v, list):
                if len(v) != 2:
                    raise self.fail(path, "a double share lists exactly two loot ids")
                for i, x in enumerate(v):
                    self.one_of(x, (*path, i), shares, "loot id")
            elif v is not None:
                self.one_of(v, path, shares, "loot id")


def parse_action(data: Any, players: tuple[str, ...], physical: bool,
                 where: str = "action") -> Action:
    """One action given as a JSON mapping (the API, the journal), checked like a file's;
    a FieldError names the field path below `where`."""
    return Checker(JsonDoc(data, where), players).action(data, (), physical)


# -- sensor facts ---------------------------------------------------------------------------

def _is_seat(v: object) -> bool:
    return type(v) is int and 1 <= v <= MAX_SEAT


def seat_problem(kind: str, seat: object) -> str | None:
    """What is wrong with a fact's seat (0 for the hub's `seen`, else 1..8), or None."""
    ok = seat == 0 if kind == "seen" else _is_seat(seat)
    return None if ok else f"bad seat {seat!r}"


def time_problem(t: object) -> str | None:
    """What is wrong with a fact's time (finite milliseconds, 0 <= t < 2**53), or None."""
    if isinstance(t, bool) or not isinstance(t, float | int) or not 0 <= t < MAX_T_MS:
        return f"t (the time it happened, ms) {t!r:.40} is not a sane time"  # (NaN fails too)
    return None


def value_problem(kind: str, value: object) -> str | None:
    """What is wrong with a fact's value for its kind, or None (docs/MQTT.md):

    `aim`: None, a seat or a sorted tuple of 2+ distinct seats; `raised`: bool;
    `posture`: "up"/"down"; `lock`: 0/1/2; `seen`: 1 to 8 masks of 8 bits.
    """
    if kind == "aim":
        ok = value is None or _is_seat(value) or (
            isinstance(value, tuple) and len(value) >= 2 and all(map(_is_seat, value))
            and list(value) == sorted(set(value)))
    elif kind == "raised":
        ok = isinstance(value, bool)
    elif kind == "posture":
        ok = value in ("up", "down")
    elif kind == "lock":
        ok = type(value) is int and value in (0, 1, 2)
    elif kind == "seen":
        ok = isinstance(value, tuple) and 1 <= len(value) <= MAX_SEAT and all(
            type(m) is int and 0 <= m < 1 << MAX_SEAT for m in value)
    else:
        return f"unknown kind {kind!r}"
    return None if ok else f"bad value {value!r}"


def aims_at_itself(seat: int, value: object) -> bool:
    """A gun's aim that names its own seat: no rule lets a player hold themself up.

    The wire carries what a hub saw, so the codec lets such a fact through; the referee
    refuses it where a reading is taken: the tablet's override says no (a person typed it).
    """
    return value == seat or (isinstance(value, tuple) and seat in value)


def reading_problem(kind: str, seat: int, value: object) -> str | None:
    """What is wrong with a seat's reading set by hand (aim, raised, posture), or None."""
    if kind not in ("aim", "raised", "posture"):
        return f"unknown reading {kind!r}"
    if kind == "aim" and isinstance(value, tuple):
        return "an override is one seat or none"
    if kind == "aim" and aims_at_itself(seat, value):
        return f"seat {seat} cannot aim at itself"
    return value_problem(kind, value)
