"""The Settings page on a phone (#32), at 390 x 844 in Debian's chromium (tests/browser_support.py), against a real
``tableside serve --simulate --config FILE``: a phone without the owner PIN is refused, a wrong button pin is refused
with the config file's own message, and a change is written with the file's comments kept (tests/_output/settings*.png).
"""

from __future__ import annotations

import signal

import pytest
from playwright.sync_api import expect

from tableside.config import ConfigError, load_config
from tableside.settings import edited
from tests.browser_support import chromium, phone, shot
from tests.test_settings import TEMPLATE, started

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture
def table(tmp_path):
    s = started(tmp_path)
    s.code = "PLAY42"
    yield s
    s.kill(signal.SIGTERM)


def test_settings_page_refuses_a_phone_without_the_pin_and_a_wrong_pin_and_keeps_comments(browser, table, tmp_path):
    page = phone(browser, table)
    page.tap("nav.tabs >> text=Settings")
    tab = page.locator("#tab-settings")
    expect(tab.locator("#settings-why")).to_contain_text("Only the table's owner may see and change its settings")
    expect(tab.locator("#settings-form")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "settings-pin", full_page=False)
    tab.locator("#owner-pin").fill("11111111")
    tab.get_by_role("button", name="Open the settings").tap()
    expect(tab.get_by_role("alert")).to_contain_text("that owner PIN is not right")
    tab.locator("#owner-pin").fill(table.pin)
    tab.get_by_role("button", name="Open the settings").tap()
    expect(tab.locator("#settings-form")).to_be_visible()
    expect(tab.locator("#pin-C")).to_have_value("16")

    # A wrong pin: the Inky's BUSY line. The page says what the config loader says of the same file.
    tab.locator("#pin-A").fill("17")
    tab.get_by_role("button", name="Save").tap()
    by_hand = tmp_path / "by-hand.toml"
    by_hand.write_text(edited(TEMPLATE, {"buttons.pins": {"A": 17, "B": 6, "C": 16, "D": 24}}))
    with pytest.raises(ConfigError) as loader:
        load_config(str(by_hand))
    said = str(loader.value).replace(str(by_hand), str(table.config))
    assert "[buttons] pins: A = GPIO17 is the Inky's BUSY line; pick another pin" in said
    expect(tab.locator("#settings-error")).to_have_text(said + ". Nothing was changed")
    tab.locator("#settings-error").scroll_into_view_if_needed()
    assert table.config.read_text() == TEMPLATE
    shot(page, "settings-refused", full_page=False)

    tab.locator("#pin-A").fill("5")
    tab.locator("#pin-C").fill("25")
    tab.locator("#set-interval").fill("30")
    tab.locator("#set-dice").select_option("none")
    tab.get_by_role("button", name="Save").tap()
    expect(tab.locator("#settings-said")).to_contain_text("take effect when Tableside restarts")
    after = table.config.read_text()
    added = [line for line in after.splitlines() if line not in TEMPLATE.splitlines()]
    assert [line for line in after.splitlines() if line not in added] == TEMPLATE.splitlines()  # comments kept
    cfg = load_config(str(table.config))
    assert (cfg.buttons["C"], cfg.min_interval, cfg.dice) == (25, 30.0, "none")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "settings-saved")

    other = phone(browser, table)  # another phone, joined but without the PIN: still refused
    other.tap("nav.tabs >> text=Settings")
    expect(other.locator("#settings-why")).to_contain_text("Only the table's owner")
    status = other.evaluate("fetch('/api/settings').then((r) => r.status)")
    assert status == 403
    other.context.close()
    page.context.close()
