"""Every other action one tap away, grouped by phase (issue 17, "The moment on top").

For each system, on a 390 x 844 touch phone: every action offered off the moment is a visible button in the
All actions sheet (one tap from the moment card, #36) with no other tap before it (no closed group around it),
one tap opens its form with its send button on the screen,
and the moment with Undo stays on the first screen. The page's height is printed for the record
(docs/systems/*.md, "Taps per moment").
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.golden_states import SCENARIOS
from tests.test_tap_budget import JO_LEADS, LEADER, POOLS, TACTICAL, VEGAS_PLAYERS, VENUS_TURN, VNM, Phone, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

GAMES = {
    "vnm": ("vnm", VNM, VENUS_TURN, None),
    "venom": ("venom", {"players": ["Ann", "Bob"]}, (*TACTICAL, LEADER), None),
    "v2140-shred": ("v2140", {"players": ["Shred", "Sven"]}, POOLS, "Shred"),
    "v2140-gm": ("v2140", {"players": ["Shred", "Sven"]}, POOLS, "GM"),
    "vegas": ("vegas", {"players": VEGAS_PLAYERS}, JO_LEADS, None),
}
# Any other system at its golden scenario's moment, on a table phone (a fifth system is checked unasked).
GAMES.update({s: (s, o, a, None) for s, (o, a) in SCENARIOS.items() if s not in {g[0] for g in GAMES.values()}})
# A button no closed disclosure hides (the groups were folded <details>: two taps to any other action).
UNFOLDED = (
    "b => { for (let d = b.closest('details'); d; d = d.parentElement.closest('details')) if (!d.open) return false;"
    " return true; }"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("onetap"), MANY_NEW_GAMES)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_other_action_is_one_tap_from_its_form(browser, server, name):
    system, options, actions, seat = GAMES[name]
    version = new_game(server, system, options, *actions)
    p = Phone(browser, server, seat=seat).at(version)
    try:
        one_tap_each(p, name)
    finally:
        p.close()  # (a seated phone left open would hold its seat for the next game)


def one_tap_each(p: Phone, name: str) -> None:
    page = p.page
    # The moment and Undo on the first screen.
    expect(page.locator("#undo")).to_be_visible()
    assert page.locator("#undo").bounding_box()["y"] < 844
    first = page.locator("#main-actions > .act, #main-actions > details").first
    if first.count():
        assert first.bounding_box()["y"] < 844
    height = page.evaluate("() => document.documentElement.scrollHeight")
    print(f"\n{name}: page height {height} px")
    shot(page, f"onetap-{name}")
    # The groups: in the All actions sheet, one tap from the card (#36); a heading each, their actions'
    # buttons all visible with no tap more.
    page.locator("#all-open").tap()
    groups = page.locator("#groups > .group")
    assert groups.count() >= 1
    openers = page.locator("#groups .act > button.open:not([disabled])")
    assert openers.count() >= 1, name
    labels = openers.all_inner_texts()
    for i, label in enumerate(labels):
        opener = openers.nth(i)
        expect(opener).to_be_visible()
        assert opener.evaluate(UNFOLDED), f"{name}: {label!r} is inside a closed group"
        if opener.get_attribute("aria-expanded") is None:
            continue  # nothing to ask: one tap sends it (not sent here, the next button is still checked)
        p.taps = 0
        p.tap(opener)
        act = page.locator("#groups .act").filter(
            has=page.locator("button.open", has_text=re.compile(f"^{re.escape(label)}$"))
        )
        form = act.locator("form")
        expect(form).to_be_visible()
        send = form.locator(".submit-row button.primary")
        if send.count():  # (a form of quick choices sends with the choice itself)
            expect(send).to_be_in_viewport()
        assert p.taps == 1
        if i == 0:
            shot(page, f"onetap-{name}-form", full_page=False)
        act.locator("button.open").tap()  # tapped again: closed, the page as it was
        expect(form).to_have_count(0)


def test_v2140_an_initiative_bid_off_the_moment_takes_four_taps(browser, server):
    """QA counted 4 (open the Initiative group, the action, a die, send) when the groups were folds on the page. A bid
    is optional ("If you like, each player can put in a number of dice"), so it is off the moment card: All actions,
    the action, a die, send. (No fold: the sheet's groups are open, #36.)"""
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, *POOLS)
    p = Phone(browser, server, seat="Shred").at(version)
    try:
        page = p.page
        p.tap(page.locator("#all-open"))
        bid = page.locator("#groups .act").filter(
            has=page.locator("button.open", has_text=re.compile("^Bid dice for initiative$"))
        )
        p.tap(bid.locator("button.open"))
        form = bid.locator("form")
        expect(form).to_be_visible()
        p.tap(form.get_by_role("button", name="Die 3 showing 5"))
        p.tap(form.locator(".submit-row button.primary"))
        expect(p.said()).to_contain_text("initiative")
        assert p.taps == 4
        print(f"\nV2140 initiative bid: {p.taps} taps")
    finally:
        p.close()
