"""Found playing the phone panel as a table of friends: a seated phone out of its turn, a refused fix.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 with touch, one browser
context per seat, as in ``tests/test_tap_budget.py``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, all_actions, served
from tests.test_tap_budget import Phone, api, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

VNM = {"players": [{"name": n, "home_worlds": [w]} for n, w in (("Ann", "Venus"), ("Bob", "Mars"), ("Cy", "Pluto"))]}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("table"), MANY_NEW_GAMES)


def test_a_table_button_on_a_phone_out_of_its_turn_asks_before_acting_for_the_player_in_turn(browser, server):
    """The table's buttons are the main moves of a seat waiting its turn: End turn there ended Cy's turn in one tap."""
    version = new_game(server, "vnm", VNM, {"type": "move"})  # Pluto (Cy) moves first
    bob = Phone(browser, server, seat="Bob").at(version)
    expect(bob.page.locator("#pending")).to_contain_text("Cy")
    bob.page.locator("#main-actions details.table-buttons > summary").tap()  # folded away out of turn
    end = bob.page.locator("#main-actions button.open", has_text="button C")
    end.tap()
    expect(bob.page.locator("#confirm")).to_contain_text("Cy")
    bob.page.keyboard.press("Escape")  # "no": nothing is sent
    bob.page.wait_for_timeout(500)
    assert api(server, "GET", "/api/sessions/active")["version"] == version
    end.tap()
    bob.page.locator("#confirm-yes").tap()
    expect(bob.said()).to_contain_text(re.compile("^Button C: "))
    bob.close()


def test_a_refused_correction_says_why_where_the_phone_is_scrolled(browser, server):
    """The Fix-a-number list is far below the top: its refusal was in the banner at the top, out of sight."""
    # (Population no longer refuses a "one more": it asks where the chip comes from. A discard from an empty hand does.)
    version = new_game(server, "vnm", VNM, {"type": "correct", "key": "players.0.zap.hand", "value": 0})
    p = Phone(browser, server).at(version)
    all_actions(p.page)
    p.page.locator("#numbers-title").tap()
    more = p.page.get_by_role("button", name="Ann (Venus): Zap discard pile: one more")
    more.scroll_into_view_if_needed()
    more.tap()  # a discard from an empty hand: the conservation law refuses it
    banner = p.page.locator("#banner")
    expect(banner).to_contain_text("the hand holds 0 Zap cards")
    expect(banner).to_be_in_viewport()
    assert api(server, "GET", "/api/sessions/active")["version"] == version
    p.close()


def test_a_seated_phone_settling_a_tie_picks_any_player_not_silently_its_own_seat(browser, server):
    """Vegas 'Settle the tie' names the player chosen, not who acts: Jo's phone showed no choice and sent Jo."""
    players = ["Jo", "Kim", "Lu", "Max"]
    setup = ({"type": "setup_tracks", "player": p, "tracks": ["Team", "Game"]} for p in players)
    version = new_game(server, "vegas", {"players": players}, *setup, {"type": "start_round"})
    jo = Phone(browser, server, seat="Jo").at(version)
    settle = jo.moment("Settle the tie")
    expect(settle.locator("form")).to_be_visible()
    settle.get_by_role("button", name="Kim", exact=True).tap()
    expect(jo.said()).to_contain_text("Kim")
    log = api(server, "GET", "/api/sessions/active/log")
    entries = log["entries"] if isinstance(log, dict) else log
    assert entries[-1]["action"]["player"] == "Kim"
    jo.close()


def test_the_last_change_names_who_did_it_once(browser, server):
    """A summary starting with the seat's own name was said 'Ann: Ann: Recruitment Phase', 'Max: Max plays ...'."""
    start = ({"type": "set_commander", "player": "Ann"}, {"type": "draw_event", "kind": "all_is_quiet"})
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *start)
    ann = Phone(browser, server, seat="Ann").at(version)
    ann.moment("Next phase").locator("button.open").tap()
    expect(ann.said()).to_have_text("Ann: Recruitment Phase")
    ann.close()
