"""Who may do what at the table: the Godfather's PIN, and each seat's phone.

A seat's link (its QR code on the Godfather's Phones tab) names the table, the game and
the seat. The first phone that opens it claims the seat and gets a claim of its own; from
then on the link alone gives nothing, and the PIN never opens a hand. A claim is its
player's at this table, not the game's: the next game with the same name reseats it where
the player now sits (no new scan), and a phone whose player sits out says so. Claims are
journaled (hashed) for every game, so a restart keeps them; a new game gives new links;
the Godfather may release a seat, and that phone is out for good.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from typing import Any, Literal

from companion.referee.commands import Auth, CommandError, Refusals
from companion.referee.equipment import Kit

PIN_DIGITS = 6  # a generated PIN: at 600 guesses an hour, 35 days on average (api.PinGuard)
HAND_FIELDS = ("card", "give", "discard")  # an action naming one of these tells a hand

# What a phone is to a seat: it holds it ("mine"), may claim it ("claim"), or is refused.
Phone = Literal["mine", "claim", "taken", "released", "earlier", "bad", "moved", "away"]
REFUSALS: dict[str, tuple[str, str]] = {
    "taken": ("conflict",
              "seat {seat} is held by another phone: ask the Godfather to release it"),
    "released": ("unauthorized",
                 "this phone no longer holds seat {seat}: open the seat's link again"),
    "earlier": ("forbidden",
                "this link is from an earlier game: ask the Godfather for the new link"),
    "bad": ("forbidden", "this link is not valid for seat {seat}"),
    "moved": ("forbidden", "{player} sits at seat {now} in this game: open /seat/{now}"),
    "away": ("forbidden", "{player} is not in this game: this phone comes back with them"),
}


def tells_a_hand(action: dict[str, Any]) -> bool:
    """A choice of a card from a hand (a reveal turns a card face up: that is public)."""
    return action.get("type") != "reveal" and any(
        action.get(f) is not None for f in HAND_FIELDS)


def who_taps(action: Any, seat_of: dict[str, int]) -> Auth:
    """Who taps an action at a real table: the player's phone for a card from their hand,
    the Godfather's tablet for the rest (the bots and the tests act as people would)."""
    if isinstance(action, dict) and tells_a_hand(action) and action.get("player") in seat_of:
        return Auth(seat=seat_of[action["player"]])
    return Auth(control=True)


def check_player(auth: Auth, player: str, action: dict[str, Any],
                 player_at: dict[int, str]) -> None:
    """The tablet plays for anyone, but never from a hand; a phone for its player only."""
    if auth.control:
        if tells_a_hand(action):
            raise CommandError("forbidden", f"only {player}'s phone plays from their hand")
    elif auth.seat is None or player_at.get(auth.seat) != player:
        raise CommandError("forbidden", f"this phone acts only for {player_at.get(auth.seat)}"
                           if auth.seat else "a player's action needs its seat's phone")


# The actions a seat's sensors give, each with the sensor that reads it: a seat whose gun's
# aims are read (the hub's IR) or whose standee is read speaks through them alone.
SENSED = {"aim": "gun", "courage": "standee"}


def sensed_by(kit: Kit, seat: int, kind: str) -> str | None:
    """The sensor ("gun", "standee") that gives this seat's `kind` of action, or None when
    the seat has no such sensor (a manual seat: its phone or the tablet enters it)."""
    part = SENSED.get(kind)
    readers = {"gun": kit.ir, "standee": kit.standee}
    return part if part is not None and seat in readers[part] else None


def check_sensed(auth: Auth, player: str, seat: int, kind: str, kit: Kit,
                 override: bool) -> None:
    """A sensored seat's aim or posture comes from its sensors; only the Godfather's marked
    override (the tablet, `override: true`) may enter it instead, and it is journaled so."""
    if override and not auth.control:
        raise CommandError("forbidden", "only the Godfather's tablet may override the sensors")
    part = sensed_by(kit, seat, kind)
    if part is None or override:
        return
    doing = "aims with the gun" if part == "gun" else "lies down or stays standing with " \
                                                      "the standee"
    raise CommandError("forbidden", f"{player} {doing} at the table: the {part}'s sensor "
                       "says it, not a tap (the Godfather may override it on the tablet)",
                       code="sensored", sensor=part)


def reseated(phones: dict[str, str], seat_of: dict[str, int]) -> dict[int, str]:
    """A new game's claims: each phone of the table held for its player, where they sit."""
    return {seat_of[name]: digest for name, digest in phones.items() if name in seat_of}


def table_phones(games: Iterable[tuple[dict[str, int], dict[int, str]]]) -> dict[str, str]:
    """Each player's phone from the journal's games (their seats and claims, oldest first):
    a player seated without a claim has none (released); one not seated keeps theirs."""
    phones: dict[str, str] = {}
    for seats, claims in games:
        for name, seat in seats.items():
            if int(seat) in claims:
                phones[name] = claims[int(seat)]
            else:
                phones.pop(name, None)
    return phones


def _sign(secret: bytes, *parts: object) -> str:
    return hmac.new(secret, ":".join(map(str, parts)).encode(), hashlib.sha256).hexdigest()


def link_token(secret: bytes, table: str, game: int, seat: int) -> str:
    """A seat's link for a game: the game, then a MAC of the table, the game and the seat
    under the journal's secret (a restart keeps the links, a new game changes them)."""
    return f"{game}.{_sign(secret, table, game, seat)[:20]}"


def _digest(claim: str) -> str:
    return hashlib.sha256(claim.encode()).hexdigest()


def _game_of(proof: str | None) -> int | None:
    """The game a link's token or a claim was made for (both start with it)."""
    head = (proof or "").split(".", 1)[0]
    return int(head) if head.isdigit() and len(head) < 10 else None


class Access:
    """The table PIN (given or generated), the seats' links and the phones' claims; the
    claims themselves are the referee's (state.State.claims), followed here (`follow`)."""

    def __init__(self, table: str, secret: bytes, pin: str | None) -> None:
        self.table = table
        self._secret = secret
        self.pin = pin or f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
        self.game = 0  # the game in play, as the referee last said
        self.seats: frozenset[int] = frozenset()
        self._claims: dict[int, str] = {}  # seat -> the digest of its phone's claim
        self._owners: dict[str, str] = {}  # a phone's digest -> its player (all games)
        self._player_at: dict[int, str] = {}
        self.refused = Refusals("a phone's claim")  # taken, earlier, bad

    def follow(self, game: int, player_at: dict[int, str], claims: dict[int, str],
               phones: dict[str, str]) -> None:
        """The game in play (new, or resumed after a restart): its seats and claims, and
        the table's phones by player."""
        self.game, self.seats, self._claims = game, frozenset(player_at), claims
        self._player_at = dict(player_at)
        self._owners = {digest: name for name, digest in phones.items()}

    def check_pin(self, pin: str) -> bool:
        return hmac.compare_digest(self.pin.encode(), (pin or "").encode())

    # -- links and claims ----------------------------------------------------------------

    def seat_token(self, seat: int, game: int | None = None) -> str:
        """The token of a seat's link, for this game (or another)."""
        return link_token(self._secret, self.table, self.game if game is None else game, seat)

    def session_key(self) -> str:
        """The dashboard's session key when none is configured: kept with the journal, so
        the Godfather's tablet stays logged in across a restart."""
        return _sign(self._secret, self.table, "session")

    def csrf(self, claim: str) -> str:
        """The token a phone page sends with each command: derived from its claim, so it
        outlives a restart as the claim does."""
        return _sign(self._secret, self.table, "csrf", claim)[:32]

    @property
    def claimed(self) -> frozenset[int]:
        return frozenset(self._claims)

    def holds(self, seat: int, claim: str | None) -> bool:
        """Whether `claim` is the claim of this seat's phone, in this game."""
        kept = self._claims.get(seat)
        return bool(claim) and kept is not None and hmac.compare_digest(kept, _digest(claim or ""))

    def placed(self, claim: str | None) -> tuple[str, int | None] | None:
        """Whose phone this claim is, and their seat in this game (None: they sit out);
        None for a claim no phone of this table holds (released, or never given)."""
        name = self._owners.get(_digest(claim)) if claim else None
        if name is None:
            return None
        seat = next((s for s, n in self._player_at.items() if n == name), None)
        return name, seat if seat is not None and self._claims.get(seat) == _digest(
            claim or "") else None

    def seat_held(self, claim: str | None) -> int | None:
        """The seat this claim's phone holds in this game, if any."""
        place = self.placed(claim)
        return place[1] if place else None

    def phone(self, seat: int, claim: str | None, token: str | None) -> Phone:
        """What a phone with this claim (its cookie) and this link's token is to the seat."""
        if self.holds(seat, claim):
            return "mine"
        if (place := self.placed(claim)) is not None and not token:
            return "away" if place[1] is None else "moved"
        if token:
            game = _game_of(token)
            if game is None or game > self.game or not hmac.compare_digest(
                    self.seat_token(seat, game), token):
                return "bad"
            if game < self.game:
                return "earlier"
            if seat not in self.seats:
                return "bad"
            return "taken" if seat in self._claims else "claim"
        game = _game_of(claim)
        if game is not None and game < self.game:
            return "earlier"
        return "released" if claim and game == self.game and seat in self.seats else "bad"

    def refusal(self, seat: int, phone: Phone, claim: str | None = None) -> CommandError:
        """Why not, in words; a phone that is its player's says whose, and where they sit."""
        kind, message = REFUSALS.get(phone, REFUSALS["bad"])
        player, now = self.placed(claim) or ("", None)
        extra = {"player": player, "seat": now} if phone in ("moved", "away") else {}
        return CommandError(kind, message.format(seat=seat, player=player, now=now),
                            phone=phone, **extra)

    def new_claim(self, seat: int, token: str) -> tuple[str, str]:
        """(a claim, its digest) for the first phone to open a seat's link; the referee
        then holds the seat for it (journaled, then given), or a refusal."""
        phone = self.phone(seat, None, token)
        if phone != "claim":
            self.refused.count(phone, f"seat {seat}")
            raise self.refusal(seat, phone)
        claim = f"{self.game}.{seat}.{secrets.token_urlsafe(24)}"
        return claim, _digest(claim)
