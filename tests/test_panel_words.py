"""What a phone offers and says when there is little to say: an empty scene pool, one of something.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 with touch, one browser
context per seat, as in ``tests/test_tap_budget.py``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, POST, served, shot
from tests.test_tap_budget import (
    JO_LEADS,
    LEADER,
    POOLS,
    TACTICAL,
    TRICK,
    VEGAS_PLAYERS,
    VNM,
    Phone,
    api,
    api_act,
    new_game,
)

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("words"), MANY_NEW_GAMES)


def test_a_v2140_seat_with_an_empty_pool_is_not_offered_to_put_dice_forward(browser, server):
    """Sven's phone, in Shred's move with no dice of its own, showed "Put dice forward" as its main move:
    a form with no dice to tap ("until someone is out of dice": an empty pool puts nothing forward). Sven drew
    one die and it was tossed (a seat that has not drawn is asked to, while the conflict opens)."""
    sven_drew = (
        {"type": "prepare_pool", "participant": "Sven", "secondary_skills": 1},
        {"type": "roll_pool", "participant": "Sven", "faces": [2]},
    )
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, *POOLS, *sven_drew)
    shred, sven = (Phone(browser, server, seat=s).at(version) for s in ("Shred", "Sven"))
    expect(shred.moment("Put dice forward")).to_be_visible()  # Shred's move, his 7 dice
    page = sven.page
    expect(page.locator("#pending li").first).to_have_text("Shred: put dice forward")
    expect(page.locator("#pending #up-next")).to_have_text("You're next")  # Sven moves after Shred
    expect(page.locator("#mine")).to_have_text("Your dice:none in your scene pool")
    main = page.locator("#main-actions")
    expect(main.locator("button.open", has_text="Put dice forward")).to_have_count(0)
    expect(main.locator("details.table-buttons summary")).to_have_text("Table buttons (Shred's turn)")
    exchange = page.locator("#groups > .group").filter(has=page.locator("h3", has_text=re.compile("^Exchange")))
    expect(exchange.locator("button.open", has_text=re.compile("^Put dice forward$"))).to_have_count(0)
    expect(exchange).to_contain_text("Put dice forward: not now, Sven has no dice in the scene pool to put forward")
    shot(page, "words-v2140-empty-pool")
    # Posted anyway from Sven's phone (its seat fills in the actor): refused in words, nothing changed.
    status, refused = page.evaluate(POST, {"type": "put_forward", "target": "GM", "dice": [6]})
    assert (status, refused["error"]) == (422, "Put dice forward: Sven has no dice in the scene pool to put forward")
    assert api(server, "GET", "/api/sessions/active")["version"] == version
    # Shred puts a 6 forward against the GM: only the GM's phone is offered the answer (from the GM's own
    # dice); Sven's showed "Answer the exchange" too, a form every send of which was refused.
    status, _ = shred.page.evaluate(POST, {"type": "put_forward", "target": "GM", "dice": [6]})
    assert status == 200
    for p in (sven, shred):
        p.at(version + 1)
        expect(p.page.locator("#pending li").first).to_have_text("GM: answer Shred's 6 with 1 die")
        expect(p.page.locator("#main-actions button.open", has_text="Answer the exchange")).to_have_count(0)
    expect(sven.page.locator("#pending #up-next")).to_have_text("You're next")  # Sven moves after Shred
    expect(shred.page.locator("#pending #up-next")).to_have_count(0)
    gm = Phone(browser, server, seat="GM").at(version + 1)
    expect(gm.moment("Answer the exchange")).to_be_visible()
    for p in (shred, sven, gm):
        p.close()


def test_a_vegas_seat_that_has_played_is_not_offered_another_card(browser, server):
    """Jo's phone, once Jo's card lay in the trick, still showed "Play a card" among its main moves: every
    card sent from it was refused ("Jo has played a card in this trick already")."""
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)
    jo = Phone(browser, server, seat="Jo").at(version)
    expect(jo.moment("Play a card")).to_be_visible()  # Jo leads
    version = api_act(server, {"type": "play_card", "player": "Jo", "suit": "Team", "number": 5})
    page = jo.at(version).page
    expect(page.locator("#pending")).to_contain_text("Kim plays")
    main = page.locator("#main-actions")
    expect(main.locator("button.open", has_text="Play a card")).to_have_count(0)
    expect(main.locator("> .act > button.open")).to_have_text(["Enter a trick"])  # the whole trick, as the table
    shot(page, "words-vegas-played-already")
    jo.close()


# Words no person should read on a phone: an API name (snake_case), a Python or JavaScript nothing, a
# count with the wrong noun ("1 dice", "2 book"), a "(s)" plural.
LEAKS = re.compile(
    r"\b[a-z]+_[a-z_]+\b|\bNone\b|\bnull\b|\bundefined\b|\bNaN\b|\[object|\(s\)|\(es\)|die/dice"
    r"|(?<![\d.,/-])1 ([A-Za-z]+ )?(dice|books|cards|racks|tokens|faces|points|spaceships|successes|hits)\b"
    r"|(?<![\d.,/-])([02-9]|\d\d+) (die|book|card|rack|face|spaceship)\b(?! (of|per|track|bonus|pool|face|deck))"
)
GAMES = {
    "vegas": ({"players": VEGAS_PLAYERS}, JO_LEADS, "Jo"),
    "v2140": ({"players": ["Shred", "Sven"]}, POOLS, "Sven"),
    "venom": ({"players": ["Ann", "Bob"]}, (*TACTICAL, LEADER, {"type": "allocate_dice", "combat_value": 1}), "Bob"),
    "vnm": (VNM, (), "Bob"),
    # A trick's bonuses open (Kim won: the bonus offers, the cards of the trick), and an Enhanced game.
    "vegas-bonus": (
        {"players": VEGAS_PLAYERS},
        (*JO_LEADS, {"type": "play_trick", "cards": [{"player": p, "suit": s, "number": n} for p, s, n in TRICK]}),
        "Kim",
    ),
    "vnm-enhanced": ({**VNM, "version": "Enhanced"}, (), "Cy"),
}


@pytest.mark.parametrize("system", list(GAMES))
def test_no_api_names_nothings_or_wrong_plurals_on_a_phone(browser, server, system):
    """Every group and every form of the Game tab opened, on a table phone and a seated one."""
    bad = [
        "set_tech",
        "None",
        "1 dice",
        "1 combat dice",
        "2 book left",
        "book(s)",
        "undefined",
        "die/dice",
        "3 card played",
    ]
    assert [bool(LEAKS.search(b)) for b in bad] == [True] * len(bad)
    assert not LEAKS.search("1 die, 2 dice, 1/3 hits, 6 from 1 rack, 2 book bonus, Team 5, Game 9")
    options, actions, seat = GAMES[system]
    version = new_game(server, system.split("-")[0], options, *actions)
    for who in (None, seat):
        p = Phone(browser, server, seat=who).at(version)
        page = p.page
        page.evaluate("() => document.querySelectorAll('#game details').forEach((d) => { d.open = true; })")
        # Open every form (a button that opens one says so with aria-expanded; one-tap sends are left alone).
        openers = page.locator("#game button.open[aria-expanded='false']:not([disabled])")
        for i in range(openers.count()):
            button = openers.nth(i)
            if button.is_visible() and button.get_attribute("aria-expanded") == "false":
                button.click()
        text = page.locator("#game").inner_text()
        found = sorted({m.group(0) for m in LEAKS.finditer(text)})
        assert not found, f"{system} ({who or 'table'}): {found}"
        assert api(server, "GET", "/api/sessions/active")["version"] == version  # nothing was sent
        p.close()
