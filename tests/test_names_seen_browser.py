"""The names the table has seen, tapped into the New game form (#34) as a newcomer does: one tap per player.

Found in a playthrough (one phone at 390 x 844 setting up VENOM Assault for three after a game of three): with the
form's two player rows filled, the third name went into the optional Commander field, and the game started for two
players with that friend as "Commander"; in Venusian Vegas the third tap did nothing. A name tapped with the player
rows full adds a player's row (as "Add a player" would, up to the game's most players); a name field someone tapped
into and emptied (the GM's, the Commander's) is filled first. A real ``tableside serve --simulate`` and Debian's
chromium (tests/browser_support.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, phone, served

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

PEOPLE = ["Ann", "Bob", "Cy"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = next(gen := served(tmp_path_factory.mktemp("names-seen"), MANY_NEW_GAMES))
    status, body = s.request("POST", "/api/sessions", {"system": "vegas", "options": {"players": PEOPLE}})
    assert status == 201, body  # the table has seen Ann, Bob and Cy
    yield s
    next(gen, None)


def new_game_form(browser, server, system: str):
    page = phone(browser, server)
    page.get_by_role("button", name="Games", exact=True).tap()
    page.locator("#system-box label", has_text=system).tap()
    expect(page.locator("#people-seen button")).to_have_count(len(PEOPLE))
    return page


def names(page, label: str) -> list[str]:
    group = page.locator("#option-fields fieldset").filter(has=page.locator("legend", has_text=re.compile(f"^{label}")))
    return group.first.locator("input[type=text]").evaluate_all("els => els.map(e => e.value)")


@pytest.mark.parametrize("system", ["VENOM Assault", "Venusian Vegas"])
def test_a_name_tapped_with_the_player_rows_full_adds_a_player(browser, server, system):
    page = new_game_form(browser, server, system)
    assert names(page, "Players") == ["", ""]  # two rows to start with
    for name in PEOPLE:
        page.locator("#people-seen button", has_text=name).tap()
    assert names(page, "Players") == PEOPLE
    if system == "VENOM Assault":
        expect(page.get_by_label("Commander (optional)")).to_have_value("")  # not a third player's name
    page.context.close()


def test_a_name_field_emptied_by_hand_is_filled_first(browser, server):
    page = new_game_form(browser, server, "Venus 2140")
    gm = page.get_by_label("GM", exact=True)
    gm.tap()
    gm.fill("")  # Ann runs the game
    page.locator("#people-seen button", has_text="Ann").tap()
    expect(gm).to_have_value("Ann")
    page.locator("#people-seen button", has_text="Bob").tap()  # then the player characters' rows, in order
    assert names(page, "Player characters")[0] == "Bob"
    page.context.close()


def test_a_name_already_in_the_form_is_not_a_second_player(browser, server):
    page = new_game_form(browser, server, "VENOM Assault")
    for name in [*PEOPLE, *PEOPLE]:  # the form kept from the last game, the names tapped again
        page.locator("#people-seen button", has_text=name).tap()
    assert names(page, "Players") == PEOPLE
    page.context.close()


def test_no_more_rows_than_the_game_takes(browser, server):
    page = new_game_form(browser, server, "VENOM Assault")  # 2-5 players
    group = page.locator("#option-fields fieldset").filter(has=page.locator("legend", has_text=re.compile("^Players")))
    for n, name in enumerate(["Dee", "Eve", "Fay", "Gus"]):  # four typed in
        if n >= 2:
            group.first.get_by_role("button", name="Add a player").tap()
        group.first.locator("input[type=text]").nth(n).fill(name)
    page.locator("#people-seen button", has_text="Ann").tap()  # the fifth player
    page.locator("#people-seen button", has_text="Bob").tap()  # no sixth: VENOM takes 2-5
    assert names(page, "Players") == ["Dee", "Eve", "Fay", "Gus", "Ann"]
    page.context.close()
