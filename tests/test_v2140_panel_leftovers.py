"""Venus 2140 on the phones: a reviewer's leftovers (#17), one browser context per seat at 390 x 844.

A real ``tableside serve --simulate`` and Debian's chromium, as in tests/test_tap_budget.py. The reviewer
saw the sticky send row of the GM's pool form ride over the sticky header (its last-change line and Undo)
once the form was scrolled up.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.test_tap_budget import Phone, api, new_game

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


def _field(server, action_type: str, name: str) -> dict:
    described = api(server, "GET", "/api/sessions/active/actions")["actions"]
    (action,) = [a for a in described if a["type"] == action_type]
    (field,) = [f for f in action["fields"] if f["name"] == name]
    return field


def test_the_gm_s_racks_stop_at_what_one_roll_holds_and_say_why(server):
    """ "Racks (GM: one per named NPC or gang)" was a stepper from 0 to 99: 99 racks of 6 are 594 dice. The
    rulebook gives no most of named NPCs; the bound is the setup's rack (Lifestyles: 6 dice) against what one
    roll starts with (100 dice): 16 racks. Beyond it the refusal names the racks, the dice and the bound."""
    new_game(server, "v2140", {"players": ["Shred", "Sven"]})
    racks = _field(server, "prepare_pool", "racks")
    assert (racks["minimum"], racks["maximum"]) == (0, 16), racks
    assert "6 dice" in racks["help"] and "16" in racks["help"], racks["help"]
    status, refused = server.request(
        "POST", "/api/sessions/active/actions", {"type": "prepare_pool", "participant": "GM", "racks": 17}
    )
    assert status == 422, (status, refused)
    assert refused["error"] == (
        "racks: 17 racks of 6 dice are 102 dice, and one roll starts with at most 100 dice: at most 16 racks"
    ), refused
    assert api(server, "GET", "/api/sessions/active")["version"] == 0
    # The rack follows the table's setting (one die per Lifestyle): 7 dice a rack, 14 racks at most.
    api(server, "POST", "/api/sessions/active/actions", {"type": "set_rack", "participant": "GM", "rack": 7})
    assert _field(server, "prepare_pool", "racks")["maximum"] == 14
    done = api(
        server, "POST", "/api/sessions/active/actions", {"type": "prepare_pool", "participant": "GM", "racks": 14}
    )
    assert done["result"]["summary"].startswith("GM draws 98 dice (98 from 14 racks)"), done["result"]
