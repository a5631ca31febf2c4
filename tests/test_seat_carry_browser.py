"""A phone across a new game, in chromium at 390 x 844 (#17 QA F10, F14, F15): never a dead end.

- F14: a seated phone closed (or reloaded, as phones do when they sleep) across a new game came back to an
  empty Game tab, every request a 409 for the old game's seat cookie, "live updates are busy", and a
  reload did not help: only Seat > Table cleared it.
- F10: a new game with the same names unseated every phone (Seat and the name again on each).
- F15: Seat > Jo right after New game: the page's own new-game reset ran after the claim, so the phone
  showed the table view while Jo's seat stayed held, "(taken)" even to that phone, for 2 minutes.
"""

from __future__ import annotations

import http.client
import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.test_panel_played import VEGAS_PLAYERS, VNM, new_game_form, seated
from tests.test_tap_budget import api, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("carry"), MANY_NEW_GAMES)


def settled(page, system: str) -> None:
    page.wait_for_function(f"() => S.view && S.view.system === '{system}' && !S.inflight && !S.refreshing")


def reopen(context, server):
    """The phone's browser opens the panel again (the same cookies and storage): a phone woken from sleep."""
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{server.port}/")
    return page


def test_a_phone_reopened_after_a_new_game_without_its_seat_shows_the_game_as_a_table_phone(browser, server):
    version = new_game(server, "vnm", VNM)
    cy = seated(browser, server, "Cy", version)
    context = cy.context
    cy.close()  # the phone sleeps; a VENOM game with other names starts meanwhile
    new_game(server, "venom", {"players": ["Ann", "Bob"]})
    cy = reopen(context, server)
    settled(cy, "venom")
    expect(cy.locator("#seat")).to_have_text("Seat: table")
    expect(cy.locator("#said")).to_contain_text("This phone sat at Cy's seat: tap Seat to sit in this game.")
    expect(cy.locator("#pending li").first).to_be_visible()  # the game's moment, not an empty tab
    expect(cy.locator("#link")).to_have_class(re.compile(r"\blive\b"))
    expect(cy.locator("#link")).not_to_contain_text("busy")
    expect(cy.locator("#banner")).to_be_hidden()
    shot(cy, "seat-carry-reopened-table")
    # Said once: a reload shows the game, and nothing more about a seat already dropped.
    cy.reload()
    settled(cy, "venom")
    expect(cy.locator("#seat")).to_have_text("Seat: table")
    expect(cy.locator("#said")).not_to_contain_text("sat at")
    expect(cy.locator("#pending li").first).to_be_visible()
    # The old game, reopened, offers Cy's seat to anyone: no phone holds it any more.
    vnm = next(s for s in api(server, "GET", "/api/sessions") if s["system"] == "vnm")
    api(server, "POST", "/api/sessions/active/activate", {"id": vnm["id"]})
    claimed = {s["name"]: s["claimed"] for s in api(server, "GET", "/api/sessions/active")["seats"]}
    assert claimed == {"Ann": False, "Bob": False, "Cy": False}
    context.close()


def test_a_phone_whose_seat_went_to_another_phone_while_it_slept_says_so_once(browser, server):
    version = new_game(server, "vnm", VNM)
    ann = seated(browser, server, "Ann", version)
    token = ann.evaluate("() => mySeat().token")
    context = ann.context
    ann.close()
    # Its seat goes (as a takeover after 2 minutes away would): the phone keeps a cookie that holds nothing.
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    headers = {"Authorization": f"Bearer {server.code}", "X-Tableside-Seat": token, "Content-Type": "application/json"}
    conn.request("POST", "/api/sessions/active/seats/release", body="{}", headers=headers)
    assert conn.getresponse().status == 200
    conn.close()
    other = seated(browser, server, "Ann", version)  # Ann's seat now on another phone
    ann = reopen(context, server)
    settled(ann, "vnm")
    expect(ann.locator("#seat")).to_have_text("Seat: table")
    expect(ann.locator("#said")).to_contain_text("This phone sat at Ann (Venus)'s seat: tap Seat to sit in this game.")
    expect(ann.locator("#banner")).to_be_hidden()
    expect(other.locator("#seat")).to_have_text("Seat: Ann")
    for page in (ann, other):
        page.context.close()


def test_a_new_game_with_the_same_names_keeps_each_phone_at_its_seat(browser, server):
    version = new_game(server, "vnm", VNM)
    ann, bob = seated(browser, server, "Ann", version), seated(browser, server, "Bob", version)
    context = bob.context
    bob.close()  # Bob's phone is asleep when the new game starts
    old = api(server, "GET", "/api/sessions/active")["id"]
    names = new_game_form(ann, "Venus Needs Men").get_by_role("textbox", name=re.compile("^Name"))
    for i, name in enumerate(("Ann", "Bob", "Cy")):
        names.nth(i).fill(name)
    ann.get_by_role("button", name="Start new game").tap()
    ann.locator("#confirm-yes").tap()
    ann.wait_for_function(f"() => S.view && S.view.id !== {old!r} && !S.inflight && !S.refreshing")
    expect(ann.locator("#seat")).to_have_text("Seat: Ann")
    expect(ann.locator("#said")).to_contain_text(re.compile(r"This phone still sits at Ann( \(\w+\))?'s seat\."))
    shot(ann, "seat-carry-kept")
    bob = reopen(context, server)
    settled(bob, "vnm")
    expect(bob.locator("#seat")).to_have_text("Seat: Bob")
    view = bob.evaluate("() => api('GET', '/api/sessions/active?brief=1')")
    assert view["seat"] == "Bob" and view["version"] == 0
    claimed = {s["name"]: s["claimed"] for s in api(server, "GET", "/api/sessions/active")["seats"]}
    assert claimed == {"Ann": True, "Bob": True, "Cy": False}
    # Bob's phone opens its own seat in the dialog as its own, not "(taken)".
    bob.locator("#seat").tap()
    expect(bob.locator("#seat-list button.primary")).to_have_text("Bob (Mars)")
    for page in (ann, bob):
        page.context.close()


def test_seating_right_after_a_new_game_keeps_the_seat(browser, server):
    version = new_game(server, "vnm", VNM)
    jo = seated(browser, server, "Ann", version)
    # The new game's news has not reached this phone yet when Seat is tapped: it still shows the old game.
    jo.evaluate("() => S.stream.close()")
    new_game(server, "vegas", {"players": VEGAS_PLAYERS})
    jo.locator("#seat").tap()
    jo.locator("#seat-list").get_by_role("button", name=re.compile(r"^Jo( \(|$)")).tap()
    expect(jo.locator("#seat")).to_have_text("Seat: Jo")
    settled(jo, "vegas")
    expect(jo.locator("#seat")).to_have_text("Seat: Jo")
    assert jo.evaluate("() => api('GET', '/api/sessions/active?brief=1')")["seat"] == "Jo"
    jo.reload()  # and after a reload (the cookie and the page agree)
    settled(jo, "vegas")
    expect(jo.locator("#seat")).to_have_text("Seat: Jo")
    jo.locator("#seat").tap()
    expect(jo.locator("#seat-list button.primary")).to_have_text("Jo")
    expect(jo.locator("#seat-list")).not_to_contain_text("(taken)")  # no seat held by a phone that is gone
    # The table sees Jo's seat held by this phone and no other seat held by nobody.
    claimed = {s["name"]: s["claimed"] for s in api(server, "GET", "/api/sessions/active")["seats"]}
    assert claimed == {"Jo": True, "Kim": False, "Lu": False, "Max": False}
    jo.context.close()
