"""The end of a game on every phone (#34): played to its end with one browser context per seat, each phone leads
with the result (the winner(s), the final scores) and "New game with the same players" starts the same game again
in one tap, every phone keeping its seat.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 (tests/browser_support.py). The game is
brought near its end as a table would (the golden scenario, then numbers fixed: tests/golden_states.py ENDINGS)
and ended by the rules' own last action. Venus 2140 has no end of game in its rules (its scenes go on).
Seen failing on the old code: the phones' main moment at VENOM's Medal of Honor was "Roll one die (button B)",
with no way to a new game.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.golden_states import ENDINGS, SCENARIOS
from tests.test_end_screen import WINNER
from tests.test_tap_budget import api, api_act, new_game
from tests.test_v2140_turns_browser import seated  # noqa: F401, F811 (a fixture: a phone per seat, closed after)

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("endgame"), MANY_NEW_GAMES)


TITLES = {"vegas": "Venusian Vegas", "venom": "VENOM Assault", "vnm": "Venus Needs Men"}


def system_title(system: str) -> str:
    return TITLES[system]


@pytest.mark.parametrize("system", sorted(ENDINGS))
def test_the_end_is_a_moment_on_every_phone_and_the_same_game_again_is_one_tap(server, seated, system):  # noqa: F811
    options, actions = SCENARIOS[system]
    *near, last = [*actions, *ENDINGS[system]]
    version = new_game(server, system, options, *near)
    seats = [s["name"] for s in api(server, "GET", "/api/sessions/active/seats")["seats"]]
    phones = seated(version, *seats)
    for p in phones:
        expect(p.page.locator("#result")).to_be_hidden()
    version = api_act(server, last)  # the rules' last action ends the game
    for p in phones:
        p.at(version)
        result = p.page.locator("#result")
        expect(result).to_be_visible()
        expect(result.locator(".result-winner")).to_contain_text(WINNER[system])
        expect(result.locator(".result-scores li")).to_have_count(len(seats) if system != "vnm" else 4)
        expect(result.locator("#again")).to_be_in_viewport()
        # The end is the moment: the table's buttons are not offered as the Now card's moves (VENOM's "Roll one
        # die (button B)" was, under the Game over card; seen in a playthrough, #34); All actions keeps them.
        expect(p.page.locator("#main-actions button")).to_have_count(0)
        # The result leads the Game tab, above the last round's summary, whichever was drawn first on this phone
        # (a playthrough: above it on VNM, under the recap on VENOM, as the phone's history had it).
        order = p.page.evaluate("() => [...document.querySelectorAll('#game > section')].map((s) => s.id)")
        assert order.index("result") < order.index("now"), order
        assert "round-end" not in order or order.index("result") < order.index("round-end"), order
        expect(result.locator("#recap-text")).to_contain_text(f"{system_title(system)}: recap")
        expect(result.locator("#recap-text")).to_contain_text("Final: ")
        # Where players keep their plays: BG Stats' own import address, with this play (tests/test_bgstats_export.py).
        expect(result.locator("#bgstats")).to_have_attribute(
            "href", re.compile(r"^https://app\.bgstatsapp\.com/createPlay\.html\?data=%7B")
        )
    shot(phones[0].page, f"end-{system}", full_page=False)
    phones[0].page.locator("#recap-text").scroll_into_view_if_needed()
    shot(phones[0].page, f"recap-{system}", full_page=False)
    first = api(server, "GET", "/api/sessions/active")["id"]
    again = phones[-1]
    again.taps = 0
    again.tap(again.page.locator("#again"))
    for p, seat in zip(phones, seats, strict=True):
        p.page.wait_for_function(f"() => S.view && S.view.id !== {first!r} && S.view.version === 0")
        expect(p.page.locator("#result")).to_be_hidden()
        expect(p.page.locator("#seat")).to_contain_text(seat)
    assert again.taps == 1
    now = api(server, "GET", "/api/sessions/active")
    assert now["system"] == system and now["id"] != first
