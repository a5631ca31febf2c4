"""The shutdown question on two phones (#32), at 390 x 844 in Debian's chromium (tests/browser_support.py), against
a real ``tableside serve --simulate`` whose config maps a held D to the shutdown question (the phone cannot hold
a chord): both phones show it at once with a Confirm, a phone's Confirm is answered at once (a simulated table
refuses to switch this computer off, and says so), and a question left unanswered closes on every phone when it
lapses; a phone that opens the panel meanwhile is asked too (tests/_output/shutdown-asked.png).
"""

from __future__ import annotations

import signal

import pytest
from playwright.sync_api import expect

from tests.browser_support import chromium, phone, shot
from tests.test_serve_process import CODE, Server

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)
HOLD_D = """async () => { const r = await fetch("/api/buttons/D", {method: "POST",
  headers: {"Content-Type": "application/json"}, body: JSON.stringify({hold: true})}); return r.status; }"""


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture
def table(tmp_path):
    config = tmp_path / "tableside.toml"
    config.write_text('[buttons]\nhold_time = 0.3\n\n[buttons.map]\n"hold D" = "shutdown"  # the phone has no chord\n')
    s = Server(tmp_path / "data")
    s.extra, s.code = ["--config", str(config)], CODE
    yield s.start()
    s.kill(signal.SIGTERM)


def test_both_phones_are_asked_at_once_and_a_confirm_is_answered_at_once(browser, table):
    one, two = phone(browser, table), phone(browser, table)
    assert one.evaluate(HOLD_D) == 200
    for page in (one, two):
        ask = page.get_by_role("alertdialog")
        expect(ask).to_be_visible()
        expect(ask.locator("h2")).to_have_text("Shut down the table?")
        expect(ask).to_contain_text("Press A within 5 s to switch off.")
        expect(ask.get_by_role("button", name="Confirm: switch off")).to_be_visible()
    assert two.evaluate("document.documentElement.scrollWidth") <= 390
    shot(two, "shutdown-asked", full_page=False)
    two.get_by_role("button", name="Confirm: switch off").tap()
    # Decided at once: a simulated table refuses, on the phone that confirmed, and the question closes everywhere.
    expect(two.locator("#banner-text")).to_contain_text("shutdown refused: this table is simulated")
    for page in (one, two):
        expect(page.get_by_role("alertdialog")).to_be_hidden()
    shot(two, "shutdown-refused", full_page=False)

    assert one.evaluate(HOLD_D) == 200  # asked again and left: it lapses after 5 s, on every phone
    expect(two.get_by_role("alertdialog")).to_be_visible()
    late = phone(browser, table)  # a phone that opens the panel while the question is open is asked at once
    expect(late.get_by_role("alertdialog").get_by_role("button", name="Confirm: switch off")).to_be_visible()
    for page in (one, two, late):
        expect(page.get_by_role("alertdialog")).to_be_hidden(timeout=12_000)
        expect(page.locator("#said")).to_contain_text("The shutdown question lapsed: the table plays on")
