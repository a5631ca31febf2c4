"""One request per tap: the tap that sends a change costs the acting phone exactly one request.

On each system's main moment (as ``tests/test_tap_budget.py`` plays it) the browser's own network log
(Playwright's ``page.on("request")``) is read from the sending tap until the result is on screen, the
live event of that change has reached the page (DevTools' ``Network.eventSourceMessageReceived``) and
nothing is in flight: the POST alone, whose answer carries the moment the page redraws. Before, a tap cost
the POST (with a state the page never read), a ``/moment`` patch, and often a second ``/moment`` that
changed nothing, asked again because the live event arrived while the first was out.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served
from tests.test_tap_budget import JO_LEADS, LEADER, POOLS, TACTICAL, VEGAS_PLAYERS, VENUS_TURN, VNM, Phone, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)
SETTLE_MS = 400  # after the event and with nothing in flight: a request the event would cause is out by then


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("one-request"), MANY_NEW_GAMES)


class Watched(Phone):
    """A phone whose requests and live events are recorded from ``watch()`` on."""

    def __init__(self, browser, server, seat: str | None = None) -> None:
        super().__init__(browser, server, seat)
        self.requests: list[str] | None = None
        self.events: list[dict] = []
        self.page.on("request", self._request)
        cdp = self.page.context.new_cdp_session(self.page)
        cdp.on("Network.eventSourceMessageReceived", self._event)
        cdp.send("Network.enable")

    def _request(self, request) -> None:
        if self.requests is not None:
            self.requests.append(f"{request.method} {request.url.split('/', 3)[-1]}")

    def _event(self, e) -> None:
        if e.get("eventName") == "change":
            self.events.append(json.loads(e["data"]))

    def watch(self) -> None:
        self.requests = []

    def settled(self, version: int) -> list[str]:
        """The requests since ``watch()``, once the change to ``version`` is shown, its event heard and the
        page has nothing in flight."""
        self.page.wait_for_function(f"() => S.view && S.view.version === {version}")
        self.page.wait_for_timeout(50)
        deadline = 15_000
        while not any(e.get("version", 0) >= version for e in self.events) and deadline > 0:
            self.page.wait_for_timeout(50)
            deadline -= 50
        assert deadline > 0, f"the live event for version {version} never reached the page: {self.events}"
        self.page.wait_for_timeout(SETTLE_MS)
        self.page.wait_for_function("() => S.inflight === 0")
        self.page.wait_for_timeout(SETTLE_MS)
        return list(self.requests or [])


def one_post(requests: list[str], route: str) -> None:
    assert [r.split("?")[0] for r in requests] == [f"POST {route}"], requests


def test_vnm_collect_is_one_request(browser, server):
    version = new_game(server, "vnm", VNM, *VENUS_TURN)
    p = Watched(browser, server).at(version)
    collect = p.moment("Collect population")
    p.tap(collect.locator("button.open"))
    p.watch()
    p.tap(collect.get_by_role("button", name="China"))
    expect(p.said()).to_contain_text("collects 1 from China")
    one_post(p.settled(version + 1), "api/sessions/active/actions")
    expect(p.page.locator("#main-actions")).to_contain_text("Collect population")  # the moment redrawn
    p.close()


def test_venom_combat_roll_is_one_request(browser, server):
    allocate = {"type": "allocate_dice", "combat_value": 3, "support_dice": 2}
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL, LEADER, allocate)
    p = Watched(browser, server).at(version)
    roll = p.moment("Roll the Combat Dice")
    p.watch()
    p.submit(roll)
    expect(p.said()).to_contain_text(re.compile("success(es)? vs Health 3"))
    one_post(p.settled(version + 1), "api/sessions/active/actions")
    p.close()


def test_vegas_playing_a_card_is_one_request(browser, server):
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)
    p = Watched(browser, server, seat="Jo").at(version)
    form = p.moment("Play a card").locator("form")
    expect(form).to_be_visible()
    p.tap(form.get_by_role("group", name="Suit", exact=True).get_by_text("Team", exact=True))
    p.tap(form.get_by_role("button", name="Number: 5", exact=True))
    p.watch()
    p.submit(p.moment("Play a card"))
    expect(p.said()).to_contain_text("Jo plays Team 5")
    one_post(p.settled(version + 1), "api/sessions/active/actions")
    expect(p.page.locator("#pending")).to_contain_text("Kim")  # the next seat's card is waited for
    p.close()


def test_v2140_exchange_is_one_request_for_each_phone_that_taps(browser, server):
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, *POOLS)
    shred, gm = (Watched(browser, server, seat=s).at(version) for s in ("Shred", "GM"))
    forward = shred.moment("Put dice forward")
    shred.tap(forward.get_by_role("group", name=re.compile("^Target")).get_by_text("GM", exact=True))
    shred.tap(forward.get_by_role("button", name="Die 1 showing 6"))
    shred.watch()
    shred.submit(forward)
    expect(shred.said()).to_contain_text("Shred")
    one_post(shred.settled(version + 1), "api/sessions/active/actions")
    gm.at(version + 1)
    answer = gm.moment("Answer the exchange")
    gm.tap(answer.get_by_role("button", name="Die 2 showing 4"))
    gm.watch()
    gm.submit(answer)
    one_post(gm.settled(version + 2), "api/sessions/active/actions")
    gm.watch()
    gm.tap(gm.moment("Resolve the exchange").locator("button.open"))
    expect(gm.said()).to_contain_text(re.compile("book", re.I))
    one_post(gm.settled(version + 3), "api/sessions/active/actions")
    for p in (shred, gm):
        p.close()


def test_a_table_button_pressed_on_a_phone_is_one_request(browser, server):
    version = new_game(server, "vnm", VNM, *VENUS_TURN, *VENUS_TURN)  # Bob (Mars)'s turn
    p = Watched(browser, server, seat="Cy").at(version)
    other = Watched(browser, server, seat="Ann").at(version)
    other.watch()
    fold = p.page.locator("details.table-buttons")
    fold.locator("summary").tap()
    p.watch()
    p.tap(fold.get_by_role("button", name="End turn (button C)"))
    p.page.locator("#confirm-yes").tap()  # Bob's turn, from Cy's phone: asked first, nothing sent before
    expect(p.said()).to_contain_text("Button C")
    # Ending Bob's turn ends VNM's round: the round's end (#34) rides in the POST's answer (the view's
    # ``round_end``), so the tap is one request to the server's API; rounds.js and its style are static files the
    # page loads once, the first time a round ends on it (told apart here: no API request among them).
    static = ("GET static/js/rounds.js", "GET static/later.css")
    sent = p.settled(version + 1)
    one_post([r for r in sent if r.split("?")[0] not in static], "api/buttons/C")
    expect(p.page.locator("#round-end")).to_contain_text("is over")
    # Another phone hears the change and asks for its moment, which carries the round's end: nothing more.
    heard = [r.split("?")[0] for r in other.settled(version + 1) if r.split("?")[0] not in static]
    assert heard == ["GET api/sessions/active/moment"], heard
    expect(other.page.locator("#round-end")).to_contain_text("is over")
    p.close()
    other.close()


def test_undo_is_one_request(browser, server):
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL)
    p = Watched(browser, server).at(version)
    p.tap(p.page.locator("#all-open"))
    p.tap(p.page.locator("#numbers-title"))
    expect(p.page.locator("#numbers li").first).to_be_visible()  # the list drawn (fix.js, fetched as it opens)
    p.watch()
    p.tap(p.page.get_by_role("button", name="Event Track: one more"))
    expect(p.said()).to_contain_text("Event Track")
    one_post(p.settled(version + 1), "api/sessions/active/actions")
    p.watch()
    p.tap(p.page.locator("#undo"))
    expect(p.said()).to_contain_text("undid")
    one_post(p.settled(version + 2), "api/sessions/active/undo")
    p.close()
