"""One identity per player on the phone (#17): a VNM player is "Ann (Venus)" in the seat, the prompt,
the board's rows, the last change, the History timeline and chart, in one colour on the board and the chart.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 with touch, as in
tests/test_tap_budget.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.test_tap_budget import Phone, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

PLAYERS = {
    "players": [
        {"name": "Ann", "home_worlds": ["Venus"]},
        {"name": "Bob", "home_worlds": ["Mars"]},
        {"name": "Cy", "home_worlds": ["Pluto"]},
    ]
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("identity"), MANY_NEW_GAMES)


def test_a_vnm_player_is_name_and_world_in_one_colour_on_every_phone_screen(browser, server):
    """Seen failing on the old code: the seat, the timeline's "by" and the chart said "Ann" alone."""
    version = new_game(server, "vnm", PLAYERS, {"type": "move"}, {"type": "end_turn"})  # Cy (Pluto) moved
    p = Phone(browser, server, seat="Ann").at(version)
    page = p.page
    expect(page.locator("#seat")).to_have_text("Seat: Ann")  # the header's short form (as the e-paper's)
    expect(page.locator("#seat")).to_have_attribute("title", "This phone sits at Ann (Venus)'s seat")
    expect(page.locator("#pending")).to_contain_text("Ann (Venus): build, move, attack or collect")
    board = page.locator("#board")
    for title in ("Population", "Ships", "Zap"):  # every row of the board names the player the same way
        element = board.locator(".el").filter(has=page.locator("h3", has_text=title))
        for label in ("Ann (Venus)", "Bob (Mars)", "Cy (Pluto)"):
            expect(element).to_contain_text(label)
    build = p.moment("Build spaceships")
    p.tap(build.locator("button.open"))  # one spaceship on her home world: one tap, nothing to ask
    expect(p.said()).to_have_text("Ann (Venus) builds 1 spaceship on their home world: 3 on the board, 2 in reserve")
    shot(page, "identity-vnm-game")

    page.evaluate("() => api('POST', '/api/rolls', {expr: '2d6'})")  # a free roll from Ann's phone: her luck
    expect(p.said()).to_contain_text("Ann (Venus)")
    # Found and read in one step: the roll's stream event may redraw the board between a locator's finding
    # the bar and reading it, and a bar taken out of the page has no colour ('').
    on_board = page.evaluate(
        """() => getComputedStyle([...document.querySelectorAll('#board .bar')]
            .find((e) => e.textContent.includes('Ann (Venus)'))).borderLeftColor"""
    )
    # The bar itself is drawn in the player's colour (#17 QA F1: every fill was black), as on the e-paper.
    fills = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#board .bar')].map((e) =>
            [e.firstChild.textContent.replace(/ \\((turn|next)\\)$/, ''),
             getComputedStyle(e.querySelector('.b i')).backgroundColor]))"""
    )
    assert fills == {
        "Ann (Venus)": "rgb(123, 31, 162)",  # purple
        "Bob (Mars)": "rgb(198, 40, 40)",  # red
        "Cy (Pluto)": "rgb(33, 33, 33)",  # black
    }, fills
    page.get_by_role("button", name="History").tap()
    expect(page.locator("#log")).to_contain_text("Cy (Pluto) ends the turn (Move). Ann (Venus) plays next")
    expect(page.locator("#log li").first).to_contain_text("by Ann (Venus)")
    expect(page.locator("#luck")).to_contain_text("Ann (Venus)")
    in_luck = page.locator("#luck tbody tr", has_text="Ann (Venus)").evaluate(
        "e => getComputedStyle(e).borderLeftColor"
    )
    swatch = page.locator("#chart svg text", has_text="Ann (Venus): 0")
    expect(swatch).to_be_visible()
    on_chart = swatch.evaluate("t => getComputedStyle(t.previousElementSibling).fill")
    assert on_board == on_chart == in_luck == "rgb(123, 31, 162)", (
        on_board,
        on_chart,
        in_luck,
    )  # Venus is purple (rulebook, Setup)
    shot(page, "identity-vnm-history")
    p.close()


def test_a_change_that_names_its_own_player_first_is_not_said_twice(browser, server):
    """#17 QA F9: "Cy (Pluto): Cy (Pluto)'s Technology: Weapon 2 dice" on every phone."""
    version = new_game(server, "vnm", {**PLAYERS, "version": "Enhanced"})
    p = Phone(browser, server, seat="Cy").at(version)
    other = Phone(browser, server).at(version)
    p.page.evaluate(
        "() => api('POST', '/api/sessions/active/actions', {type: 'set_tech', world: 'Pluto', weapon_dice: 1})"
    )
    for phone in (p, other):
        expect(phone.said()).to_have_text("Cy (Pluto)'s Technology: Weapon 1 die")
    p.close()
    other.close()
