"""On a phone (390 x 844): the attack's chance shows before the target's tap, which rolls at once.

A playthrough saw "51%" only in the words after the roll, while docs/playing.md promises the chance first.
The tap count stays the same: Attack, then the target (it sends the attack).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.test_tap_budget import VENUS_TURN, VNM, Phone, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("vnm-chance"), MANY_NEW_GAMES)


def test_the_basic_attack_shows_its_chance_before_the_tap_that_rolls(browser, server):
    version = new_game(server, "vnm", VNM, *VENUS_TURN)
    p = Phone(browser, server).at(version)
    attack = p.moment("Attack")
    p.tap(attack.locator("button.open"))
    target = attack.locator("form").get_by_role("group", name=re.compile("^Target"))
    expect(target).to_contain_text("51% to destroy, whichever fleet")
    mars = target.get_by_role("button", name=re.compile("^Bob \\(Mars\\)"))
    expect(mars).to_be_visible()  # the chance and the target on one screen, before the tap
    assert target.bounding_box()["y"] + target.bounding_box()["height"] <= 844
    expect(p.said()).not_to_contain_text("51%")  # nothing rolled yet
    shot(p.page, "vnm-chance-before-tap", full_page=False)
    p.tap(mars)
    expect(p.said()).to_contain_text("Ann (Venus) vs Bob (Mars) (51%): rolled")
    expect(p.said()).not_to_contain_text(re.compile(r"\((space|land|ocean)"))  # the Basic Game's 8+ holds in every area
    assert p.taps == 2
    shot(p.page, "vnm-chance-after-tap", full_page=False)
    p.close()
