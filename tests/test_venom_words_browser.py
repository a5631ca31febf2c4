"""VENOM Assault on a phone (390 x 844, Debian's chromium, a real ``tableside serve --simulate``): the words and
taps a playthrough tripped on.

- "Draw the Event card": the moment opens its form by itself; a tap on its title once closed it (a wasted tap, and
  a newcomer thought it broke). The first tap now goes into the form; a second closes it, as on a form opened by hand.
- A Turn's end reads in the rulebook's words, "Ann's Turn (Round 1) is over" under the header's R1, and a Turn that
  changed nothing says so once (seen before: "Turn 1 is over" over four "no change" lines).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.test_tap_budget import Phone, api_act, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)
OPTIONS = {"players": ["Ann", "Bob", "Cy"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("venom-words"), MANY_NEW_GAMES)


def test_the_event_card_form_opened_by_the_moment_stays_open_on_a_tap_on_its_title(browser, server):
    version = new_game(server, "venom", OPTIONS, {"type": "set_commander", "player": "Ann"})
    p = Phone(browser, server).at(version)
    draw = p.moment("Draw the Event card")
    title = draw.locator("button.open")
    expect(draw.locator("form")).to_be_visible()  # opened by itself
    expect(title).to_have_attribute("aria-expanded", "true")
    p.tap(title)
    expect(draw.locator("form")).to_be_visible()  # the first tap closes nothing
    expect(title).to_have_attribute("aria-expanded", "true")
    shot(p.page, "venom-event-form-title-tapped", full_page=False)
    p.tap(title)
    expect(draw.locator("form")).to_have_count(0)  # now it closes, as a form opened by hand does
    expect(title).to_have_attribute("aria-expanded", "false")
    p.tap(title)
    expect(draw.locator("form")).to_be_visible()  # and opens again
    p.close()


def test_a_turn_s_end_says_whose_turn_in_which_round_and_groups_the_untouched(browser, server):
    start = ({"type": "set_commander", "player": "Ann"}, {"type": "draw_event", "kind": "all_is_quiet"})
    version = new_game(server, "venom", OPTIONS, *start)
    for _ in range(4):  # Event -> Recruitment -> Tactical -> Retirement -> End of Turn
        version = api_act(server, {"type": "next_phase"})
    p = Phone(browser, server).at(version)  # at Ann's End of Turn Phase
    version = api_act(server, {"type": "next_phase"})  # Bob's Turn begins
    p.at(version)
    card = p.page.locator("#round-end")
    expect(card.locator("h2")).to_have_text("Ann's Turn (Round 1) is over")
    expect(p.page.locator("header.top")).to_contain_text("R1 Bob")
    expect(card.locator("li")).to_have_count(1)  # All Is Quiet, no Combat: said once, not four "no change" lines
    expect(card.locator("li")).to_have_text("Nothing changed")
    shot(p.page, "venom-turn-end", full_page=False)
    p.close()
