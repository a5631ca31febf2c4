"""Why, one tap away (#35): a refusal on the phone opens the passage of the rulebook it rests on in one tap.

A real ``tableside serve`` and Chromium at a phone's size (390 x 844, touch). Venus Needs Men starts with
three Zap cards in each hand; drawing a fourth is refused, and the refusal's "Rule" opens the book's
"You can keep three Zap cards in your hand" under its heading and line, that sentence marked, from the
table alone (nothing fetched beyond the table).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import all_actions, phone, served, shot
from tests.rulebook_quotes import quoted

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

DECLARE = quoted("vnm", "You must declare which enemy spaceship you are attacking before you roll the dice.")
HAND = quoted("vnm", "You can keep three Zap cards in your hand; each is played once and then discarded.")


@pytest.fixture
def server(tmp_path):
    yield from served(tmp_path)


def test_a_refusal_opens_its_rule_in_one_tap(browser, server):
    status, made = server.request(
        "POST", "/api/sessions", {"system": "vnm", "options": {"players": ["Venus", "Mars", "Pluto"]}}
    )
    assert status == 201, made
    page = phone(browser, server)
    away = []
    page.on(
        "request", lambda r: away.append(r.url) if not r.url.startswith(f"http://127.0.0.1:{server.port}/") else None
    )
    all_actions(page)
    act = page.locator("#groups .act").filter(has=page.locator("button.open", has_text=re.compile("^Draw Zap cards")))
    act.locator("button.open").tap()
    form = act.locator("form")
    expect(form).to_be_visible()
    shot(page, "rule-link-form")
    form.get_by_role("button", name="Draw Zap cards").tap()  # Pluto's hand holds three already
    problem = form.locator(".form-error, .field-error").filter(has_text="a hand holds three")
    expect(problem).to_be_visible()
    rule = problem.get_by_role("button", name="Rule")
    expect(rule).to_be_visible()
    rule.tap()  # the one tap
    box = page.get_by_role("dialog", name="The rule")
    expect(box).to_be_visible()
    expect(box.locator(".rule-place")).to_have_text("Venus Needs Men · Parts of the Game · line 53")
    expect(box.locator("blockquote mark")).to_have_text(HAND)  # the sentence, marked in its paragraph
    expect(box.locator("blockquote")).to_contain_text("36 Zap cards. These are kept secret.")
    shot(page, "rule-link-dialog", full_page=False)
    assert away == []  # offline: the passage came with the refusal, from the table
    box.get_by_role("button", name="Close").tap()
    expect(box).to_be_hidden()


def test_a_table_button_s_refusal_on_the_banner_opens_its_rule_in_one_tap(browser, server):
    """Button A with no target declared: every phone's banner says the refusal, and its "Rule" is one tap."""
    server.request("POST", "/api/sessions", {"system": "vnm", "options": {"players": ["Venus", "Mars", "Pluto"]}})
    page = phone(browser, server)
    expect(page.locator("#link")).to_have_class("link live")
    status, body = server.request("POST", "/api/buttons/A", {"hold": False})  # the table's button, pressed
    assert status == 422 and body["rule"]["key"] == "vnm:declare", body
    banner = page.get_by_role("alert")
    expect(banner).to_contain_text("declare a target first")
    shot(page, "rule-link-banner", full_page=False)
    banner.get_by_role("button", name="Rule").tap()
    box = page.get_by_role("dialog", name="The rule")
    expect(box.locator(".rule-place")).to_have_text("Venus Needs Men · Attack Action · line 128")
    expect(box.locator("blockquote mark")).to_have_text(DECLARE)
