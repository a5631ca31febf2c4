"""The panel in the phone's language, in a real browser (#38): a phone whose locale is German (Chromium sends
Accept-Language: de) sees the join page and the panel's own words in German, and a tap on the language control
switches this phone to English and back, remembered across reloads.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 (tests/browser_support.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, PHONE, all_actions, served, shot
from tests.golden_states import ENDINGS, SCENARIOS
from tests.test_tap_budget import api, api_act

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("i18n"), MANY_NEW_GAMES)


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


def test_the_scripts_a_phone_loads_later_speak_german_too(browser, server):
    """One phrase at least of each script converted last (moment, said, rules, settings, clock, rounds, recap, the
    dice page's dice.js), seen in German on a 390 x 844 German phone; undo is told from the entry, not its words."""
    page = german_phone(browser, server)
    page.goto(f"/join?code={server.code}")
    page.wait_for_selector("#link.live")
    page.get_by_role("button", name="Regeln").tap()  # rules.js, fetched with the tab
    expect(page.locator("#tab-rules h2")).to_have_text("Regelhefte")
    page.locator("#rules-q").fill("attack")
    page.get_by_role("button", name="Suchen", exact=True).tap()
    expect(page.locator("#rules-note")).to_contain_text("Stellen, die besten zuerst")
    expect(page.locator("#rules-found .rule-place").first).to_contain_text("Zeile")
    page.get_by_role("button", name="Einstellungen").tap()  # settings.js: this phone has no owner PIN
    expect(page.get_by_role("button", name="Einstellungen öffnen")).to_be_visible()
    expect(page.locator("label[for=owner-pin]")).to_have_text("Besitzer-PIN")

    options, actions = SCENARIOS["vnm"]
    api(server, "POST", "/api/sessions", {"system": "vnm", "options": options, "clock": True})
    page.get_by_role("button", name="Spiel", exact=True).tap()
    # said.js: who, in German (the clock's entry is the first; its summary is the server's own words)
    expect(page.locator("#said")).to_contain_text("Ein Skript (die HTTP-API): ")
    expect(page.locator("#version")).to_contain_text("· Version 1")  # moment.js
    expect(page.locator("#clock-pause")).to_have_text("Uhr anhalten")  # clock.js
    for action in actions:
        api_act(server, action)
    api(server, "POST", "/api/sessions/active/undo", {})
    expect(page.locator("#said")).to_contain_text("Ein Skript (die HTTP-API) hat rückgängig gemacht: Ann (Venus) vs")
    shot(page, "i18n-de-game", full_page=False)
    api(server, "POST", "/api/sessions/active/redo", {})  # told from the entry's type, never its English "Redid:"
    expect(page.locator("#said")).to_contain_text("Ein Skript (die HTTP-API) hat wiederholt: Ann (Venus) vs")
    for action in ENDINGS["vnm"]:
        api_act(server, action)
    expect(page.locator("#result-title")).to_have_text("Spiel vorbei")  # recap.js
    expect(page.get_by_role("button", name="Neues Spiel mit denselben Spielern")).to_be_visible()

    options, actions = SCENARIOS["vegas"]
    api(server, "POST", "/api/sessions", {"system": "vegas", "options": options})
    for action in [*actions, *ENDINGS["vegas"][:7]]:
        api_act(server, action)
    # rounds.js; "Round 1" is the rules' own name, marked with N_ and given in German by webui.i18n.spoken
    expect(page.locator("#round-end-title")).to_have_text("Runde 1 ist vorbei")

    page.goto("/dice")  # dice.js, its own page with this phone's catalog
    page.get_by_role("button", name="Nach Würfeln suchen").tap()
    expect(page.locator("#dice-list li").first).to_contain_text("rot · Akku 97 % · nicht gekoppelt · für alle")
    expect(page.locator("#dice-list li").first.get_by_role("button", name="Koppeln")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "i18n-de-dice", full_page=False)


def test_the_games_tab_and_an_action_form_speak_german(browser, server):
    """games.js, fields.js and forms.js through t(): the Saved games list, the New game form's fields and an action
    form's buttons in German on a German phone (each phrase English before #38's conversion of these scripts)."""
    for system in ("venom", "vnm"):
        status, data = server.request("POST", "/api/sessions", {"system": system})
        assert status < 300, (status, data)
    page = german_phone(browser, server)
    page.goto(f"/join?code={server.code}")
    page.wait_for_selector("#link.live")
    page.get_by_role("button", name="Spiele", exact=True).tap()
    active = page.locator("#sessions li.active")
    expect(active).to_contain_text("(läuft gerade)")  # games.js
    expect(active).to_contain_text("Aktionen · begonnen")
    expect(page.get_by_role("button", name="Dieses Spiel spielen").first).to_be_visible()
    expect(page.get_by_role("link", name="Als JSON exportieren").first).to_be_visible()
    page.locator("#system-box label", has_text="VENOM").tap()
    players = page.locator("#option-fields")
    expect(players.get_by_role("button", name=re.compile("^Hinzufügen: ")).first).to_be_visible()  # fields.js
    expect(players.get_by_role("button", name=re.compile(" entfernen$")).first).to_be_attached()
    shot(page, "i18n-de-games")
    page.get_by_role("button", name="Spiel", exact=True).tap()
    all_actions(page)
    page.locator("#groups .act > button.open[aria-expanded]").first.tap()
    form = page.locator("#groups .act form").first
    expect(form.locator(".submit-row").get_by_role("button", name="Abbrechen")).to_be_visible()  # forms.js
    shot(page, "i18n-de-form", full_page=False)


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


def test_a_refused_action_shows_its_german_words_on_a_german_phone(browser, server):
    """A refusal the core builds (core/table.py, marked with N_) reaches the phone in German (webui.i18n.say): a
    new game has nothing to undo; the page's Undo is forced on to ask anyway, and the banner says why not."""
    status, data = server.request("POST", "/api/sessions", {"system": "venom"})
    assert status < 300, (status, data)
    page = german_phone(browser, server)
    page.goto(f"/join?code={server.code}")
    page.wait_for_selector("#link.live")
    page.locator("#undo").evaluate("b => { b.disabled = false; }")
    page.locator("#undo").tap()
    expect(page.locator("#banner")).to_contain_text("nichts rückgängig zu machen")
    shot(page, "i18n-de-refused", full_page=False)
    page.context.close()
