"""The players' guide's pictures (docs/playing.md, issue 38): each system's table moments on a real phone.

One ``tableside serve --simulate`` for the module; each test starts a game and plays it, from the phone's own
page, up to the moments the guide shows: the golden scenarios' actions (tests/scenarios/, dice typed in, so the
same picture every run), then a form opened or a button tapped as a player would. ``picture`` writes the phone's
screen to docs/images/playing-<name>.png only when it looks different from the one there (``readme_shot``, as the
README's phone picture), so a clean clone's test run leaves the tree as it was. tests/test_playing_doc.py checks
that every picture the guide links is one of the ``picture(page, "...")`` calls below.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, POST, README_IMAGES, all_actions, phone, readme_shot, served, shot
from tests.golden_states import ENDINGS, SCENARIOS

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)  # a loaded CI machine, not a speed test


def image_path(name: str) -> Path:
    """Where the guide's picture ``name`` lives: docs/images/playing-<name>.png."""
    return README_IMAGES / f"playing-{name}.png"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("playing"), MANY_NEW_GAMES)


def picture(page, name: str) -> None:
    """The phone's screen as a player sees it now, for the guide (and as a test artifact)."""
    page.wait_for_function("() => !window.S || window.S.inflight === 0")  # the join page has no S
    page.wait_for_timeout(300)  # the last change drawn, the focus ring settled
    shot(page, f"playing-{name}", full_page=False)
    readme_shot(page.screenshot(full_page=False), image_path(name))


def begin(browser, server, system: str, options: dict | None = None):
    """A new game of ``system`` (the golden scenario's players) and a phone at the table showing it."""
    status, body = server.request(
        "POST", "/api/sessions", {"system": system, "options": SCENARIOS[system][0] if options is None else options}
    )
    assert status < 300, body
    return phone(browser, server)


def play(page, actions: list[dict]) -> None:
    """Send ``actions`` from the phone's page, as its forms send them, each accepted and drawn."""
    for action in actions:
        before = page.evaluate("() => S.view.version")
        status, body = page.evaluate(POST, action)
        assert status == 200, (action, body)
        page.wait_for_function(f"() => S.view.version > {before}")


def top(page) -> None:
    """Back to the top of the page (the moment card under the header)."""
    page.evaluate("window.scrollTo(0, 0)")


def below_header(page, element) -> None:
    """Scroll ``element`` to just under the phone's sticky header."""
    element.evaluate("e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 200)")


def said_in_full(page) -> None:
    """Open the last change's words when they run past the bar's lines ("More")."""
    more = page.locator("#said-more")
    if more.is_visible():
        more.tap()


def test_getting_started_join_new_game_and_seat(browser, tmp_path):
    server = next(empty := served(tmp_path))  # a table with no game yet, whatever ran before
    page = phone(browser, server, join=False)
    page.goto("/")
    page.get_by_label("Join code").fill(server.code.lower())  # any case: the code as the e-paper shows it
    picture(page, "start-join")
    page.get_by_role("button", name="Join the table").tap()
    expect(page.locator("#link")).to_have_class("link live")
    page.get_by_role("button", name="Games", exact=True).tap()
    page.locator("#system-box label", has_text="Venus Needs Men").tap()
    players = page.get_by_role("group", name=re.compile("^Players"))
    expect(players).to_be_visible()
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        players.locator(".list-row, .rows-item").nth(i).locator("input[type=text]").first.fill(name)
    top(page)
    picture(page, "start-new-game")
    page.get_by_role("button", name="Start new game").tap()
    expect(page.locator("#title")).to_contain_text("Venus Needs Men")
    page.locator("#seat").tap()
    expect(page.locator("#seat-list").get_by_role("button", name="Table (a shared phone)")).to_be_visible()
    picture(page, "start-seat")
    page.context.close()
    next(empty, None)


def test_venus_needs_men_an_attack_roll_a_fixed_number_and_the_end(browser, server):
    page = begin(browser, server, "vnm")
    play(page, SCENARIOS["vnm"][1])  # Ann collects, Bob builds, Ann attacks Cy's land area: 9 and 3
    expect(page.locator("#said")).to_contain_text("rolled 9 and 3")
    said_in_full(page)
    picture(page, "vnm-attack")
    all_actions(page)
    page.locator("#numbers-title").tap()
    row = page.locator("#numbers li").filter(has_text=re.compile(r"^\s*Ann \(Venus\): population"))
    expect(row.first).to_be_visible()
    row.first.scroll_into_view_if_needed()
    picture(page, "vnm-fix")
    page.locator("#all-close").tap()
    play(page, ENDINGS["vnm"])
    expect(page.locator("#tab-game")).to_contain_text("Game over")
    expect(page.locator("#recap-text")).to_contain_text("Turning points")
    top(page)
    picture(page, "vnm-end")
    page.context.close()


def test_venom_assault_choosing_the_leader_and_the_combat_roll(browser, server):
    page = begin(browser, server, "venom")
    actions = SCENARIOS["venom"][1]
    leader = next(i for i, a in enumerate(actions) if a["type"] == "choose_leader")
    play(page, actions[:leader])  # the Event card drawn, on to the Tactical Phase
    form = page.locator("#main-actions .act form").filter(has=page.get_by_label("Leader's name"))
    expect(form).to_be_visible()  # the move the table waits for is open by itself
    form.get_by_label("Leader's name").fill(actions[leader]["name"])
    picture(page, "venom-leader")
    form.get_by_role("button", name="Cancel").tap()
    play(page, actions[leader:])  # Vipress chosen, the dice allocated, the Combat roll 4, 6, 4, 2, 1
    expect(page.locator("#said")).to_contain_text("Rolled 4,6,4,2,1")
    said_in_full(page)
    top(page)
    picture(page, "venom-combat")
    page.locator("#pending").get_by_role("button", name="Rule").first.tap()  # the rulebook's words for this step
    expect(page.get_by_role("dialog")).to_be_visible()
    picture(page, "venom-rule")
    page.context.close()


def test_venusian_vegas_playing_a_card_and_a_trick_result(browser, server):
    page = begin(browser, server, "vegas")
    actions = SCENARIOS["vegas"][1]
    trick = next(i for i, a in enumerate(actions) if a["type"] == "play_trick")
    play(page, actions[:trick])  # the tracks set up, the round started, Bob leads
    page.locator("#main-actions .act > button.open", has_text="Play a card").tap()
    form = page.locator("#main-actions .act form").first
    expect(form).to_be_visible()
    form.get_by_text("Game", exact=True).first.tap()
    picture(page, "vegas-card")
    form.get_by_role("button", name="Cancel").tap()
    play(page, [actions[trick]])  # Bob Game 9, Cy Team 7, Ann Bot 2 with her Game token: Trump Bot
    expect(page.locator("#said")).to_contain_text("Trick 1: Ann wins")
    said_in_full(page)
    top(page)
    picture(page, "vegas-trick")
    page.context.close()


def test_venus_2140_drawing_a_pool_and_an_exchange(browser, server):
    page = begin(browser, server, "v2140")
    actions = SCENARIOS["v2140"][1]
    pool = actions[0]
    act = page.locator("#main-actions > .act", has=page.locator("button.open", has_text=re.compile("draw dice", re.I)))
    if not act.first.locator("form").count():  # the move the table waits for opens by itself
        act.first.locator("button.open").tap()
    form = act.first.locator("form")
    expect(form).to_be_visible()
    below_header(page, act.first.locator("button.open"))
    picture(page, "v2140-pool")
    form.get_by_role("button", name="Cancel").tap()
    assert pool["type"] == "prepare_pool"
    resolve = next(i for i, a in enumerate(actions) if a["type"] == "resolve")
    play(page, actions[:resolve])  # both pools drawn and rolled, initiative, Shred's 6 answered with a 4
    expect(page.get_by_role("button", name=re.compile("Resolve the exchange"))).to_be_visible()
    top(page)
    picture(page, "v2140-exchange")
    page.context.close()
