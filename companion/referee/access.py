"""Who may do what at the table: the Godfather's PIN and each seat's phone link."""

from __future__ import annotations

import hashlib
import hmac
import secrets

PIN_DIGITS = 6  # a generated PIN: with 10 guesses a minute, months to find (api.PinGuard)


class Access:
    """The table PIN (given or generated) and seat tokens derived from a kept secret.

    A seat's token names the table, the game and the seat, so a new game gives new links
    and a restart (same secret, same game) keeps the old ones working.
    """

    def __init__(self, table: str, secret: bytes, pin: str | None) -> None:
        self.table, self._secret = table, secret
        self.pin = pin or f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
        self.game = 0  # the game in play, set by the table

    def seat_token(self, seat: int) -> str:
        msg = f"{self.table}:{self.game}:{seat}".encode()
        return hmac.new(self._secret, msg, hashlib.sha256).hexdigest()[:20]

    def check_seat_token(self, seat: int, token: str) -> bool:
        return hmac.compare_digest(self.seat_token(seat), token or "")

    def check_pin(self, pin: str) -> bool:
        return hmac.compare_digest(self.pin.encode(), (pin or "").encode())
