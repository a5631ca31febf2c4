"""The dice page in a real browser (Debian's chromium via Playwright) against ``tableside serve --simulate``.

A phone scans, names and pairs two virtual d6, starts a VENOM roll "by hand", hands it to the
smart dice, and rolls them from the dice page: each face shows as it lands, the action runs
when both are in, and the log has them with source ``dice``. The page has no accessibility
violations and its controls are phone-sized.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import all_actions, close_all_actions, phone, served, shot

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture
def server(tmp_path):
    yield from served(tmp_path)


def api(server, method, path, body=None):
    status, data = server.request(method, path, body)
    assert status < 300, (status, data)
    return data


def pair_two_d6(page, seats=(None, None)) -> list[str]:
    """Pair two virtual d6 as "Lucky 1" and "Lucky 2", each for its seat (None: anyone's)."""
    page.goto("/dice")
    page.get_by_role("button", name="Scan for dice").tap()
    rows = page.locator("#dice-list li", has_text="d6")
    expect(rows).to_have_count(6)
    names = []
    for n in range(2):
        row = page.locator("#dice-list li", has=page.get_by_role("button", name="Pair")).filter(has_text="d6").first
        name = f"Lucky {n + 1}"
        row.get_by_role("textbox").fill(name)
        if seats[n]:
            row.get_by_role("combobox").select_option(seats[n])
        row.get_by_role("button", name="Pair").tap()
        expect(page.locator("#dice-list li", has_text=name).get_by_role("button", name="Forget")).to_be_visible()
        names.append(name)
    return names


def test_a_roll_sent_by_hand_is_finished_by_smart_dice_rolled_from_the_dice_page(browser, server):
    api(server, "POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
    page = phone(browser, server)
    first, second = pair_two_d6(page, ("Ann", "Bob"))  # a roll-off takes each seat's own die
    page.goto("/")
    page.wait_for_selector("#link.live")
    all_actions(page)  # the physical-dice switch is in the All actions sheet
    page.get_by_text("I roll real dice and type the faces").tap()
    close_all_actions(page)
    act = page.locator(
        "#tab-game .act", has=page.locator("button.open[aria-expanded]", has_text=re.compile("roll", re.I))
    )
    if not act.first.locator("form").count():
        act.first.locator("button.open").tap()
    form = page.locator("#tab-game .act form").first
    form.locator("button.primary").tap()
    expect(form.locator(".form-error")).to_contain_text("Roll these dice")
    form.get_by_role("button", name="Roll with smart dice").tap()

    page.wait_for_url(re.compile(r"/dice$"))
    expect(page.locator("#waiting-title")).to_have_text(re.compile(r"waiting for 2 d6$"))
    watcher = phone(browser, server)  # another phone on the game tab follows the dice on its last-change line
    page.get_by_role("button", name=f"Roll {first}").tap()
    expect(watcher.locator("#said")).to_contain_text(re.compile(rf"waiting for 1 d6: {first} [1-6]$"))
    expect(page.locator("#dice-landed li")).to_have_count(1)
    expect(page.locator("#dice-landed")).to_contain_text(first)
    expect(page.locator("#waiting-title")).to_have_text(re.compile(r"waiting for 1 d6$"))
    page.get_by_role("button", name=f"Roll {second}").tap()
    expect(page.locator("#dice-waiting")).to_be_hidden()
    log = api(server, "GET", "/api/sessions/active/log")
    assert log[-1]["source"] == "dice" and log[-1]["rolls"][0]["dice"] == [first, second]
    assert all(1 <= f <= 6 for f in log[-1]["rolls"][0]["rolls"])
    # a roll-off is everyone's: said alone, as every phone says it (not "Smart dice: Roll-off ...")
    expect(watcher.locator("#said")).to_have_text(re.compile(r"^Roll-off: Ann [1-6], Bob [1-6]: "))
    watcher.context.close()
    page.context.close()


def test_the_dice_page_is_accessible_with_phone_sized_controls(browser, server):
    from axe_playwright_python.sync_playwright import Axe

    page = phone(browser, server)
    pair_two_d6(page)
    api(server, "POST", "/api/sessions", {"system": "vnm", "options": {}})
    api(server, "POST", "/api/sessions/active/actions", {"type": "declare_target", "target": "Mars"})
    api(server, "POST", "/api/dice/wait", {"action": {"type": "attack"}})
    page.reload()
    expect(page.locator("#waiting-title")).to_contain_text("waiting for 2 d10")
    shot(page, "dice-page-waiting")
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        results = Axe().run(page)
        assert results.violations_count == 0, (scheme, results.generate_report())
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, a, select, input')].filter(e => e.offsetParent)
            .map(e => [e.textContent.trim() || e.getAttribute('aria-label'), e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 44).map(([n]) => n)"""
    )
    assert small == [], small
    page.context.close()


def test_a_name_being_typed_and_its_focus_survive_a_dice_event_from_elsewhere(browser, server):
    """Another phone rolls a die while this one types a name: the page redraws its list of dice on the
    ``dice`` event, and must keep the half-typed name, its focus, and a seat picked but not saved yet."""
    api(server, "POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
    page = phone(browser, server)
    (first,) = pair_two_d6(page, ("Ann", None))[:1]  # Ann's die starts the roll-off the game asks for
    die = next(d for d in api(server, "GET", "/api/dice")["dice"] if d["name"] == first)
    row = page.locator("#dice-list li", has=page.get_by_role("button", name="Pair")).filter(has_text="d6").first
    label = row.locator("strong").inner_text()
    row = page.locator("#dice-list li", has=page.locator("strong", has_text=re.compile(f"^{re.escape(label)}$")))
    row.get_by_role("combobox", name=f"Seat for {label}").select_option("Bob")  # picked, not saved yet
    box = row.get_by_role("textbox", name=f"Name for {label}")
    box.fill("")
    box.press_sequentially("Half typ")
    api(
        server, "POST", "/api/dice/roll", {"die": die["id"], "face": 4}
    )  # from elsewhere: the page only hears the event
    # The event arrived and the page redrew: VENOM waits for a roll-off, and the face shows.
    expect(page.locator("#dice-landed")).to_contain_text(f"{first}: 4")
    expect(box).to_have_value("Half typ")
    expect(box).to_be_focused()
    expect(row.get_by_role("combobox", name=f"Seat for {label}")).to_have_value("Bob")
    box.press_sequentially("ed")  # typing goes on where it was
    expect(box).to_have_value("Half typed")
    row.get_by_role("button", name="Pair").tap()
    saved = page.locator("#dice-list li", has_text="Half typed")
    expect(saved.get_by_role("button", name="Forget")).to_be_visible()
    assert any(d["name"] == "Half typed" and d["seat"] == "Bob" for d in api(server, "GET", "/api/dice")["dice"])
    # Saved, the row follows the table again: another phone renames the die and this one shows it.
    other = next(d for d in api(server, "GET", "/api/dice")["dice"] if d["name"] == "Half typed")
    api(server, "POST", "/api/dice/pair", {"die": other["id"], "name": "Renamed", "seat": None})
    expect(page.get_by_role("textbox", name="Name for Renamed")).to_have_value("Renamed")
    expect(page.get_by_role("combobox", name="Seat for Renamed")).to_have_value("")
    page.context.close()


def test_after_a_new_game_the_dice_page_lists_the_dice_offers_the_new_seats_and_identifies(browser, server):
    """A phone that held a seat in the last game still sends its seat cookie: the dice page drops that
    seat (as the game page does) instead of listing nothing, and its seat picker has the new game's seats."""
    api(server, "POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
    page = phone(browser, server)
    first, _second = pair_two_d6(page, ("Ann", None))
    held = page.evaluate(
        """async () => (await fetch('/api/sessions/active/seats', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({seat: 'Bob'})})).status"""
    )
    assert held == 200
    api(server, "POST", "/api/sessions", {"system": "vnm", "options": {}})  # a new game: Bob's seat is gone
    page.goto("/dice")
    row = page.locator("#dice-list li", has_text=first)
    expect(row.get_by_role("button", name="Forget")).to_be_visible()
    expect(page.locator("#dice-list li")).to_have_count(10)
    seats = row.get_by_role("combobox", name=f"Seat for {first}")
    expect(seats.locator("option")).to_have_text(["Anyone", "Venus", "Mars", "Pluto"])
    row.get_by_role("button", name=f"Identify {first}").tap()
    die = next(d for d in api(server, "GET", "/api/dice")["dice"] if d["name"] == first)
    assert die["seat"] == "Ann" and die["seat_gone"]  # kept from the last game until a player picks again
    expect(row).to_contain_text("Ann's (no such seat in this game: pick again)")
    seats.select_option("Mars")
    row.get_by_role("button", name="Save").tap()
    expect(row).to_contain_text("Mars's")
    page.context.close()
