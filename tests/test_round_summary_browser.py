"""A round's end is a moment on every phone (#34): with one browser context per seat and a table phone, a short
Venusian Vegas game's first round ends and each phone shows what changed, one line per player; OK dismisses it on
that phone alone, and an undo of the round's end takes it away.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 (tests/browser_support.py). Seen failing
before: no phone said what a round changed.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.golden_states import ENDINGS, SCENARIOS
from tests.test_tap_budget import api, api_act, new_game
from tests.test_v2140_turns_browser import seated  # noqa: F401, F811 (a fixture: a phone per seat, closed after)

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("rounds"), MANY_NEW_GAMES)


def test_a_vegas_round_end_on_every_phone(server, seated):  # noqa: F811
    options, actions = SCENARIOS["vegas"]
    version = new_game(server, "vegas", options, *actions)
    seats: list[str | None] = ["Ann", "Bob", "Cy", None]
    phones = seated(version, *seats)
    for p in phones:
        expect(p.page.locator("#round-end")).to_be_hidden()
    for action in ENDINGS["vegas"][:7]:
        version = api_act(server, action)
    for p in phones:
        p.at(version)
        card = p.page.locator("#round-end")
        expect(card).to_be_visible()
        expect(card.locator("h2")).to_have_text("Round 1 is over")
        expect(card.locator("li")).to_have_count(3)
        expect(card.locator("li").nth(0)).to_contain_text("Ann: VP +9")
        expect(card.locator("li").nth(0)).to_contain_text("; won 1 trick")  # the tricks won, from the log
        expect(card.locator("li").nth(1)).to_contain_text("Bob: VP +4")
    shot(phones[1].page, "round-end-vegas", full_page=False)
    phones[0].tap(phones[0].page.locator("#round-dismiss"))
    expect(phones[0].page.locator("#round-end")).to_be_hidden()
    expect(phones[1].page.locator("#round-end")).to_be_visible()  # dismissed on Ann's phone alone
    version = api(server, "POST", "/api/sessions/active/undo", {})["version"]
    phones[1].at(version)
    expect(phones[1].page.locator("#round-end")).to_be_hidden()  # the round's end undone: nothing to tell


def test_the_soft_clock_when_enabled_runs_on_the_phones_and_pauses(server, seated):  # noqa: F811
    options, actions = SCENARIOS["vnm"]
    api(server, "POST", "/api/sessions", {"system": "vnm", "options": options, "clock": True})
    for action in actions:
        version = api_act(server, action)
    ann, table = seated(version, "Ann", None)
    for p in (ann, table):
        clock = p.page.locator("#soft-clock")
        expect(clock).to_be_visible()
        expect(clock.locator("li")).to_have_count(4)
        expect(clock.locator("li.running")).to_have_count(1)
        expect(clock.locator("li.running")).to_contain_text("Ann")
    before = ann.page.locator("#soft-clock li.running b").inner_text()
    expect(ann.page.locator("#soft-clock li.running b")).not_to_have_text(before, timeout=4_000)  # ticks here
    shot(ann.page, "soft-clock-vnm", full_page=False)
    ann.tap(ann.page.locator("#clock-pause"))
    expect(ann.page.locator("#clock-pause")).to_have_text("Run the clock again")
    expect(table.page.locator("#clock-pause")).to_have_text("Run the clock again")
    expect(table.page.locator("#soft-clock li.running")).to_have_count(0)


def test_no_clock_unless_chosen(server, seated):  # noqa: F811
    options, actions = SCENARIOS["vnm"]
    version = new_game(server, "vnm", options, *actions)
    (ann,) = seated(version, "Ann")
    expect(ann.page.locator("#now")).to_be_visible()
    expect(ann.page.locator("#soft-clock")).to_be_hidden()
