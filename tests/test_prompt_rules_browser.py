"""Why, one tap away (#35): the moment's prompt on the phone opens the passage of the rulebook it rests on.

A real ``tableside serve`` and Chromium at a phone's size (390 x 844, touch). Venus Needs Men's first
moment is "Pluto: move, attack or collect"; its "Rule" opens, in one tap, the book's one-action-a-turn
passage under "Turns" (the rule a refusal of those moves gives), that sentence marked. The moment carries the
key alone; the passage comes from the table (``GET /api/rules/ref/<key>``), nothing fetched from elsewhere.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser_support import fetched_elsewhere, phone, served, shot
from tests.rulebook_quotes import quoted

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

ONE_ACTION = quoted(
    "vnm",
    "You can never combine actions. If you decide to move, all your spaceships must move (or do nothing) — "
    "you can't have some spaceships move while others attack or collect population.",
)


@pytest.fixture
def server(tmp_path):
    yield from served(tmp_path)


PLAYERS = ["Venus", "Mars", "Pluto"]  # the first moment is Pluto's


def test_the_moment_s_prompt_opens_its_rule_in_one_tap(browser, server):
    assert server.request("POST", "/api/sessions", {"system": "vnm", "options": {"players": PLAYERS}})[0] == 201
    page = phone(browser, server)
    away, asked = fetched_elsewhere(page, server), []
    page.on("request", lambda r: asked.append(r.url) if "/api/rules/ref/" in r.url else None)
    prompt = page.locator("#pending li").filter(has_text="Pluto: move, attack or collect")
    expect(prompt).to_have_text("Pluto: move, attack or collect")  # the button's word is the style sheet's
    rule = prompt.get_by_role("button", name="Rule")
    expect(rule).to_be_visible()
    box = rule.bounding_box()
    assert box and box["height"] >= 32  # a thumb's target, as the refusals' Rule
    shot(page, "prompt-rule-moment", full_page=False)
    assert asked == []  # the passage is fetched when asked for, not with every moment
    rule.tap()  # the one tap
    dialog = page.get_by_role("dialog", name="The rule")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".rule-place")).to_have_text("Venus Needs Men · Turns · line 90")
    expect(dialog.locator("blockquote mark")).to_have_text(ONE_ACTION)
    shot(page, "prompt-rule-dialog", full_page=False)
    assert len(asked) == 1 and asked[0].endswith("/api/rules/ref/vnm%3Aone_action")
    assert away == []  # offline: from the table alone
    dialog.get_by_role("button", name="Close").tap()
    expect(dialog).to_be_hidden()
