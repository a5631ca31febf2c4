"""Defaults that are always the acting seat's own (#36), on phones at 390 x 844 with touch, one context per seat.

A seated phone's picks start at its own seat where the action is its own and never at it where the pick is someone
else (a steal's opponent); what changes another seat's state, or every seat's, asks first on that phone and names
who is affected; the table's C passes over a knocked-out participant.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.test_panel_seat_fields import action
from tests.test_tap_budget import JO_LEADS, POOLS, VNM, Phone, api, api_act, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One table for the module; every test starts its own game."""
    folder = tmp_path_factory.mktemp("defaults")
    yield from served(folder, MANY_NEW_GAMES)


def asked_first(server, p: Phone, version: int, names: str, name: str) -> None:
    """The phone asks before sending, naming ``names``; Cancel sends nothing."""
    dialog = p.page.locator("#confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(names)
    shot(p.page, name, full_page=False)
    dialog.get_by_role("button", name="Cancel").tap()
    expect(dialog).to_be_hidden()
    assert api(server, "GET", "/api/sessions/active")["version"] == version  # nothing sent


def test_vegas_a_game_steal_never_starts_at_the_claimer(browser, server):
    """Kim wins the trick and takes Lu's Game 7 (pay 1 VP to steal a random card): the Opponent left to the rules'
    random pick, never Kim herself ("Kim cannot take from themself" refused every such claim)."""
    plays = (("Jo", "Team", 5), ("Kim", "Team", 9), ("Lu", "Game", 7), ("Max", "Bot", 12))
    actions = [{"type": "play_card", "player": n, "suit": s, "number": v} for n, s, v in plays]
    vp = {"type": "correct", "key": "vp.1", "value": 2}  # Kim can pay the steal's 1 VP
    version = new_game(server, "vegas", {"players": ["Jo", "Kim", "Lu", "Max"]}, *JO_LEADS, vp, *actions)
    assert [c["player"] for c in api(server, "GET", "/api/sessions/active")["state"]["trick"]["claims"]] == ["Kim"]
    kim = Phone(browser, server, seat="Kim").at(version)
    claim = kim.moment("Take a trick bonus")
    kim.tap(claim.locator("fieldset.quick button").filter(has_text="Lu: Game 7"))
    expect(kim.said()).to_contain_text("Kim takes the trick bonus of Game 7")
    expect(kim.page.locator("#banner")).to_be_hidden()
    assert kim.taps == 1
    kim.close()


def test_vnm_a_zap_card_from_a_seated_phone_is_played_for_its_own_seat_and_asks_before_another(browser, server):
    """Cy's turn, on Ann's phone: "Played for" starts at Ann (Venus) (it started at whose turn it is and logged Cy's
    card from Ann's phone). Played for Cy, it asks first, naming Cy; Cancel sends nothing."""
    version = new_game(server, "vnm", VNM)
    ann = Phone(browser, server, seat="Ann").at(version)
    expect(ann.page.locator("#pending")).to_contain_text("Cy (Pluto)")
    zap = action(ann, "Play a Zap card")
    played_for = zap.get_by_role("group", name=re.compile("^Played for"))
    expect(played_for.get_by_label("Ann (Venus)")).to_be_checked()
    played_for.get_by_label("Cy (Pluto)").check()
    zap.locator("form .submit-row button.primary").tap()
    asked_first(server, ann, version, "Cy (Pluto)", "defaults-vnm-zap-for-another")
    played_for.get_by_label("Ann (Venus)").check()
    zap.locator("form .submit-row button.primary").tap()
    expect(ann.said()).to_contain_text("Ann (Venus) plays a Zap card")
    expect(ann.page.locator("#confirm")).to_be_hidden()
    ann.close()


def test_v2140_a_follow_up_conflict_from_a_players_phone_asks_first_naming_everyone(browser, server):
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, *POOLS[:2])
    shred = Phone(browser, server, seat="Shred").at(version)
    shred.tap(shred.page.locator("#all-open"))
    act = shred.page.locator("#groups .act").filter(
        has=shred.page.locator("button.open", has_text="Follow-up conflict")
    )
    act.locator("button.open").tap()
    asked_first(server, shred, version, "Shred, Sven, GM", "defaults-v2140-follow-up")  # every pool as it was
    shred.close()


def test_v2140_the_exchange_target_is_chosen_when_there_is_one_opponent(browser, server):
    version = new_game(server, "v2140", {"players": ["Shred"]}, *POOLS)
    shred = Phone(browser, server, seat="Shred").at(version)
    forward = shred.moment("Put dice forward")
    expect(forward.locator("form")).to_be_visible()
    expect(forward.get_by_role("group", name=re.compile("^Target")).get_by_label("GM")).to_be_checked()
    shred.tap(forward.get_by_role("button", name="Die 1 showing 6"))
    shred.submit(forward)
    expect(shred.said()).to_contain_text("Shred")
    assert shred.taps == 2
    shred.close()


def test_v2140_button_c_passes_over_a_knocked_out_participant(browser, server):
    version = new_game(
        server,
        "v2140",
        {"players": ["Shred", "Sven"]},
        {"type": "add_effect", "character": "Sven", "effect": "Knock Out", "by": "GM"},
    )
    for _ in range(3):  # to the one before Sven: the next is Sven
        state = api(server, "GET", "/api/sessions/active")["state"]
        if state["order"][(state["turn"] + 1) % len(state["order"])] == "Sven":
            break
        version = api_act(server, {"type": "next_participant"})
    table = Phone(browser, server).at(version)
    status, data = server.request("POST", "/api/buttons/C", {"hold": False})
    assert status < 300, (status, data)
    state = api(server, "GET", "/api/sessions/active")["state"]
    assert state["order"][state["turn"]] != "Sven"
    expect(table.said()).to_contain_text("past Sven (knocked out)")
    table.close()
