"""Whose turn is next (#34): with one browser context per seat, "You're next" is said on the next seat's phone
only, and it moves on with the turn.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 (tests/browser_support.py). The games
are the golden scenarios (tests/golden_states.py): Ann's turn, Bob next in Venus Needs Men (play passes to the
left) and in VENOM Assault (the next player's Turn). Seen failing before: no phone said whose turn follows.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.golden_states import SCENARIOS
from tests.test_tap_budget import api, api_act, new_game
from tests.test_v2140_turns_browser import seated  # noqa: F401, F811 (a fixture: a phone per seat, closed after)

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)
# (system, the action that ends Ann's turn, whose turn then, who is next then)
TURNS = {
    "vnm": ({"type": "end_turn"}, "Bob", "Cy"),
    "venom": ({"type": "next_phase"}, "Bob", "Cy"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("upnext"), MANY_NEW_GAMES)


def said_next(phones, seats: list[str | None], who: str) -> None:
    """ "You're next" on ``who``'s phone, on no other (the table phone included)."""
    for p, seat in zip(phones, seats, strict=True):
        line = p.page.locator("#pending #up-next")
        if seat == who:
            expect(line).to_have_text("You're next")
            expect(line).to_be_in_viewport()
        else:
            expect(line).to_have_count(0)


@pytest.mark.parametrize("system", sorted(TURNS))
def test_you_re_next_on_the_next_seat_s_phone_only(server, seated, system):  # noqa: F811
    options, actions = SCENARIOS[system]
    version = new_game(server, system, options, *actions)
    view = api(server, "GET", "/api/sessions/active?brief=1")
    assert view["next"] == "Bob", view["pending"]
    seats: list[str | None] = [s["name"] for s in api(server, "GET", "/api/sessions/active/seats")["seats"]]
    seats.append(None)  # a table phone: nobody's turn is its own
    phones = seated(version, *seats)
    said_next(phones, seats, "Bob")
    action, now, after = TURNS[system]
    while True:  # VENOM: the phases of Ann's Turn, to its end
        version = api_act(server, action)
        view = api(server, "GET", "/api/sessions/active?brief=1")
        if view["pending"] and view["pending"][0]["seat"] != "Ann":
            break
    assert view["pending"][0]["seat"] == now and view["next"] == after
    for p in phones:
        p.at(version)
    said_next(phones, seats, after)
    shot(phones[seats.index(after)].page, f"up-next-{system}", full_page=False)
