"""Venus 2140 on the phones: a reviewer's leftovers (#17), one browser context per seat at 390 x 844.

A real ``tableside serve --simulate`` and Debian's chromium, as in tests/test_tap_budget.py. The reviewer
saw the sticky send row of the GM's pool form ride over the sticky header (its last-change line and Undo)
once the form was scrolled up.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.test_tap_budget import Phone, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("v2140leftovers"), MANY_NEW_GAMES)


@pytest.fixture
def phones(browser, server):
    """``phones(version, "Shred", None)``: a phone per seat (None: a table phone) showing ``version``, all closed
    after the test even when it fails (a phone left open keeps its seat into the next test's game)."""
    opened: list[Phone] = []

    def seat(version: int, name: str | None) -> Phone:
        opened.append(Phone(browser, server, seat=name).at(version))
        return opened[-1]

    yield lambda version, *seats: [seat(version, s) for s in seats]
    for p in opened:
        p.close()


# What covers the header's words and buttons at the point each is drawn: nothing, or what lies over it.
COVERED_IN_HEADER = """() => {
    const head = document.querySelector("header.top");
    return [...head.querySelectorAll("h1, #status, #said, button:not([hidden])")]
        .filter((n) => n.getClientRects().length)
        .flatMap((n) => {
            const r = n.getBoundingClientRect();
            const x = r.left + r.width / 2, points = [[x, r.top + r.height / 2], [r.left + 4, r.bottom - 4],
                [r.right - 4, r.bottom - 4]];
            return points.filter(([px, py]) => !head.contains(document.elementFromPoint(px, py)))
                .map(([px, py]) => `${n.id || n.tagName} under ${document.elementFromPoint(px, py)?.textContent}`);
        });
}"""


def test_the_sticky_send_row_never_covers_the_sticky_header(server, phones):
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]})
    (gm,) = phones(version, "GM")
    page = gm.page
    draw = page.locator("#main-actions > .act").filter(has=page.locator("form")).first
    if not draw.count():
        page.locator("#main-actions button.open", has_text="Draw dice for a scene pool").tap()
        draw = page.locator("#main-actions > .act").filter(has=page.locator("form")).first
    row = draw.locator("form .submit-row")
    expect(row).to_be_visible()
    # Scrolled down through the whole form: the send row sticks to the bottom, then leaves with its form's end,
    # upwards, past the header. At no point may it (or anything) lie over the header's words and buttons.
    end = page.evaluate("() => document.documentElement.scrollHeight - innerHeight")
    seen = {}
    worst = None
    for y in range(0, end + 1, 20):
        page.evaluate(f"() => window.scrollTo(0, {y})")
        covered = page.evaluate(COVERED_IN_HEADER)
        if covered:
            seen[y] = covered
        top = page.evaluate("(n) => n.getBoundingClientRect().top", row.element_handle())
        head = page.evaluate("() => document.querySelector('header.top').getBoundingClientRect().bottom")
        if worst is None and top < head:  # the row's first position partly under the header
            worst = y
    assert worst is not None, "the form never scrolled the send row up to the header"
    page.evaluate(f"() => window.scrollTo(0, {worst + 40})")
    shot(page, "v2140-leftovers-send-row-under-header", full_page=False)
    assert not seen, seen
