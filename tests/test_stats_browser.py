"""The Stats page on a phone (#34), at 390 x 844 in Debian's chromium (tests/browser_support.py): forty games over
a dozen game nights (tests/stats_games.py, the table's clock the test's), the New game form offering the names
the table has seen, the Stats tab fetched on its first opening with each player's figures as GET /api/stats gives
them, a game left out with one tap, and screenshots of the page (tests/_output/stats*.png)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.browser_support import chromium, phone, shot
from tests.live import CODE
from tests.stats_games import NAMES, Games, play_nights, served

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    for client, clock, _table in served(tmp_path_factory.mktemp("statspage")):
        games = Games(client, clock, random.Random(7))
        play_nights(games, 40)
        yield SimpleNamespace(port=client.conn.port, code=CODE, client=client, games=games)


def test_the_new_game_form_offers_the_names_the_table_has_seen(browser, table):
    """Each name seen is one tap into the next empty name field: nobody retypes "Ann"."""
    page = phone(browser, table)
    page.tap("nav.tabs >> text=Games")
    page.locator("#system-box label", has_text="VENOM Assault").tap()
    offered = page.locator("#people-seen button")
    expect(offered).to_have_count(len(NAMES))
    names = offered.all_inner_texts()
    assert sorted(n.casefold() for n in names) == sorted(n.casefold() for n in NAMES)  # as first typed
    offered.nth(0).tap()
    offered.nth(1).tap()
    players = page.locator("#option-fields input[data-person]")
    expect(players.nth(0)).to_have_value(names[0])
    expect(players.nth(1)).to_have_value(names[1])
    offered.nth(0).scroll_into_view_if_needed()
    shot(page, "new-game-names", full_page=False)
    page.context.close()


def test_the_stats_page_shows_each_players_figures_and_leaves_a_game_out(browser, table):
    stats = table.client.json("GET", "/api/stats")
    page = phone(browser, table)
    page.tap("nav.tabs >> text=Stats")
    tab = page.locator("#tab-stats")
    expect(tab.get_by_role("heading", name="Game nights")).to_be_visible()
    expect(tab.locator(".stats-sum")).to_contain_text(f"{stats['games']} games on {len(stats['nights'])} game nights")
    expect(tab.locator(".cal .night")).to_have_count(len(stats["nights"]))
    for p in stats["players"]:
        card = tab.get_by_role("article", name=p["name"])
        expect(card).to_contain_text(f"{p['games']} games · {p['wins']} win")
        for s in p["systems"]:
            row = card.locator("tr", has_text=s["name"])
            expect(row.locator("td").nth(1)).to_have_text(str(s["games"]))
        if p["rival"]:
            rival = p["rival"]
            expect(card).to_contain_text(f"Rival: {rival['name']}, who beat {p['name']} {rival['beat_you']} time")
        if p["favourite"]:
            expect(card).to_contain_text(f"Favourite world: {p['favourite']['faction']}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    shot(page, "stats", full_page=False)
    tab.get_by_role("article").first.scroll_into_view_if_needed()
    shot(page, "stats-player", full_page=False)
    shot(page, "stats-all")
    longest = stats["longest"][0]
    tab.locator(".games-list li", has_text=longest["time"]).first.get_by_role(
        "button", name="Leave out of the stats"
    ).tap()
    expect(tab.locator(".stats-sum")).to_contain_text(f"{stats['games'] - 1} games")
    expect(tab.locator(".stats-sum")).to_contain_text("(1 left out)")
    assert table.client.json("GET", "/api/stats")["left_out_games"][0]["id"] == longest["id"]
    tab.get_by_role("button", name="Count it again").tap()
    expect(tab.locator(".stats-sum")).to_contain_text(f"{stats['games']} games")
    page.context.close()
