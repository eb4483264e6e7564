"""The venue page in Chromium: every table live as its states arrive, a table that goes
offline, the standings, a player's history, a game's end chart, the organiser's flag,
and the tablet pages' languages."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from companion.bus.topics import Topics
from companion.league.simtable import sim_game

NAMES = ("Ana", "Bob", "Cyd", "Dee", "Eve")


def test_the_venue_page_follows_every_table_live(venue_page, venue):
    first = sim_game(3, 5, NAMES)
    states = list(first.states("cafe-1"))
    midway = next(s for s in states if s["round"] == 3)
    later = next(s for s in states if s["round"] == 4)
    cafe1, cafe2 = venue.client("cafe-1"), venue.client("cafe-2")
    cafe1.publish("cashnguns/cafe-1/referee/status", "online", qos=1, retain=True)
    cafe1.publish("cashnguns/cafe-1/game/state", json.dumps(midway), qos=1, retain=True)
    cafe2.publish("cashnguns/cafe-2/referee/status", "online", qos=1, retain=True)
    cafe2.publish("cashnguns/cafe-2/game/state", json.dumps(states[-1]), qos=1, retain=True)

    page = venue_page("/")
    card1 = page.locator('[data-table="cafe-1"]')
    expect(card1).to_contain_text("Round 3 of 8")
    expect(card1).to_have_attribute("data-online", "yes")
    expect(card1.locator("li")).to_have_count(5)
    expect(page.locator('[data-table="cafe-2"]')).to_contain_text("Game over")
    expect(page.locator('[data-table="cafe-3"]')).to_contain_text("Offline")  # never heard
    expect(page.locator("#no-standings")).to_be_visible()

    cafe1.publish("cashnguns/cafe-1/game/state", json.dumps(later), qos=1, retain=True)
    expect(card1).to_contain_text("Round 4 of 8")
    cafe2.publish("cashnguns/cafe-2/bridge/state", "0", qos=1, retain=True)  # link lost
    expect(page.locator('[data-table="cafe-2"]')).to_have_attribute("data-online", "no")
    expect(page.locator('[data-table="cafe-2"]')).to_contain_text("Offline")

    cafe1.publish(Topics("cafe-1").league_result, json.dumps(first.result("cafe-1", "abcdefabcdef",
                                                                   1.7e12)), qos=1)
    expect(page.locator("#standings tbody tr")).to_have_count(5)
    winner = first.played.state.winners[0]
    expect(page.locator("#games li")).to_contain_text(f"Won: {winner}")
    page.locator(f'#standings tr[data-player="{winner}"] a').click()
    expect(page.locator("#player-name")).to_have_text(winner)
    expect(page.locator("#history tbody tr")).to_have_count(1)
    page.locator("#history a").click()
    expect(page.locator("#game-status")).to_have_text("accepted")
    expect(page.locator(".final svg.chart polyline")).to_have_count(5)  # the end chart
    expect(page.locator(".final .winners")).to_contain_text(winner)
    for c in (cafe1, cafe2):
        c.loop_stop()


def test_the_organiser_flags_a_result_with_the_league_pin(venue_page, venue, poll_until):
    game = sim_game(4, 5, NAMES)
    cafe3 = venue.client("cafe-3")
    cafe3.publish(Topics("cafe-3").league_result, json.dumps(game.result("cafe-3", "abcabcabcabc",
                                                                  1.7e12)), qos=1)
    league = venue_page.league
    poll_until(lambda: league.store.standings(), 10, "the result to be rated")
    page = venue_page("/games/1", expected_errors=("401 (UNAUTHORIZED)",))  # the wrong PIN
    expect(page.locator("#decision")).to_have_count(0)
    page.locator("#organiser-pin").fill("0000")
    page.locator("#organiser-login button").click()
    expect(page.locator("#notice")).to_have_text("Wrong PIN.")
    # the page reloads as the organiser's with its script held back, as a busy tablet may
    # take it: until the script listens, the flag cannot be sent the browser's own way (a
    # loaded run once clicked it then, and the page reloaded with the result still accepted)
    held = []
    page.route("**/js/venue_game.js", lambda route: held.append(route))
    page.locator("#organiser-pin").fill("1357")
    page.locator("#organiser-login button").click()
    flag = page.locator('#decision button[value="flag"]')
    expect(flag).to_be_disabled()
    page.locator("#decision input[name=note]").fill("seat 3 played twice")
    held[0].continue_()
    page.unroute("**/js/venue_game.js")
    flag.click()
    expect(page.locator("#game-status")).to_have_text("flagged")
    expect(page.locator("#note")).to_have_text("seat 3 played twice")
    assert league.store.standings() == []  # no longer rated
    french = venue_page("/players/1", lang="fr")
    expect(french.locator("h1")).to_have_text("Soirée de ligue")
    expect(french.locator("#history")).to_contain_text("signalée")
    cafe3.loop_stop()
