"""Leftovers of a QA pass over the phone panel (issue #17): what a phone shows at the table.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 with touch, one browser
context per phone, as in ``tests/test_tap_budget.py``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, all_actions, phone, served, shot
from tests.test_tap_budget import Phone, api, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

VNM = {"players": [{"name": n, "home_worlds": [w]} for n, w in (("Ann", "Venus"), ("Bob", "Mars"), ("Cy", "Pluto"))]}
ROLL = {"type": "roll", "expr": "2d6"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("table"), MANY_NEW_GAMES)


def test_a_seated_phone_out_of_its_turn_folds_the_table_buttons_away(browser, server):
    """Bob's phone in Cy's turn showed A/B/C as its main moves; a table phone and Cy's own keep them on top."""
    version = new_game(server, "vnm", VNM, {"type": "move"})  # Pluto (Cy) moves first
    bob, cy, table = (Phone(browser, server, seat=s).at(version) for s in ("Bob", "Cy", None))
    for p in (cy, table):  # Cy's own move, and the table's: on top, nothing folded
        expect(p.page.locator("#main-actions > .act > button.open", has_text="End turn")).to_be_in_viewport()
        expect(p.page.locator("#main-actions .table-buttons")).to_have_count(0)
    buttons = bob.page.locator("#main-actions button.open", has_text=re.compile(r"\(button [ABC]\)"))
    expect(buttons.first).to_be_hidden()
    fold = bob.page.locator("#main-actions details.table-buttons")
    expect(fold.locator("summary")).to_have_text("Table buttons (Cy (Pluto)'s turn)")
    fold.locator("summary").tap()
    expect(buttons.first).to_be_visible()
    # Open stays open across a live update; a press still asks first.
    api(server, "POST", "/api/rolls", {"expr": "1d6"})
    expect(buttons.first).to_be_visible()
    bob.page.locator("#main-actions button.open", has_text="button C").tap()
    expect(bob.page.locator("#confirm")).to_contain_text("Cy")
    bob.page.keyboard.press("Escape")
    for p in (bob, cy, table):
        p.close()


def test_without_the_stream_the_page_polls_its_moment_not_the_full_view(browser, server):
    """The poll fallback fetched /api/sessions/active?brief=1 (the whole view) every 5 s, then the moment again."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]})
    page = phone(browser, server, join=False)
    page.route("**/api/stream", lambda route: route.fulfill(status=503, body='{"error": "too many streams"}'))
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    page.goto(f"/join?code={server.code}")
    expect(page.locator("#link")).to_contain_text(
        "every few seconds"
    )  # polling, said as such (a4e5eac: words per refusal)
    page.wait_for_function(f"() => S.view && S.view.version === {version}")
    asked.clear()
    version = api(server, "POST", "/api/sessions/active/actions", ROLL)["version"]
    expect(page.locator("#version")).to_contain_text(f"version {version}", timeout=15_000)
    expect(page.locator("#said")).to_contain_text("2d6: [")
    page.wait_for_timeout(5_500)  # one more poll of an unchanged table
    polls = [u for u in asked if "/api/sessions/active" in u]
    assert polls and all("/api/sessions/active/moment?" in u for u in polls), polls
    assert any("base=" in u for u in polls), polls  # only what changed, from the moment it holds
    page.context.close()


def test_a_phone_away_for_more_than_40_changes_shows_the_gap_and_fills_it(browser, server):
    """It got only the newest 40 entries and its timeline jumped from #3 to #54 with no sign of the gap."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, ROLL, ROLL, ROLL)
    page = phone(browser, server)
    page.wait_for_function(f"() => S.view && S.view.version === {version} && S.inflight === 0")
    page.evaluate("() => S.stream.close()")  # the phone goes away (locked, out of Wi-Fi)
    for _ in range(50):
        version = api(server, "POST", "/api/sessions/active/actions", ROLL)["version"]
    page.evaluate("() => refresh('reconnect')")  # and comes back: one moment, the newest 40 entries
    page.wait_for_function(f"() => S.view.version === {version} && S.inflight === 0")
    page.get_by_role("button", name="History", exact=True).tap()
    entries = page.locator("#log > li:not(.earlier)")
    expect(entries).to_have_count(43)
    gap = page.locator("#log > li.gap")
    expect(gap).to_have_text("10 earlier changes — show")
    # The gap sits where the changes are missing: after #14 (newest first), before #3.
    before = page.locator("#log > li").evaluate_all(
        "lis => lis.map(li => li.classList.contains('gap') ? 'gap'"
        " : li.querySelector('.meta').textContent.split(' ')[0])"
    )
    at = before.index("gap")
    assert before[at - 1] == "#14" and before[at + 1] == "#3", before[at - 2 : at + 2]
    gap.get_by_role("button").tap()
    expect(gap).to_have_count(0)
    expect(entries).to_have_count(53)
    seqs = page.evaluate("() => S.log.map(e => e.seq)")
    assert seqs == list(range(1, version + 1))
    page.context.close()


def test_the_seat_dialog_says_when_a_held_seat_frees_before_anyone_tries(browser, server):
    """Taking over was refused for 120 s with nothing said up front: the dialog offered 'Take over' first."""
    version = new_game(server, "vegas", {"players": ["Jo", "Kim", "Lu"]})
    jo = Phone(browser, server, seat="Jo").at(version)
    other = Phone(browser, server).at(version)

    def jo_in_dialog():
        other.page.locator("#seat").tap()
        held = other.page.locator("#seat-list .seat-held")
        expect(held).to_have_count(1)
        return held

    held = jo_in_dialog()
    rule = "Jo's phone holds this seat; it frees when Jo releases it or after 2 minutes away."
    expect(held.locator(".seat-note")).to_have_text(f"{rule} That phone is here now.")
    expect(held.get_by_role("button", name="Jo (taken)")).to_be_disabled()
    other.page.get_by_role("button", name="Close").tap()
    jo.close()  # Jo's phone goes away: its stream closes, the two minutes start
    held = jo_in_dialog()
    note = held.locator(".seat-note")
    expect(note).to_contain_text(re.compile(re.escape(rule) + r" It frees at .+ \(in [12]:\d\d\) unless that phone"))
    first = note.inner_text()
    expect(note).not_to_have_text(first)  # it counts down while the dialog is open
    expect(held.get_by_role("button", name="Jo (taken)")).to_be_disabled()
    shot(other.page, "seat-dialog-held")
    other.close()


def test_the_free_increase_form_asks_no_player_once_the_tie_is_settled(browser, server):
    """Vegas: after 'Settle the tie' named Kim, the Free increase form still asked Player (Jo, Kim, Lu, Max)."""
    players = ["Jo", "Kim", "Lu", "Max"]
    setup = ({"type": "setup_tracks", "player": p, "tracks": ["Team", "Game"]} for p in players)
    version = new_game(server, "vegas", {"players": players}, *setup, {"type": "start_round"})
    p = Phone(browser, server).at(version)
    assert api(server, "GET", "/api/sessions/active")["state"]["chosen"] is None  # all four tie
    version = api(server, "POST", "/api/sessions/active/actions", {"type": "choose_furthest_behind", "player": "Kim"})[
        "version"
    ]
    p.at(version)
    expect(p.page.locator("#pending")).to_contain_text("Kim: choose a free increase and lead")
    form = p.moment("Free increase").locator("form")
    expect(form).to_be_visible()
    expect(form.get_by_role("group", name="Track", exact=True)).to_be_visible()
    expect(form).not_to_contain_text("Player")
    p.tap(form.get_by_role("group", name="Track", exact=True).get_by_role("button", name="Bot", exact=True))
    expect(p.said()).to_contain_text("Kim's Bot track")
    assert p.taps == 1  # the only open question: each track is a button that sends
    p.close()


def test_a_v2140_actor_is_never_offered_as_their_own_target(browser, server):
    """Shred's phone offered Shred as the target of Shred's exchange (the rules then refused it)."""
    from tests.test_tap_budget import POOLS

    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, *POOLS)
    shred, table = Phone(browser, server, seat="Shred").at(version), Phone(browser, server).at(version)
    target = shred.moment("Put dice forward").get_by_role("group", name=re.compile("^Target"))
    expect(target.get_by_text("GM", exact=True)).to_be_visible()
    expect(target.get_by_text("Sven", exact=True)).to_be_visible()
    expect(target.get_by_text("Shred", exact=True)).to_be_hidden()
    # A table phone (it puts forward for the seats no phone holds, Sven and the GM: under All actions, as Shred's
    # move is his phone's): the actor chosen drops out of the targets, and comes back when another is chosen.
    page = table.page
    all_actions(page)
    exchange = page.locator("#groups > .group").filter(has=page.locator("h3", has_text=re.compile("^Exchange ")))
    forward = exchange.locator(".act").filter(has=page.locator("button.open", has_text="Put dice forward"))
    forward.locator("button.open").tap()
    actor = forward.get_by_role("group", name=re.compile("^Actor"))
    target = forward.get_by_role("group", name=re.compile("^Target"))
    expect(actor.get_by_label("Sven", exact=True)).to_be_checked()
    expect(target.get_by_text("Sven", exact=True)).to_be_hidden()
    expect(target.get_by_text("Shred", exact=True)).to_be_visible()
    actor.get_by_text("GM", exact=True).tap()
    expect(target.get_by_text("GM", exact=True)).to_be_hidden()
    expect(target.get_by_text("Sven", exact=True)).to_be_visible()
    shred.close()
    table.close()


def test_a_change_no_seat_made_is_named_alike_on_the_last_change_line_and_in_history(browser, server):
    """Seen failing on the old code: the last-change line said "The table:" for a script's change."""
    version = new_game(server, "vnm", VNM, {"type": "move"})
    table = Phone(browser, server).at(version)
    api(server, "POST", "/api/sessions/active/actions", {"type": "end_turn"})
    expect(table.said()).to_have_text(re.compile(r"^A script \(the HTTP API\): .*ends the turn"))
    table.page.get_by_role("button", name="History", exact=True).tap()
    expect(table.page.locator("#log li").first).to_contain_text("from a script (the HTTP API)")
    table.close()


def test_a_roll_off_sent_from_a_seated_phone_is_everyone_s_not_the_sender_s(browser, server):
    """Seen failing on the old code: both phones read "Ann: Roll-off Ann 3, Bob 6: ..." as if Ann rolled alone."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]})
    ann, bob = (Phone(browser, server, seat=s).at(version) for s in ("Ann", "Bob"))
    ann.page.evaluate("() => api('POST', '/api/sessions/active/actions', {type: 'commander_roll_off', faces: [3, 6]})")
    line = "Roll-off: Ann 3, Bob 6: Bob is the Commander; Round 1, Event Phase"
    for p in (ann, bob):  # the sender's phone and another seat's say it alike, as the e-paper does
        expect(p.said()).to_have_text(line)
    expect(bob.page.locator("#board")).to_contain_text("Roll-off: Ann 3, Bob 6: Bob is Commander")
    ann.page.get_by_role("button", name="History", exact=True).tap()
    expect(ann.page.locator("#log li").first).to_contain_text("by Ann")  # who sent it stays in History
    for p in (ann, bob):
        p.close()
