"""The Godfather's controls in Chromium: a whole round played from /referee."""

from __future__ import annotations

from playwright.sync_api import expect
from stack import PIN

from companion.referee.commands import Auth


def log_in(page) -> None:
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator("body")).to_have_attribute("data-live", "yes")  # scripts running


def click_and_wait(page, selector: str) -> None:
    """Click, then wait until the page has drawn a newer snapshot than before."""
    before = page.locator("body").get_attribute("data-revision")
    page.locator(selector).first.click()
    expect(page.locator("body")).not_to_have_attribute("data-revision", before)


def as_godfather(table, cmd: dict) -> None:
    """Send `cmd` made against the table's version of this instant: read and sent under
    the table's lock, so that nothing the table hears in between (the broker's link
    flapping on a busy machine bumps the version) makes a new game stale before it is
    sent (new_game must name the exact version)."""
    with table.recorder.lock:
        table.command({**cmd, "version": table.version}, Auth(control=True))


def expect_step(page, table, text: str) -> None:
    """The Godfather's page names the step; if it does not in time, the failure says what
    the table had (its version, the actions played, the links down) and what the page had
    (the revision it drew, its notice), so a slow machine's failure tells where it stuck."""
    try:
        expect(page.locator("#step")).to_contain_text(text)
    except AssertionError as e:
        game, body = table.game, page.locator("body")
        raise AssertionError(
            f"{e}\nthe table: version {table.version}, revision {table.revision}, "
            f"{len(game.actions) if game else 0} actions "
            f"{[a.type + ':' + str(a.player) for a in game.actions[-6:]] if game else []}, "
            f"links down {[o.link for o in table.state.links.down()]}; the page: revision "
            f"{body.get_attribute('data-revision')}, notice "
            f"{page.locator('#notice').text_content()!r}") from None


def test_a_wrong_pin_is_refused_and_said(open_page):
    page = open_page("/referee", expected_errors=("401 (UNAUTHORIZED)",))
    page.fill("#pin", "0000")
    page.click("button[type=submit]")
    expect(page.locator("#notice")).to_have_text("Wrong PIN.")


def test_the_godfather_plays_a_whole_round(live, open_page, screenshot):
    sim = live.table.simulator
    page = open_page("/referee")
    table_view = open_page("/")
    log_in(page)

    page.click('[data-tab="setup"]')
    for seat, name in enumerate(("Ana", "Bob", "Cyd", "Dee"), start=1):
        page.fill(f'input[name="name{seat}"]', name)
    page.select_option('select[name="cards"]', "physical")
    page.fill('input[name="seed"]', "7")
    page.click("#setup button[type=submit]")
    expect(page.locator("#tab-play")).to_be_visible()
    expect_step(page, live.table, "Round 1 of 8 · Bullet choice")

    for name in ("Ana", "Bob", "Cyd", "Dee"):  # real cards: each puts one face down
        page.get_by_role("button", name=f"{name} put a card down").click()
    expect_step(page, live.table, "Hold-up")

    for gun, target in ((1, 2), (2, 3), (3, 1), (4, 1)):
        sim.aim(gun, target)
        sim.raise_gun(gun)
    expect(table_view.locator("svg.arrows .aim.live")).to_have_count(4)
    page.click('[data-command="pause"]')
    expect_step(page, live.table, "Paused")
    expect(page.locator('[data-command="countdown"]')).to_have_count(0)
    page.click('[data-command="resume"]')
    screenshot(page, "referee-holdup-tablet")
    page.click('[data-command="countdown"]')
    expect(table_view.locator("#countdown")).to_have_text("3")
    expect_step(page, live.table, "Godfather's privilege")

    page.get_by_role("button", name="Order nobody").click()
    expect_step(page, live.table, "Courage")
    sim.tip(4)  # Dee lies down; the others stand
    page.click('[data-command="countdown"]')
    expect_step(page, live.table, "Card effects")

    # only cards that count are asked for: Dee lay down, so hers is not
    expect(page.locator(".act-reveal")).to_have_count(6)
    page.get_by_role("button", name="Ana reveals Bang!").click()
    page.get_by_role("button", name="Bob reveals Click").click()
    page.get_by_role("button", name="Cyd reveals Click").click()
    expect(table_view.locator("#log")).to_contain_text("Ana shot Bob: 1 wound.")
    expect(table_view.locator('.seat[data-seat="2"] .wound.hit')).to_have_count(1)

    expect_step(page, live.table, "Loot split")
    expect(table_view.locator(".seat[data-turn=yes] .name")).to_have_text("Ana")
    click_and_wait(page, ".act-take")
    taken = table_view.locator("#log .log-round:first-child li:last-child").inner_text()
    click_and_wait(page, '[data-command="undo"]')
    expect(table_view.locator("#log .log-round:first-child li:last-child")).not_to_have_text(taken)
    screenshot(page, "referee-split-tablet")
    for _ in range(12):  # Ana and Cyd share until the table is empty
        if "Round 2" in page.locator("#step").inner_text():
            break
        click_and_wait(page, ".act-take")
    expect_step(page, live.table, "Round 2 of 8 · Bullet choice")
    expect(table_view.locator(".loot-count").first).not_to_have_text("Loot: 0")
    screenshot(table_view, "table-round2-tablet")


def test_a_tap_held_as_another_players_buttons_go_still_counts(live, open_page):
    """The Godfather's finger is down on Bob's button when Ana's card goes down (from her
    phone, say) and the page redraws: Bob's button has not moved, and lifting the finger
    puts Bob's card down. (Redrawn anew, or moved up into Ana's place, it took no tap.)"""
    table = live.table
    as_godfather(table, {"type": "new_game", "cards": "physical",
                         "players": ["Ana", "Bob", "Cyd", "Dee"]})
    page = open_page("/referee")
    log_in(page)
    expect_step(page, table, "Bullet choice")
    bob = page.get_by_role("button", name="Bob put a card down")
    box = bob.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    box = bob.bounding_box()  # under the finger (pressed: `:active` moves it a pixel)
    as_godfather(table, {"type": "action", "action": {"type": "choose", "player": "Ana"}})
    expect(page.get_by_role("button", name="Ana put a card down")).to_have_count(0)
    assert bob.bounding_box() == box
    page.mouse.up()
    expect(bob).to_have_count(0)
    assert [(a.type, a.player) for a in table.game.actions] == [("choose", "Ana"),
                                                                ("choose", "Bob")]


def test_a_sensor_overridden_by_hand(live, open_page):
    table = live.table
    as_godfather(table, {"type": "new_game", "cards": "physical",
                         "players": ["Ana", "Bob", "Cyd", "Dee"]})
    for name in ("Ana", "Bob", "Cyd", "Dee"):  # the hold-up: live aims are drawn
        as_godfather(table, {"type": "action", "action": {"type": "choose", "player": name}})
    page = open_page("/referee")
    table_view = open_page("/")
    log_in(page)
    page.click('[data-tab="sensors"]')
    page.click('.override[data-seat="3"] [data-aim="1"]')
    arrow = table_view.locator('svg.arrows .aim[data-from="3"]')
    expect(arrow).to_have_attribute("data-to", "1")
    expect(arrow).to_have_class("aim lowered")  # aimed by hand, the gun still reads down
    expect(table_view.locator('.seat[data-seat="3"] .badge.manual')).to_be_visible()
    page.get_by_role("button", name="Aim back to the sensor").click()
    expect(arrow).to_have_count(0)
    expect(table_view.locator('.seat[data-seat="3"] .badge.manual')).to_have_count(0)


def test_physical_loot_is_entered_card_by_card(live, open_page):
    as_godfather(live.table, {"type": "new_game", "players": ["Ana", "Bob", "Cyd", "Dee"],
                              "loot": "physical"})
    page = open_page("/referee")
    table_view = open_page("/")
    log_in(page)
    deal = page.locator("#deal")
    expect(deal).to_be_visible()
    expect(table_view.locator("#banner")).to_have_text(
        "The Godfather enters the loot cards turned up.")
    plus = deal.locator('[data-card="bill5000"] button', has_text="+")
    plus.click()
    plus.click()
    deal.locator('[data-card="painting"] button', has_text="+").click()
    deal.locator('[data-card="bill5000"] button', has_text="−").click()
    expect(deal.locator("h3")).to_have_text("Cards turned up: 2 of 8")
    page.click('[data-command="deal"]')
    expect(deal).to_be_hidden()
    expect(table_view.locator("#loot .loot-card")).to_have_text(
        ["$5,000", "Painting", "New Godfather"])
    expect(page.locator("#step")).to_contain_text("Bullet choice")
    expect(table_view.locator("#log .log-round:first-child li:last-child")).to_have_text(
        "Ana turned up a $5,000 bill and a painting.")


def test_the_phones_tab_shows_a_code_per_seat(live, open_page, screenshot):
    as_godfather(live.table, {"type": "new_game", "players": ["Ana", "Bob", "Cyd", "Dee", "Eve"]})
    page = open_page("/referee")
    log_in(page)
    page.click('[data-tab="phones"]')
    codes = page.locator(".phone-link img")
    expect(codes).to_have_count(5)
    for i in range(5):
        assert codes.nth(i).evaluate("img => img.decode().then(() => img.naturalWidth)") > 100
    expect(page.locator('.phone-link[data-claimed="no"]')).to_have_count(5)
    screenshot(page, "referee-phones-tablet")


def test_the_setup_form_seats_the_desk_and_deals_chosen_powers(live, open_page):
    page = open_page("/referee", expected_errors=("status of 422",))  # refused on purpose
    table_view = open_page("/")
    log_in(page)
    page.click('[data-tab="setup"]')
    for seat, name in ((1, "Ana"), (2, "Bob"), (4, "Dee"), (5, "Eve"), (6, "Fay")):
        page.fill(f'input[name="name{seat}"]', name)
    # Before the game, the table's geometry is checked for these seats (docs/DASHBOARD.md).
    expect(page.locator("#setup-seating li")).to_have_text(
        "This table lets every gun tell these 5 players apart.")
    page.check('input[name="desk"][value="4"]')
    page.select_option('select[name="powers"]', "chosen")
    page.select_option('select[name="power2"]', "vulture")
    page.select_option('select[name="power6"]', "lucky_man")
    page.click("#setup button[type=submit]")
    expect(table_view.locator(".seat")).to_have_count(5)
    expect(table_view.locator(".seat .badge.desk")).to_have_count(1)
    expect(table_view.locator('.seat[data-seat="4"] .badge.desk')).to_be_visible()
    expect(table_view.locator('.seat[data-seat="2"] .power')).to_have_text("The Vulture")
    expect(table_view.locator('.seat[data-seat="6"] .power')).to_have_text("The Lucky Man")
    expect(table_view.locator('.seat[data-seat="5"] .power')).to_have_text("No power")
    # a second game needs the game in progress ended on purpose
    page.click('[data-tab="setup"]')
    page.click("#setup button[type=submit]")
    expect(page.locator("#notice")).to_have_text(
        "A game is in progress: tick “End the game in progress” to start a new one.")
    page.check('input[name="abandon"]')
    page.click("#setup button[type=submit]")
    expect(page.locator("#tab-phones")).to_be_visible()  # bullet cards on the phones: scan
    expect(table_view.locator("#log li")).to_have_count(1)


def test_the_controls_fit_a_phone(live, open_page, screenshot):
    as_godfather(live.table, {"type": "new_game", "cards": "physical",
                              "players": ["Ana", "Bob", "Cyd", "Dee", "Eve", "Fay"]})
    page = open_page("/referee", size="phone")
    log_in(page)
    expect(page.locator(".act-choose")).to_have_count(6)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    screenshot(page, "referee-phone")


def test_the_countdown_button_is_there_exactly_when_the_server_offers_it(live, open_page):
    """Once only the Kid has still to aim, the hold-up has a countdown for the Kid alone:
    the page draws the server's button (it used to refuse it by a rule of its own)."""
    table = live.table
    players = ["Ana", "Bob", "Cyd", "Dee"]
    as_godfather(table, {"type": "new_game", "players": players, "powers": {"Dee": "kid"},
                         "cards": "physical"})
    page = open_page("/referee")
    log_in(page)
    countdown = page.locator('[data-command="countdown"]')

    def offered() -> bool:
        return any(b["command"] == {"type": "countdown"}
                   for b in table.control_state()["commands"])

    def act(action: dict) -> None:  # (an aim: the Godfather's override of the sensors)
        as_godfather(table, {"type": "action", "action": action,
                             "override": action["type"] == "aim"})

    expect(page.locator(".act-choose")).to_have_count(4)
    assert not offered()
    expect(countdown).to_have_count(0)
    for name in players:
        act({"type": "choose", "player": name})
    expect(countdown).to_have_count(1)
    assert offered()
    for name, target in (("Ana", "Bob"), ("Bob", "Cyd"), ("Cyd", "Ana")):
        act({"type": "aim", "player": name, "target": target})
    expect(page.locator("#waiting")).to_have_text(
        "Dee, aim your gun: the Godfather counts to three.")
    assert offered()  # the Kid alone
    expect(countdown).to_have_count(1)
    expect(countdown).to_have_text("Count to three: Hold-up")
    table.simulator.aim(4, 2)
    table.simulator.raise_gun(4)
    page.click('[data-command="countdown"]')
    expect(page.locator("#step")).to_contain_text("Godfather's privilege")
    assert not offered()
    expect(countdown).to_have_count(0)
    assert table.public_state()["players"][3]["counted_aim"] == {"target": "Bob", "mark": None}


def test_the_seating_check_starts_at_the_player_count_the_server_sends(
        live, open_page, monkeypatch):
    """The page holds no player count: sent a minimum of 5 (the rules say 4), it checks
    the seating of five players and not of four. Its rows are the server's seats."""
    from companion.dashboard import setup_flow

    monkeypatch.setitem(setup_flow.PLAYERS, "min", 5)
    page = open_page("/referee")
    log_in(page)
    expect(page.locator("#setup tr[data-seat]")).to_have_count(8)
    for seat, name in ((1, "Ana"), (2, "Bob"), (3, "Cyd"), (4, "Dee"), (5, "Eve")):
        page.fill(f'input[name="name{seat}"]', name)
    checked = page.locator("#setup-seating li")
    expect(checked).to_have_text("This table lets every gun tell these 5 players apart.")
    page.fill('input[name="name5"]', "")
    expect(checked).to_have_count(0)  # four: below the minimum sent, no check
