"""A countdown called off says why, in words, on the tablet, the Godfather's Play tab and
the phones, in each language."""

from __future__ import annotations

from playwright.sync_api import expect
from stack import PIN, cards_down

from companion.referee.commands import Auth

GODFATHER = Auth(control=True)
SAID = {
    "en": "The sensors' message broker went down during the last countdown (connection "
          "lost): it was called off. Count again.",
    "fr": "Le serveur de messages des capteurs a lâché pendant le dernier compte à rebours "
          "(connection lost) : il est annulé. Recomptez.",
    "es": "El servidor de mensajes de los sensores dejó de responder durante la última "
          "cuenta atrás (connection lost): se anuló. Contad de nuevo.",
    "de": "Der Nachrichtenserver der Sensoren ist während des letzten Countdowns "
          "ausgefallen (connection lost): er wurde abgebrochen. Noch einmal zählen.",
}


def test_a_called_off_countdown_says_why_on_every_screen(live, open_page):
    names = ["Ana", "Bob", "Cyd", "Dee"]
    live.table.command({"type": "new_game", "version": live.table.version,
                        "players": names, "powers": "none"}, GODFATHER)
    cards_down(live.table, names)
    live.table.command({"type": "countdown", "version": live.table.version}, GODFATHER)
    live.table.link("broker", False, "connection lost")  # as the MQTT link reports it
    live.table.link("broker", True, "")  # back: only the called-off count is left to say
    state = live.table.public_state()
    assert state["voided"] == "broker went down (connection lost)"  # the API's, unchanged
    assert state["voided_text"]["key"] == "voided.went_down"

    for seat, (lang, said) in enumerate(SAID.items(), start=1):  # a phone per language
        table = open_page("/", lang=lang)
        phone = open_page(f"/seat/{seat}?token={live.table.access.seat_token(seat)}",
                          size="phone", lang=lang)
        for page in (table, phone):
            expect(page.locator("#links")).to_have_text(said)
    referee = open_page("/referee", lang="de")
    referee.fill("#pin", PIN)
    referee.click("button[type=submit]")
    expect(referee.locator("#tab-play")).to_be_visible()
    expect(referee.locator("#links")).to_have_text(SAID["de"])

    live.table.command({"type": "countdown", "version": live.table.version}, GODFATHER)
    expect(referee.locator("#links")).to_be_hidden()  # counted again: nothing to say
