"""Venus 2140 on the phones: a reviewer's leftovers (#17), one browser context per seat at 390 x 844.

A real ``tableside serve --simulate`` and Debian's chromium, as in tests/test_tap_budget.py. The reviewer saw
the table phone offered moves from a seat's private dice; a player asked a question before drawing its own pool
as the conflict opened; the GM's racks a stepper to 99; and the sticky send row of the GM's pool form ride over
the sticky header (its last-change line and Undo) once the form was scrolled up.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, POST, all_actions, served, shot
from tests.test_tap_budget import Phone, api, new_game
from tests.test_v2140_turns_browser import POOLS as DRAWN  # every pool drawn: Shred 5554, Sven 5544, GM 544444

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
    # A long board under the card (a VNM map's worth): the form's end can scroll up past the header.
    page.evaluate("() => { document.getElementById('board').style.minHeight = '1600px'; }")
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


def pending(server) -> list[tuple[str | None, str, str | None]]:
    return [(p["seat"], p["text"], p["type"]) for p in api(server, "GET", "/api/sessions/active/actions")["pending"]]


def test_each_seat_draws_its_own_pool_without_a_question_and_the_prompt_names_who_has_not(server, phones):
    """Conflicts start with everyone drawing ("skills, gear, and circumstances are drawn by the players. The dice
    drawn are then rolled into the scene pool"). The prompt named only whose move it was ("Shred: draw dice ..."),
    so Sven's phone asked "It is Shred's move. Draw dice for a scene pool as Sven anyway?" before his own pool:
    two taps more. Now the prompt names every seat that has not drawn, and only acting for another seat asks."""
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]})
    opening = [
        ("Shred", "Shred: draw dice for a scene pool, or none (Next participant, button C)", "prepare_pool"),
        ("Sven", "Sven: draw dice for a scene pool", "prepare_pool"),
        ("GM", "GM: draw dice for a scene pool", "prepare_pool"),
    ]
    assert pending(server) == opening
    sven, table = phones(version, "Sven", None)
    for p in (sven, table):
        expect(p.page.locator("#pending li")).to_have_text([text for _, text, _ in opening])
    expect(sven.page.locator("#pending li.yours")).to_have_text("Sven: draw dice for a scene pool")
    # Sven's own pool, from his moment: two taps, no question.
    draw = sven.moment("Draw dice for a scene pool")
    expect(draw.locator("form")).to_be_visible()
    sven.tap(draw.get_by_role("button", name="Matching primary skills: 2", exact=True))
    sven.submit(draw)
    expect(sven.said()).to_contain_text("Sven draws 4 dice")
    expect(sven.page.locator("#confirm")).to_be_hidden()
    assert sven.taps == 2
    version += 1
    sven.at(version)  # Sven's seat is held: his phone rolls his pool (the table refuses it from elsewhere)
    assert sven.page.evaluate(POST, {"type": "roll_pool", "faces": [5, 5, 4, 4]})[0] == 200
    version += 1
    # Drawn: Sven is no longer named; the others still are.
    assert [seat for seat, _, kind in pending(server) if kind == "prepare_pool"] == ["Shred", "GM"]
    sven.at(version)
    # Sven's move follows Shred's (the conflict's order): his phone says so (#34).
    expect(sven.page.locator("#pending li")).to_have_text([opening[0][1], opening[2][1], "You're next"])
    # More dice for his own pool while the others draw: still his own pool, still no question.
    more = listed(sven, "Scene pool", "Draw dice for a scene pool")
    more.locator("button.open").tap()
    more.get_by_role("button", name="Matching secondary skills: 1", exact=True).tap()
    sven.submit(more)
    expect(sven.said()).to_contain_text("Sven draws 1 die")
    expect(sven.page.locator("#confirm")).to_be_hidden()
    version += 1
    # Acting for another seat still asks: Next participant (C) moves Shred's move on.
    sven.at(version)
    sven.moment("Next participant (C)").locator("button.open").tap()
    confirm = sven.page.locator("#confirm")
    expect(confirm).to_contain_text("This phone sits at Sven's seat. Next participant (C) for Shred?")
    shot(sven.page, "v2140-leftovers-next-for-shred-asks", full_page=False)
    confirm.get_by_role("button", name="Cancel").tap()
    assert api(server, "GET", "/api/sessions/active")["version"] == version
    # Once dice go forward the conflict has begun: no one is asked to draw any more.
    assert sven.page.evaluate(POST, {"type": "roll_pool", "faces": [5]})[0] == 200
    for action in (
        {"type": "prepare_pool", "participant": "GM", "racks": 1},
        {"type": "roll_pool", "participant": "GM", "faces": [5, 5, 4, 4, 4, 4]},
    ):
        api(server, "POST", "/api/sessions/active/actions", action)
    assert sven.page.evaluate(POST, {"type": "put_forward", "target": "GM", "dice": [5]})[0] == 200
    api(server, "POST", "/api/sessions/active/actions", {"type": "withdraw"})
    assert [kind for _, _, kind in pending(server)] == ["prepare_pool"]  # Shred's move, to draw or pass (C)


def main_moves(p: Phone) -> list[str]:
    return [t.strip() for t in p.page.locator("#main-actions > .act > button.open").all_inner_texts()]


def group(p: Phone, heading: str):
    """A phase's group in the All actions sheet (opened first if it is not)."""
    page = p.page
    all_actions(page)
    return page.locator("#groups > .group").filter(has=page.locator("h3", has_text=re.compile(f"^{heading} ")))


def listed(p: Phone, heading: str, label: str):
    """The action ``label`` under All actions, in its phase's group (its button and, once tapped, its form)."""
    return group(p, heading).locator(".act").filter(has=p.page.locator("button.open", has_text=label))


def test_a_table_phone_leaves_a_held_seat_s_own_dice_to_that_seat_s_phone(server, phones):
    """The table phone (no seat) offered "Put dice forward" and "Answer the exchange" in Shred's and the GM's
    moves: a pad of faces for dice it cannot see, each send refused ("a phone with no seat cannot act for Shred:
    Shred's dice are private to Shred's phone"). It says whose phone makes the move instead; for a seat no phone
    holds it still plays that seat's dice, as the table does. The GM's phone keeps its moves."""
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, *DRAWN)
    described = api(server, "GET", "/api/sessions/active/actions")["actions"]
    own = sorted(a["type"] for a in described if any(f.get("own_dice") for f in a["fields"]))
    assert own == ["answer", "bid_initiative", "put_forward"], own
    shred, gm, table = phones(version, "Shred", "GM", None)  # Sven's seat is free
    expect(table.page.locator("#pending li").first).to_have_text("Shred: put dice forward")
    assert "Put dice forward" not in main_moves(table), main_moves(table)
    expect(table.page.locator("#main-actions")).to_contain_text("Shred puts dice forward on Shred's phone")
    assert main_moves(gm)[0] == "Put dice forward"  # the GM's phone runs the table, with the GM's own dice
    shot(table.page, "v2140-leftovers-table-in-shreds-move", full_page=False)
    # Under All actions it is there for Sven, whose seat no phone holds: only Sven to choose.
    forward = (
        group(table, "Exchange").locator(".act").filter(has=table.page.locator("button.open", has_text="Put dice"))
    )
    forward.locator("button.open").tap()
    actor = forward.get_by_role("group", name=re.compile("^Actor"))
    expect(actor.locator("label")).to_have_text(["Sven"])
    bid = listed(table, "Initiative", "Bid dice for initiative")
    bid.locator("button.open").tap()
    expect(bid.get_by_role("group", name=re.compile("^Who")).locator("label")).to_have_text(["Sven"])

    # Shred puts a 5 forward against the GM: the answer is the GM's phone's, not the table's.
    status, _ = shred.page.evaluate(POST, {"type": "put_forward", "target": "GM", "dice": [5]})
    assert status == 200
    version += 1
    for p in (table, gm):
        p.at(version)
    expect(table.page.locator("#pending li").first).to_have_text("GM: answer Shred's 5 with 1 die")
    assert "Answer the exchange" not in main_moves(table), main_moves(table)
    expect(table.page.locator("#main-actions")).to_contain_text("GM answers the exchange on GM's phone")
    expect(gm.moment("Answer the exchange")).to_be_visible()
    shot(table.page, "v2140-leftovers-table-in-gms-answer", full_page=False)

    # Sven's phone sits down too: now no seat's dice are the table phone's to put forward or bid.
    (sven,) = phones(version, "Sven")
    version = api(server, "POST", "/api/sessions/active/actions", {"type": "withdraw"})["version"]
    table.at(version)
    for heading, label in (("Exchange", "Put dice forward"), ("Initiative", "Bid dice for initiative")):
        box = group(table, heading)
        expect(box.locator("button.open", has_text=re.compile(f"^{label}$"))).to_have_count(0)
        expect(box).to_contain_text(f"{label}: on each seat's own phone")
    expect(table.page.locator("#main-actions")).to_contain_text("Shred puts dice forward on Shred's phone")
    shot(table.page, "v2140-leftovers-table-all-seats-held")
    sven.at(version)
    assert main_moves(shred) == ["Put dice forward"]


def test_the_luck_report_says_dice_rolled_in_private_were_rolled(server, phones):
    """#17 F7: Sven's History tab said "Luck report: No dice rolled yet." after Shred rolled 5 dice into his scene
    pool (private to Shred, so counted for no one). It says what is true: none rolled in the open, and how many
    were rolled in private and are not counted (the log's summary says that count to everyone already)."""
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]})
    shred, sven = phones(version, "Shred", "Sven")
    assert shred.page.evaluate(POST, {"type": "prepare_pool", "primary_skills": 2})[0] == 200
    assert shred.page.evaluate(POST, {"type": "roll_pool", "faces": [6, 5, 5, 4, 4]})[0] == 200
    sven.at(version + 2)
    sven.page.get_by_role("button", name="History", exact=True).tap()
    luck = sven.page.locator("#luck")
    expect(luck).to_contain_text("No dice rolled in the open yet.")
    expect(luck).to_contain_text("Not counted: 5 dice rolled in private (a seat's private dice are its own).")
    expect(luck).not_to_contain_text("No dice rolled yet")
    shot(sven.page, "v2140-leftovers-luck-private", full_page=False)
