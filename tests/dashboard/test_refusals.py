"""A refused command is told in the page's language, in a player's words: what the refusal
means at the table, never the server's English sentence."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.referee.commands import Auth

SAID = {  # status -> what a French phone says
    409: "La table a avancé : regardez à nouveau et recommencez.",
    403: "Cet écran ne peut pas faire cela : reconnectez-vous, ou scannez à nouveau le QR code "
         "de votre place.",
    422: "Les règles ne le permettent pas maintenant : regardez la table et réessayez.",
    507: "Le journal de la partie ne peut pas être écrit : rien n'a changé. Vérifiez le "
         "stockage de la table.",
}


@pytest.mark.parametrize("status", sorted(SAID))
def test_a_phone_says_why_a_card_was_refused_in_its_language(live, open_page, status):
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": ["Ana", "Bob", "Cyd", "Dee"]}, Auth(control=True))
    phone = open_page(f"/seat/1?token={live.table.access.seat_token(1)}", size="phone",
                      lang="fr", expected_errors=("Failed to load resource",))
    card = phone.locator(".choices button.act-choose").first
    expect(card).to_be_visible()
    phone.route("**/api/command", lambda route: route.fulfill(
        status=status, json={"error": "Xyzzy: the server's own sentence"}))
    card.click()
    notice = phone.locator("#notice")
    expect(notice).to_have_text(SAID[status])
    assert "Xyzzy" not in phone.locator("body").inner_text()
