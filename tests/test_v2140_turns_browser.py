"""Venus 2140 at the table: whose move it is, and what a seat's phone offers then (#17 QA #1, #13).

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844, one browser context per
seat, as in tests/test_tap_budget.py. QA saw Sven's phone offer "Put dice forward" as its main move
in Shred's move (and in the GM's, right after the GM won initiative) and apply it with no question;
a player's initiative bid offered the GM's "For"; the GM's session racks went to 99 with 2 in the
pool; and "GM: outnumbered by a full sleeve ..." stayed under every prompt on every phone.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.test_tap_budget import Phone, api, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

# Every pool rolled with no 6 (no die rolls in) and no 1-3 (none tossed): Shred 5554, Sven 5544, the GM 5444 44.
POOLS = (
    {"type": "prepare_pool", "participant": "Shred", "primary_skills": 2},
    {"type": "roll_pool", "participant": "Shred", "faces": [5, 5, 5, 4]},
    {"type": "prepare_pool", "participant": "Sven", "primary_skills": 2},
    {"type": "roll_pool", "participant": "Sven", "faces": [5, 5, 4, 4]},
    {"type": "prepare_pool", "participant": "GM", "racks": 1},
    {"type": "roll_pool", "participant": "GM", "faces": [5, 4, 4, 4, 4, 4]},
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("v2140turns"), MANY_NEW_GAMES)


@pytest.fixture
def seated(browser, server):
    """Phones (seated, or a table phone with seat=None), closed after the test even when it fails: a phone
    left open keeps its seat into the next test's game."""
    opened: list[Phone] = []

    def at(version: int, *seats: str | None) -> list[Phone]:
        new = [Phone(browser, server, seat=s).at(version) for s in seats]
        opened.extend(new)
        return new

    yield at
    for p in opened:
        p.close()


def main_moves(p: Phone) -> list[str]:
    return [t.strip() for t in p.page.locator("#main-actions > .act > button.open").all_inner_texts()]


def from_all_actions(p: Phone, group: str, label: str):
    """``label`` under All actions (its button under its group's heading, one tap to its form): the way a
    move not on top is made. The sheet is opened first if it is not (a tap, counted)."""
    page = p.page
    if not page.evaluate("document.getElementById('all-actions').open"):
        p.tap(page.locator("#all-open"))
    box = page.locator("#groups > .group").filter(has=page.locator("h3", has_text=re.compile(f"^{re.escape(group)} ")))
    act = box.locator(".act").filter(has=page.locator("button.open", has_text=re.compile(f"^{label}")))
    expect(act).to_have_count(1)
    p.tap(act.locator("button.open"))
    expect(act.locator("form")).to_be_visible()
    return act


def put_forward(p: Phone, target: str, die: str):
    act = from_all_actions(p, "Exchange", "Put dice forward")
    p.tap(act.get_by_role("group", name=re.compile("^Target")).get_by_text(target, exact=True))
    p.tap(act.get_by_role("button", name=die))
    p.submit(act)
    return act


def version_now(server) -> int:
    return api(server, "GET", "/api/sessions/active")["version"]


def test_a_seat_acting_out_of_turn_is_not_offered_it_on_top_and_is_asked_first(server, seated):
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, *POOLS)
    shred, sven, gm, table = seated(version, "Shred", "Sven", "GM", None)
    for p in (shred, sven, gm, table):
        expect(p.page.locator("#pending li").first).to_have_text("Shred: put dice forward")
    # Shred's move is Shred's main move (and the GM's, whose phone runs the table: closed there); not Sven's, nor
    # the table phone's: Shred's dice are his phone's, which holds his seat, so it says whose phone makes it.
    assert main_moves(shred) == ["Put dice forward"]
    assert "Put dice forward" not in main_moves(table), main_moves(table)
    expect(table.page.locator("#main-actions")).to_contain_text("Shred puts dice forward on Shred's phone")
    assert main_moves(gm)[0] == "Put dice forward"
    expect(gm.page.locator("#main-actions form")).to_have_count(0)
    assert "Put dice forward" not in main_moves(sven), main_moves(sven)
    expect(sven.page.locator("#main-actions details.table-buttons")).to_contain_text("Table buttons (Shred's turn)")
    shot(sven.page, "v2140-turns-sven-in-shreds-move")

    # Sven acts anyway, from All actions, with his own dice: his phone asks first, and Cancel changes nothing.
    act = put_forward(sven, "Shred", "Die 1 showing 5")
    confirm = sven.page.locator("#confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("It is Shred's move. Put dice forward as Sven anyway?")
    expect(sven.page.locator("#confirm-yes")).to_have_text("Yes, as Sven")
    shot(sven.page, "v2140-turns-sven-asked", full_page=False)
    confirm.get_by_role("button", name="Cancel").tap()
    expect(confirm).to_be_hidden()
    assert version_now(server) == version
    # Asked again, he says yes: the table takes it (the rules let a participant act out of turn).
    sven.submit(act)
    sven.page.locator("#confirm-yes").tap()
    expect(sven.said()).to_contain_text("Sven puts forward 5 in an exchange against Shred")
    version += 1
    # The answer is Shred's, from his own dice: only his phone offers it (QA saw it on every player's phone).
    for p in (shred, sven, gm):
        p.at(version)
        expect(p.page.locator("#pending li").first).to_have_text("Shred: answer Sven's 5 with 1 die")
    assert main_moves(shred) == ["Answer the exchange"]
    for p in (sven, gm):
        assert "Answer the exchange" not in main_moves(p), main_moves(p)
    api(server, "POST", "/api/sessions/active/actions", {"type": "withdraw"})
    version += 1
    # The GM's phone acts in Shred's move with no question (the GM runs the table).
    gm.at(version)
    forward = gm.moment("Put dice forward")
    forward.locator("button.open").tap()
    forward.get_by_role("group", name=re.compile("^Target")).get_by_text("Shred", exact=True).tap()
    forward.get_by_role("button", name="Die 1 showing 5").tap()
    gm.submit(forward)
    expect(gm.said()).to_contain_text("GM puts forward 5 in an exchange against Shred")
    expect(gm.page.locator("#confirm")).to_be_hidden()
    api(server, "POST", "/api/sessions/active/actions", {"type": "withdraw"})
    version += 2

    # The order is settled with the GM first: the GM's move now, so Sven's phone asks again, in the GM's name.
    settled = api(
        server,
        "POST",
        "/api/sessions/active/actions",
        {"type": "settle_initiative", "seating": True, "reverse": True},
    )
    assert settled["result"]["summary"].endswith("GM goes first")
    version = settled["version"]
    for p in (shred, sven, gm, table):
        p.at(version)
    assert main_moves(gm) == ["Put dice forward"]
    for p in (shred, sven):
        assert "Put dice forward" not in main_moves(p), main_moves(p)
    put_forward(sven, "GM", "Die 1 showing 5")
    expect(sven.page.locator("#confirm")).to_contain_text("It is GM's move. Put dice forward as Sven anyway?")
    sven.page.locator("#confirm").get_by_role("button", name="Cancel").tap()
    assert version_now(server) == version

    # The GM's own move asks nothing: the GM puts forward from the top, the dice its own.
    gm.taps = 0
    forward = gm.moment("Put dice forward")
    gm.tap(forward.get_by_role("group", name=re.compile("^Target")).get_by_text("Sven", exact=True))
    gm.tap(forward.get_by_role("button", name="Die 1 showing 5"))
    gm.submit(forward)
    expect(gm.said()).to_contain_text("GM puts forward 5 in an exchange against Sven")
    expect(gm.page.locator("#confirm")).to_be_hidden()
    api(server, "POST", "/api/sessions/active/actions", {"type": "withdraw"})
    version = version_now(server)


def test_a_player_bids_for_itself_the_gm_s_racks_stop_at_the_session_pool_and_the_full_sleeve_is_the_gm_s(
    server, seated
):
    # Shred and Sven draw 8 dice each, the GM a rack of 6: outnumbered by a full sleeve (6 against 16).
    pools = (
        {"type": "prepare_pool", "participant": "Shred", "primary_skills": 3, "secondary_skills": 2},
        {"type": "roll_pool", "participant": "Shred", "faces": [5, 5, 5, 5, 4, 4, 4, 4]},
        {"type": "prepare_pool", "participant": "Sven", "primary_skills": 3, "secondary_skills": 2},
        {"type": "roll_pool", "participant": "Sven", "faces": [5, 5, 5, 5, 4, 4, 4, 4]},
        {"type": "prepare_pool", "participant": "GM", "racks": 1},
        {"type": "roll_pool", "participant": "GM", "faces": [5, 4, 4, 4, 4, 4]},
    )
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, *pools)
    shred, gm, table = seated(version, "Shred", "GM", None)

    # The GM's pool form: the session pool holds 2 racks, so 0, 1 or 2 to tap (it was a stepper to 99).
    draw = from_all_actions(gm, "Scene pool", "Draw dice for a scene pool")
    session = draw.get_by_role("group", name=re.compile("^Racks from the session pool"))
    expect(session.get_by_role("button")).to_have_text(["0", "1", "2"])
    expect(draw.get_by_role("spinbutton", name=re.compile("^Racks from the session pool"))).to_have_count(0)
    shot(gm.page, "v2140-turns-gm-session-racks")
    draw.get_by_role("button", name="Cancel").tap()

    # A player's initiative bid is for that player: the GM's "For" is on the GM's phone only.
    bid = from_all_actions(shred, "Initiative", "Bid dice for initiative")
    expect(bid.get_by_role("button", name="Die 1 showing 5")).to_be_visible()
    assert "For" not in [
        t.strip() for t in bid.locator(".field:visible > legend, .field:visible > .flabel").all_inner_texts()
    ]
    expect(bid.get_by_role("group", name=re.compile("^For"))).to_have_count(0)
    shot(shred.page, "v2140-turns-shred-bid")
    theirs = from_all_actions(gm, "Initiative", "Bid dice for initiative")
    expect(theirs.get_by_role("group", name=re.compile("^For"))).to_be_visible()

    # Said on the GM's phone and the table's, not under a player's moment; and only while the conflict is entered.
    sleeve = "GM: outnumbered by a full sleeve (6 dice against 16): a Murphy point, if germane"
    for p in (shred, gm, table):
        p.at(version)
    expect(gm.page.locator("#pending")).to_contain_text(sleeve)
    expect(table.page.locator("#pending")).to_contain_text(sleeve)
    expect(shred.page.locator("#pending")).to_have_text("Shred: put dice forward")
    shot(shred.page, "v2140-turns-shred-no-sleeve-line")
    # The table's phone plays a seat no phone holds (Sven's) without a question: Sven against the GM in Shred's
    # move, from All actions (Shred's move is Shred's phone's). Once dice go forward the line is gone.
    form = from_all_actions(table, "Exchange", "Put dice forward")
    form.get_by_role("group", name=re.compile("^Actor")).get_by_text("Sven", exact=True).tap()
    form.get_by_role("group", name=re.compile("^Target")).get_by_text("GM", exact=True).tap()
    form.get_by_role("button", name="Add a 5").tap()
    table.submit(form)
    expect(table.said()).to_contain_text("Sven puts forward 5 in an exchange against GM")
    expect(table.page.locator("#confirm")).to_be_hidden()
    for p in (shred, gm, table):
        expect(p.page.locator("#pending")).not_to_contain_text("outnumbered")
