"""An open form's sticky send row on a phone (#17 polish): nothing covers it, its send button's words fit, and an
optional pick left unchosen does not look like an error.

A real ``tableside serve --simulate`` and Debian's chromium with touch, one browser context per phone, as in
tests/test_tap_budget.py; at 390 x 844 and at a small Android phone's 360 x 780. Screenshots go to tests/_output.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.test_tap_budget import LEADER, POOLS, TACTICAL, Phone, hidden_or_covered, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

ROW_BOTTOM = "Math.round(document.querySelector('.act form .submit-row').getBoundingClientRect().bottom)"
SIZES = {"390": (390, 844), "360": (360, 780)}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("sendrow"), MANY_NEW_GAMES)


def sized(p: Phone, size: str) -> Phone:
    width, height = SIZES[size]
    p.page.set_viewport_size({"width": width, "height": height})
    p.page.wait_for_function(f"() => innerWidth === {width} && innerHeight === {height}")
    return p


def lines(button) -> int:
    """The lines a button's words take: its content box's height over its line height."""
    return button.evaluate(
        """(b) => {
            const s = getComputedStyle(b);
            const inner = b.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
            return Math.round(inner / parseFloat(s.lineHeight));
        }"""
    )


@pytest.mark.parametrize(
    "actions, label",
    [((*TACTICAL, LEADER), "Allocate the Combat Dice"), (TACTICAL, "Choose the VENOM Leader")],
    ids=["allocate", "choose-leader"],
)
def test_a_refused_button_press_never_covers_an_open_form_s_send_row(browser, server, actions, label):
    """Reviewers at 390 x 844: "Button A: ..." refused, in the bar at the screen's bottom, sat over the send row of the
    form open at the time. The refusal reaches every phone (the press was another phone's, through the same route as
    the panel's table buttons); the row's Cancel and send stay in sight and clear, and the refusal too: with the row at
    its place at the screen's bottom (a short form scrolled to its end) and pinned there (a tall one, scrolled to its
    top)."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *actions)
    p = Phone(browser, server).at(version)
    form = p.moment(label).locator("form")
    expect(form).to_be_visible()
    row = form.locator(".submit-row")
    sends = row.get_by_role("button")
    expect(sends).to_have_text(["Cancel", label])
    pinned = label == "Choose the VENOM Leader"
    if pinned:  # taller than the screen: the row sticks to the screen's bottom over the form
        assert form.bounding_box()["height"] > 844
        form.evaluate("(f) => f.scrollIntoView({block: 'start', behavior: 'instant'})")
        p.page.wait_for_function(f"() => {ROW_BOTTOM} === innerHeight")
    else:  # the row at its place on the first screen, where the bar comes up
        assert row.bounding_box()["y"] + row.bounding_box()["height"] > 844 - 100
    before = p.page.evaluate(f"() => {ROW_BOTTOM}")
    assert hidden_or_covered(p.page, sends) == []
    status, data = server.request("POST", "/api/buttons/A", {"hold": False})
    assert status >= 400, (status, data)  # refused: no Combat Dice allocated yet
    refusal = p.page.locator("#banner")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text(re.compile("^Button A: "))
    p.page.wait_for_timeout(100)
    shot(p.page, f"send-row-refusal-{'pinned' if pinned else 'end'}", full_page=False)
    assert hidden_or_covered(p.page, sends) == []
    assert hidden_or_covered(p.page, p.page.locator("#banner-text"), p.page.locator("#banner-close")) == []
    # Dismissed, the row goes back to where it was.
    p.page.locator("#banner-close").tap()
    expect(refusal).to_be_hidden()
    p.page.wait_for_function(f"() => {ROW_BOTTOM} === {before}")
    p.close()


def test_an_optional_pick_left_unchosen_looks_chosen_but_not_like_an_error(browser, server):
    """VENOM's "Choose the VENOM Leader": the optional Zone type's "— not chosen —" was checked with the red of an
    error. It is the current choice, drawn as one (a ring), in the neutral colour of the words; a choice someone taps
    is drawn as before, in the accent colour."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL)
    p = Phone(browser, server).at(version)
    form = p.moment("Choose the VENOM Leader").locator("form")
    group = form.locator("fieldset.choices").filter(has_text=re.compile("^Zone type"))
    expect(group).to_have_count(1)
    unset = group.locator("label.unset")
    expect(unset).to_have_text("— not chosen —")
    expect(unset.locator("input")).to_be_checked()
    unset.evaluate("(n) => n.scrollIntoView({block: 'center', behavior: 'instant'})")
    shot(p.page, "unset-pick-default", full_page=False)
    look = """(n) => { const s = getComputedStyle(n);
        return {border: s.borderTopColor, ring: s.boxShadow}; }"""
    colours = p.page.evaluate(
        """() => { const probe = document.createElement("i"); document.body.append(probe);
            const read = (v) => { probe.style.color = `var(${v})`; return getComputedStyle(probe).color; };
            const out = {accent: read("--accent"), err: read("--err"), fg: read("--fg")};
            probe.remove(); return out; }"""
    )
    default = unset.evaluate(look)
    assert not any(colours["accent"] in v for v in (default["border"], default["ring"])), (default, colours)
    assert not any(colours["err"] in v for v in (default["border"], default["ring"])), (default, colours)
    assert colours["fg"] in default["ring"] and colours["fg"] == default["border"], (default, colours)  # still ringed
    other = group.locator("label").filter(has_text="Land")
    other.tap()
    expect(other.locator("input")).to_be_checked()
    tapped = other.evaluate(look)
    assert tapped["border"] == colours["accent"] and colours["accent"] in tapped["ring"], (tapped, colours)
    cleared = unset.evaluate(look)
    assert cleared["ring"] == "none" and cleared["border"] != colours["fg"], cleared  # unchosen: plain again
    p.close()


LONG_SENDS = [  # (system, options, actions, seat, the send button's words)
    ("venom", {"players": ["Ann", "Bob"]}, TACTICAL, None, "Choose the VENOM Leader"),
    ("venom", {"players": ["Ann", "Bob"]}, (*TACTICAL, LEADER), None, "Allocate the Combat Dice"),
    ("v2140", {"players": ["Shred", "Sven"]}, POOLS, "Shred", "Put dice forward"),
]


@pytest.mark.parametrize("size", SIZES)
def test_a_long_send_label_takes_two_lines_at_most_and_cancel_stays_a_target(browser, server, size):
    """At 360 px "Allocate the Combat Dice" took three lines beside a Cancel as wide as itself: Cancel takes the room
    its word needs, the send button the rest. Two lines at most at 360 px, the buttons 44 px high or more."""
    width, _ = SIZES[size]
    for system, options, actions, seat, label in LONG_SENDS:
        version = new_game(server, system, options, *actions)
        p = sized(Phone(browser, server, seat=seat).at(version), size)
        form = p.moment(label).locator("form")
        row = form.locator(".submit-row")
        send, cancel = row.locator("button.primary"), row.get_by_role("button", name="Cancel")
        expect(send).to_have_text(label)
        row.evaluate("(r) => r.scrollIntoView({block: 'end', behavior: 'instant'})")
        shot(p.page, f"send-row-{system}-{label.split()[-1].lower()}-{size}", full_page=False)
        taken = lines(send)
        assert taken <= 2, (label, size, taken, send.bounding_box())
        for b in (send, cancel):
            box = b.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44, (label, size, box)
        assert hidden_or_covered(p.page, send, cancel) == []
        assert p.page.evaluate("() => document.documentElement.scrollWidth") <= width
        p.close()
