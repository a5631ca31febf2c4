"""What QA found at 390 x 844 after the moment redesign (#17): fixed, and kept fixed.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 with touch, as in
tests/test_tap_budget.py: a page with no game, the last-change bar with a long change, a form
error said once next to its field, the New game form's optional picks.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, phone, served, shot

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("polish"), MANY_NEW_GAMES)


def watch_errors(page) -> list[str]:
    """Every console error and uncaught exception the page has, from now on (a 404 fetch is one)."""
    seen: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.append(str(e)))
    return seen


@pytest.fixture
def empty(tmp_path):
    """A server of its own where no game was ever started."""
    yield from served(tmp_path)


def test_a_table_with_no_game_offers_to_start_one_and_shows_no_error(browser, empty):
    page = phone(browser, empty, join=False)
    errors = watch_errors(page)
    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status) if "/active/moment" in r.url else None)
    page.goto(f"/join?code={empty.code}")
    expect(page.locator("#link.live")).to_be_visible()
    page.wait_for_function("() => S.started && S.inflight === 0")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.get_by_role("button", name="Start new game")).to_be_visible()
    shot(page, "no-game")
    page.evaluate("() => refresh('poll')")  # the poll fallback's request (the stream refused), with no game
    page.wait_for_function("() => S.inflight === 0")
    expect(page.locator("#banner")).to_be_hidden()
    page.get_by_role("button", name="Game", exact=True).tap()
    expect(page.locator("#no-game")).to_contain_text("No game on this table yet")
    page.locator("#no-game").get_by_role("button", name="Games").tap()
    expect(page.get_by_role("button", name="Start new game")).to_be_visible()
    assert len(answers) >= 2 and all(s == 200 for s in answers), answers
    assert errors == [], errors
    page.context.close()
