"""The panel in the phone's language, in a real browser (#38): a phone whose locale is German (Chromium sends
Accept-Language: de) sees the join page and the panel's own words in German, and a tap on the language control
switches this phone to English and back, remembered across reloads.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 (tests/browser_support.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import PHONE, served, shot

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("i18n"))


def german_phone(browser, server):
    context = browser.new_context(**PHONE, locale="de-DE", base_url=f"http://127.0.0.1:{server.port}")
    context.set_default_timeout(20_000)
    return context.new_page()


def test_a_german_phone_sees_the_join_page_and_the_panel_in_german(browser, server):
    page = german_phone(browser, server)
    page.goto("/join")
    expect(page.locator("label[for=code]")).to_have_text("Beitrittscode")
    expect(page.get_by_role("button", name="Dem Tisch beitreten")).to_be_visible()
    page.fill("#code", server.code)
    page.get_by_role("button", name="Dem Tisch beitreten").click()
    page.wait_for_selector("#link.live")
    assert page.locator("html").get_attribute("lang") == "de"
    tabs = page.locator("nav.tabs button")
    expect(tabs).to_have_text(["Spiel", "Verlauf", "Spiele", "Anzeige", "Regeln", "Statistik", "Einstellungen"])
    assert page.locator("#undo").text_content() == "Rückgängig"
    expect(page.locator("#link")).to_have_text("Live: Änderungen erscheinen hier, sobald sie geschehen")  # live.js t()
    expect(page.get_by_role("link", name="Würfel")).to_be_visible()
    expect(page.locator("#seat")).to_have_text("Platz: Tisch")  # the template's words, then moment.js's t()
    shot(page, "i18n-de")
    page.context.close()


def test_the_language_is_switched_on_the_phone_and_remembered(browser, server):
    page = german_phone(browser, server)
    page.goto(f"/join?code={server.code}")
    page.wait_for_selector("#link.live")
    expect(page.locator("nav.tabs button").nth(1)).to_have_text("Verlauf")
    page.get_by_role("link", name="English").click()
    page.wait_for_selector("#link.live")
    expect(page.locator("nav.tabs button").nth(1)).to_have_text("History")
    assert page.locator("#undo").text_content() == "Undo"
    expect(page.locator("#link")).to_have_text("Live: changes show here as they happen")
    page.reload()
    page.wait_for_selector("#link.live")
    expect(page.locator("nav.tabs button").nth(1)).to_have_text("History")  # the phone's choice beats its locale
    page.get_by_role("link", name="Deutsch").click()
    expect(page.locator("nav.tabs button").nth(1)).to_have_text("Verlauf")
    page.context.close()


@pytest.fixture
def game(tmp_path):
    """A table of its own with a VNM game on (its tracked numbers: each world's population), not the module's."""
    for s in served(tmp_path):
        options = {"players": ["Venus", "Mars", "Pluto"]}
        assert s.request("POST", "/api/sessions", {"system": "vnm", "options": options})[0] == 201
        yield s


def test_the_moves_the_board_its_fixes_and_the_stats_speak_german(browser, game):
    """moves.js, board.js, fix.js and stats.js through t() (#38): a phase's heading, the Fix a number list and its
    controls, and the Stats tab, in German on a German phone."""
    page = german_phone(browser, game)
    page.goto(f"/join?code={game.code}")
    page.wait_for_selector("#link.live")
    page.locator("#all-open").tap()
    expect(page.locator("#groups h3").first).to_contain_text("jetzt möglich)")  # moves.js
    expect(page.locator("#numbers-title")).to_have_text(re.compile(r"^Eine Zahl korrigieren \(\d+\)$"))  # board.js
    page.locator("#numbers-title").tap()
    first = page.locator("#numbers li").first  # fix.js
    expect(first.locator(":scope > button").nth(2)).to_have_text("Setzen")
    expect(first.locator(":scope > button").nth(0)).to_have_attribute("aria-label", re.compile(r": eins weniger$"))
    shot(page, "i18n-de-actions")
    page.locator("#all-close").tap()
    page.locator("nav.tabs button", has_text="Statistik").tap()
    expect(page.locator("#tab-stats").get_by_role("heading", name="Spieleabende")).to_be_visible()  # stats.js
    expect(page.locator("#tab-stats").get_by_role("heading", name="Längste Spiele")).to_be_visible()
    shot(page, "i18n-de-stats")
    page.context.close()
