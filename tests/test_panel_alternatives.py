"""Three slips the second review of #17 found on the phone, each seen failing on the old page:

- a prompt's "or ..." is one tap away beside it: "Ann: choose the VENOM Leader to attack (or next
  phase: no Combat)" showed only "Choose the VENOM Leader"; Next phase was under the board (F11);
- every button press is said on every phone, also one that changes no game: a held C puts the join
  screen on the panel, and the phones kept the previous line (F12);
- a number out of range is echoed as typed (never "not 100000000000000000000" for twenty 9s), and the
  folded optional fields are named by their labels ("More: Combat Leader (optional)") (F13); the same
  for the "Fix a number" Set box, which sent the number and showed the rules' "correct: ... got 1000...".

Debian's chromium at 390 x 844 with touch against a real ``tableside serve --simulate``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, all_actions, served, shot
from tests.test_tap_budget import LEADER, LEADER_DECK, TACTICAL, Phone, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("alternatives"), MANY_NEW_GAMES)


def test_next_phase_is_one_tap_beside_choosing_the_leader(browser, server):
    version = new_game(server, "venom", {"players": ["Ann", "Bob"], "leader_deck": LEADER_DECK}, *TACTICAL)
    p = Phone(browser, server, seat="Ann").at(version)
    expect(p.page.locator("#pending")).to_contain_text("Ann: choose the VENOM Leader to attack (or next phase")
    choose = p.moment("Choose the VENOM Leader")
    expect(choose.locator("form")).to_be_visible()  # still the moment's open form
    move_on = p.moment("Next phase").locator("button.open")
    # On the first screen, above the Leader form: no scrolling, no All actions.
    expect(move_on).to_be_in_viewport()
    assert move_on.bounding_box()["y"] < choose.bounding_box()["y"]
    shot(p.page, "alternatives-venom-leader-or-next-phase", full_page=False)
    p.tap(move_on)
    expect(p.said()).to_contain_text("Ann: Retirement Phase (no VENOM Leader attacked, Combat skipped)")
    assert p.taps == 1
    p.close()


def test_a_held_button_that_changes_no_game_is_said_on_every_phone(browser, server):
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL[:2])
    phones = [Phone(browser, server).at(version), Phone(browser, server, seat="Bob").at(version)]
    for p in phones:
        expect(p.said()).not_to_contain_text("join screen")  # the last change (or the seat taken) till then
    status, answer = server.request("POST", "/api/buttons/C", {"hold": True})  # as the GPIO button does
    assert status == 200, answer
    assert "join screen" in answer["result"]["summary"]
    for p in phones:
        expect(p.said()).to_have_text("Button C (held): The join screen (QR code, address, join code) is on the panel")
    shot(phones[1].page, "alternatives-held-c-said", full_page=False)
    for p in phones:
        p.close()


def test_a_number_out_of_range_is_said_as_typed_and_more_names_the_labels(browser, server):
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL, LEADER)
    p = Phone(browser, server, seat="Ann").at(version)
    allocate = p.moment("Allocate the Combat Dice")
    field = allocate.locator(".field").filter(has=p.page.get_by_role("spinbutton", name=re.compile("^Combat Value")))
    value, problem = field.get_by_role("spinbutton"), field.locator(".field-error")
    value.fill("99999999999999999999")
    expect(problem).to_have_text("Combat Value: 0 to 100; that number is too large.")
    value.fill("101")
    expect(problem).to_have_text("Combat Value: 0 to 100, not 101.")
    value.fill("-99999999999999999999")
    expect(problem).to_have_text("Combat Value: 0 to 100; that number is too small.")
    allocate.locator("form .submit-row button.primary").tap()
    assert p.page.evaluate("() => S.view.version") == version  # refused in the form: nothing sent
    # The optional words folded under "More" are named as their fields are labelled, never lower-cased names.
    expect(allocate.locator("details.more > summary")).to_have_text("More: Combat Leader (optional)")
    shot(p.page, "alternatives-number-too-large", full_page=False)
    p.close()


def test_fix_a_number_refuses_out_of_range_in_words_before_sending(browser, server):
    """The "Fix a number" Set box said the rules' "correct: Event Track must be at most 5, got
    100000000000000000000" for twenty 9s (an API name and a rounded number): now the range and what was typed."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL)
    p = Phone(browser, server, seat="Ann").at(version)
    page = p.page
    all_actions(page)
    page.locator("#numbers-title").tap()
    page.get_by_role("button", name="Set Event Track", exact=True).tap()
    box = page.get_by_label("New value of Event Track")
    for typed, words in (
        ("99999999999999999999", "Event Track: 0 to 5; that number is too large."),
        ("9", "Event Track: 0 to 5, not 9."),
        ("2.5", "Event Track: a whole number, please."),
    ):
        box.fill(typed)
        page.locator("#numbers li").filter(has=box).get_by_role("button", name="Save").tap()
        expect(page.locator("#banner-text")).to_have_text(words)
    assert page.evaluate("() => S.view.version") == version  # refused on the phone: nothing sent
    box.fill("3")
    page.locator("#numbers li").filter(has=box).get_by_role("button", name="Save").tap()
    expect(p.said()).to_contain_text("Event Track")
    p.at(version + 1)
    p.close()


def test_a_private_roll_by_a_button_says_which_button_on_every_phone(browser, server):
    """Venus 2140: button A rolls the GM's private pool; Shred's phone said "A table button: ..." (F23)."""
    version = new_game(
        server,
        "v2140",
        {"players": ["Shred", "Sven"], "gm": "GM"},
        {"type": "prepare_pool", "participant": "GM", "racks": 1},
    )
    phones = [Phone(browser, server, seat=s).at(version) for s in ("GM", "Shred")]
    status, answer = server.request("POST", "/api/buttons/A", {"hold": False})  # as the GPIO button does
    assert status == 200, answer
    for p in phones:
        expect(p.said()).to_contain_text(re.compile(r"^Button A: GM rolled \d+ dice"))
    shot(phones[1].page, "alternatives-private-roll-button-a", full_page=False)
    for p in phones:
        p.close()
