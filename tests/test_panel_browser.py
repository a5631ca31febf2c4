"""The phone panel in a real browser (Debian's chromium via Playwright) against a real server.

Each test starts its own ``tableside serve --simulate`` on loopback and opens the
panel as a phone would (390 x 844, touch). Screenshots go to tests/_output.
"""

from __future__ import annotations

import re
import signal

import pytest
from playwright.sync_api import expect

from tests.browser_support import Transfer, all_actions, close_all_actions, gzip_size, phone, served, shot
from tests.test_serve_process import CODE, Server

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)  # a loaded CI machine, not a speed test: speed lives in benchmarks/


@pytest.fixture
def server(tmp_path):
    yield from served(tmp_path)


def settle(page) -> None:
    """Wait until the panel has no request in flight (the event stream stays open, so never 'networkidle')."""
    page.wait_for_function("() => S.inflight === 0")
    page.wait_for_timeout(200)
    page.wait_for_function("() => S.inflight === 0")


def api(server, method, path, body=None):
    status, data = server.request(method, path, body)
    assert status < 300, (status, data)
    return data


def test_join_by_code_then_the_panel_offers_a_new_game(browser, server):
    page = phone(browser, server, join=False)
    page.goto("/")
    expect(page.get_by_label("Join code")).to_be_visible()
    page.get_by_label("Join code").fill("wrong1")
    page.get_by_role("button", name="Join the table").tap()
    expect(page.get_by_role("alert")).to_contain_text("not right")
    page.get_by_label("Join code").fill(CODE.lower())
    page.get_by_role("button", name="Join the table").tap()
    expect(page.locator("#link")).to_have_class("link live")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.get_by_role("button", name="Start new game")).to_be_visible()
    shot(page, "new-game")
    page.context.close()


def test_first_load_is_under_70_kB(browser, server):
    api(server, "POST", "/api/sessions", {"system": "venom"})
    page = phone(browser, server, join=False)
    meter = Transfer(page)
    page.goto(f"/join?code={CODE}")
    expect(page.locator("#link")).to_have_class("link live")
    settle(page)
    seen = meter.by_url()
    total = meter.total(skip=("/display.png",))
    # A phone adding the panel to its home screen also fetches the manifest and icons.
    for path in ("/manifest.webmanifest", "/icons/icon-192.png", "/icons/icon-512.png"):
        if not any(path in url for url in seen):
            total += gzip_size(server.port, path, CODE)
    print(f"first load: {total} bytes transferred")
    # 70 kB since the page is ES modules (#37): each module is gzipped on its own and has its own headers, 67.4 kB
    # measured on 2026-12-01 against 56.9 kB for the one script (60 kB before). The All actions sheet (#36) took it
    # to 70.2 kB; sent without their comments (webui.panel.shipped) the page's files are 57.5 kB (2026-12-06), so
    # the budget is 60 kB again. 2026-12-07: the catalogs (#38), the Settings tab (#32), a round's end and the
    # soft clock (#34) measured 60.3 kB, 321 B of it the phone asking GET .../clock once per game to learn whether
    # the clock is on (the view did not say): the view says it now (``clock``), 59.96 kB measured (2026-12-07), so
    # 60 kB again, and a game without the clock asks nothing of it. Every script's words through t() (#38, the rest of
    # the panel in the phone's language): 60,995 B measured (2026-12-07), so 62 kB, still under the 70 kB.
    assert not [url for url in seen if "/clock" in url or "clock.js" in url], seen
    assert total < 62_000, (total, seen)
    assert any("/static/app.js" in u for u in seen) and any("/static/style.css" in u for u in seen)
    outside = [u for u in seen if not u.startswith(f"http://127.0.0.1:{server.port}/")]
    assert outside == [], f"nothing may come from the internet: {outside}"
    page.context.close()


def test_a_dropped_connection_comes_back_to_the_current_version(browser, server):
    made = api(server, "POST", "/api/sessions", {"system": "venom"})
    page = phone(browser, server)
    expect(page.locator("#version")).to_contain_text("version 0")
    # Stopping waits, bounded, for the e-paper's threads (niced below the phones'): at load 30 on two cores
    # that took more than 20 s. The port is free only once it has exited.
    server.kill(signal.SIGTERM, wait=90)
    expect(page.locator("#link")).to_contain_text("reconnecting")
    # A tap while the table is away keeps the view and offers a retry, never "no game".
    page.get_by_role("button", name="Undo").evaluate("b => { b.disabled = false; }")
    page.get_by_role("button", name="Undo").tap()
    expect(page.locator("#banner")).to_contain_text("Could not reach the table")
    expect(page.get_by_role("button", name="Retry")).to_be_visible()
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#no-game")).to_be_hidden()
    # The phone stays away until the table has changed: its stream's next attempt is held (not refused) until
    # then. Otherwise a loaded machine can let it reconnect between the restart and the change, and the change's
    # own line then replaces "Reconnected" before it is read.
    held = []
    page.route("**/api/stream", lambda route: held.append(route))
    again = Server(server.data)
    again.port = server.port
    again.start()
    try:
        status, _ = again.request("POST", "/api/sessions/active/actions", {"type": "roll", "expr": "2d6"})
        assert status == 200
        page.unroute("**/api/stream")  # an attempt not yet held goes straight to the table from now on
        for route in held:
            route.continue_()
        expect(page.locator("#version")).to_contain_text("version 1", timeout=30_000)
        expect(page.locator("#said")).to_contain_text("Reconnected: caught up with the table (version 1)")
        expect(page.locator("#link")).to_have_class("link live")
        assert page.evaluate("() => S.view.id") == made["id"]
    finally:
        again.kill(signal.SIGTERM)
    page.context.close()


@pytest.mark.parametrize("system", ["vnm", "venom"])
def test_a_change_with_500_actions_in_the_log_costs_a_phone_under_2_kB(browser, server, system):
    api(server, "POST", "/api/sessions", {"system": system})
    for i in range(500):
        api(server, "POST", "/api/sessions/active/actions", {"type": "roll", "expr": "2d10", "expected_version": i})
    page = phone(browser, server)
    expect(page.locator("#version")).to_contain_text("version 500")
    settle(page)
    tag = page.evaluate("() => S.tag")  # the moment this phone holds: it is sent only what changes
    meter = Transfer(page)
    api(server, "POST", "/api/sessions/active/actions", {"type": "roll", "expr": "2d10"})
    expect(page.locator("#version")).to_contain_text("version 501")
    settle(page)
    seen = meter.by_url()
    total = meter.total()
    assert list(seen) == [f"http://127.0.0.1:{server.port}/api/sessions/active/moment?after=500&base={tag}"], (
        seen
    )  # one request
    print(f"one change with 500 actions in the log: {total} bytes transferred: {seen}")
    assert 0 < total < 2_000, (total, seen)
    # The phone read only the newest entries; the timeline pages back one page at a time.
    page.get_by_role("button", name="History", exact=True).tap()
    shown = page.locator("#log > li:not(.earlier)")
    expect(shown).to_have_count(41)
    page.get_by_role("button", name=re.compile("^Earlier changes")).tap()
    expect(shown).to_have_count(81)
    page.context.close()


# -- playing as a table would --------------------------------------------------------------------
NAMES = {"vnm": ["Ann", "Bob", "Cy"], "venom": ["Dee", "Eve", "Fay"], "vegas": ["Jo", "Kim", "Lu"]}


def version_of(page) -> int:
    return page.evaluate("() => S.view ? S.view.version : -1")


def start_game(page, system_name: str, names: list[str]) -> None:
    """Fill the setup form by tapping, typing only the players' names."""
    page.get_by_role("button", name="Games", exact=True).tap()
    page.locator("#system-box label", has_text=system_name).tap()
    players = page.locator("#option-fields > fieldset").filter(has=page.locator(".list-row, .rows-item")).first
    entries = players.locator(".list-row, .rows-item")
    while entries.count() < len(names):
        players.get_by_role("button", name="Add a", exact=False).last.tap()
    while entries.count() > len(names):
        entries.last.get_by_role("button", name="Remove", exact=False).tap()
    for i, name in enumerate(names):
        entry = entries.nth(i)
        entry.locator("input[type=text]").first.fill(name)
        for group in entry.locator("fieldset.choices").all():  # a home world and such: distinct per player
            if not group.locator("input:checked").count():
                labels = group.locator("label")
                labels.nth(i % labels.count()).tap()
        for select in entry.locator("select").all():
            select.select_option(index=1 + i)
    page.get_by_role("button", name="Start new game").tap()
    if page.locator("#confirm[open]").count():
        page.locator("#confirm-yes").tap()
    expect(page.locator("#tab-game")).to_be_visible()


def complete_form(form) -> None:
    """Answer a form the way a hurried player would: the first choice of anything required."""
    for group in form.locator("fieldset.choices").all():
        if not group.locator("input:checked").count() and group.locator("input[type=radio]").count():
            group.locator("label").first.tap()
        if group.locator("button.primary").count():  # the form's last open choice sends it
            group.locator("button.primary").first.tap()
            return
        need = int(group.get_attribute("data-min") or 0)
        for label in group.locator("label").all()[:need]:
            if not label.locator("input").is_checked():
                label.tap()
    for select in form.locator("select").all():
        if select.input_value() == "":
            select.select_option(index=1)
    quick = form.locator("fieldset.quick button.primary")
    (quick.first if quick.count() else form.locator(".submit-row button.primary")).tap()


def play_a_step(page) -> str:
    """Tap the main moves in order until one changes the table; returns what it said."""
    before = version_of(page)
    buttons = page.locator("#main-actions > .act > button.open")
    assert buttons.count(), "no main move on the first screen"
    for i in range(buttons.count()):
        act = page.locator("#main-actions > .act").nth(i)
        button = act.locator("button.open")
        assert button.bounding_box()["y"] < 844, "the main moves must be on the first screen"
        if not act.locator("form").count():  # the only move waited for is open already
            button.tap()
        # This move's own form: a one-tap move ("Next participant") can change the moment, and the open form
        # of the move it ended (Gus's own draw, now Hal's move) leaves the top with it.
        form = act.locator("form")
        if form.count():
            complete_form(form.first)
        try:
            page.wait_for_function(f"() => S.view && S.view.version > {before}", timeout=8000)
            return page.locator("#said").inner_text()
        except Exception:
            if form.count():
                form.first.get_by_role("button", name="Cancel").tap()
    raise AssertionError(f"no main move changed the table: {page.locator('#banner').inner_text()}")


@pytest.mark.parametrize("system", ["vnm", "venom", "vegas"])
def test_set_up_and_play_a_game_with_a_second_phone_watching(browser, server, system):
    name = {"vnm": "Venus Needs Men", "venom": "VENOM Assault", "vegas": "Venusian Vegas"}[system]
    page, other = phone(browser, server), phone(browser, server)
    start_game(page, name, NAMES[system])
    expect(page.locator("#title")).to_contain_text(name)
    expect(other.locator("#title")).to_contain_text(name)  # live on the second phone
    view = api(server, "GET", "/api/sessions/active")
    assert view["system"] == system
    assert set(NAMES[system]) <= set(json_text(view["state"]))
    for _ in range(2):
        said = play_a_step(page)
        assert said.strip()
        settle(page)
        expect(other.locator("#version")).to_have_text(page.locator("#version").inner_text())
    # Undo says what it undid, on this phone; the other follows.
    page.get_by_role("button", name="Undo").tap()
    expect(page.locator("#said")).to_contain_text(re.compile("undid", re.I))
    settle(page)
    expect(other.locator("#version")).to_have_text(page.locator("#version").inner_text())
    shot(page, f"{system}-game")
    page.get_by_role("button", name="History", exact=True).tap()
    expect(page.locator("#chart svg")).to_be_visible()
    expect(page.locator("#log li").first).to_contain_text("Undid")
    shot(page, f"{system}-history")
    page.get_by_role("button", name="Games", exact=True).tap()
    expect(page.locator("#sessions li.active")).to_contain_text(NAMES[system][0])
    shot(page, f"{system}-games")
    page.context.close()
    other.context.close()


def json_text(state) -> list[str]:
    """Every string in a state (names end up in different places per system)."""
    out: list[str] = []
    todo = [state]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.values())
            out.extend(k for k in item if isinstance(k, str))
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, str):
            out.append(item)
    return out


def test_switching_the_table_asks_first(browser, server):
    api(server, "POST", "/api/sessions", {"system": "venom"})
    api(server, "POST", "/api/sessions", {"system": "vnm"})
    page = phone(browser, server)
    page.get_by_role("button", name="Games", exact=True).tap()
    page.get_by_role("button", name="Play this game").tap()
    expect(page.locator("#confirm")).to_be_visible()
    page.get_by_role("button", name="Cancel").tap()
    assert api(server, "GET", "/api/sessions/active")["system"] == "vnm"
    page.get_by_role("button", name="Play this game").tap()
    page.locator("#confirm-yes").tap()
    expect(page.locator("#title")).to_contain_text("VENOM")
    assert api(server, "GET", "/api/sessions/active")["system"] == "venom"
    page.context.close()


def test_a_stale_action_keeps_the_form_and_says_someone_changed_it(browser, server):
    api(server, "POST", "/api/sessions", {"system": "venom"})
    page = phone(browser, server)
    # an action with a form: open it, then another phone changes the table before we send
    single = re.compile("single|one die", re.I)
    all_actions(page)  # a roll of one die is under All actions
    opener = page.locator("#groups .act > button.open[aria-expanded]", has_text=single).first
    opener.tap()
    form = page.locator("#groups .act form").first
    expect(form).to_be_visible()
    form.locator("input[type=text]").first.fill("Vipress")
    page.evaluate("() => S.stream.close()")  # this phone has not heard of the next change yet
    api(server, "POST", "/api/sessions/active/actions", {"type": "roll", "expr": "1d6"})
    assert version_of(page) == 0
    complete_form(form)
    expect(form.locator(".form-error")).to_contain_text("Someone changed this first")
    expect(page.locator("#version")).to_contain_text("version 1")  # the new state is shown
    expect(form).to_be_visible()
    expect(form.locator("input[type=text]").first).to_have_value("Vipress")  # the form is kept
    complete_form(form)  # sent again, it goes through
    expect(page.locator("#version")).to_contain_text("version 2")
    page.context.close()


def test_no_accessibility_violations_on_any_tab(browser, server):
    from axe_playwright_python.sync_playwright import Axe

    api(server, "POST", "/api/sessions", {"system": "venom"})
    api(server, "POST", "/api/sessions/active/actions", {"type": "roll", "expr": "5d6cs>=4"})
    page = phone(browser, server)
    axe = Axe()
    for tab in ("Game", "History", "Games", "Display"):
        page.get_by_role("button", name=tab, exact=True).tap()
        settle(page)
        results = axe.run(page)
        assert results.violations_count == 0, (tab, results.generate_report())
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        page.get_by_role("button", name="Game", exact=True).tap()
        results = axe.run(page)
        assert results.violations_count == 0, (scheme, results.generate_report())
    page.context.close()


def test_one_column_and_big_tap_targets_at_360_px(browser, server):
    api(server, "POST", "/api/sessions", {"system": "vnm"})
    page = phone(browser, server)
    page.set_viewport_size({"width": 360, "height": 740})
    for tab in ("Game", "Games"):
        page.get_by_role("button", name=tab, exact=True).tap()
        small = page.evaluate("""() => [...document.querySelectorAll(
            'button, summary, a, select, input, label.switch, .choices label')]
            .filter(e => e.offsetParent !== null).map(e => [e.textContent.trim().slice(0, 30),
            e.getBoundingClientRect()]).filter(([, r]) => r.width < 44 || r.height < 44)
            .filter(([t, r]) => !(r.width === 0 && r.height === 0))""")
        inputs_inside_labels = [s for s in small if s[1]["width"] >= 20 and s[1]["height"] >= 20 and s[0] == ""]
        assert [s for s in small if s not in inputs_inside_labels] == [], small
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    page.context.close()


def test_seats_corrections_and_undo_in_venus_2140(browser, server):
    page, other = phone(browser, server), phone(browser, server)
    start_game(page, "Venus 2140", ["Gus", "Hal", "Ivy"])
    expect(other.locator("#title")).to_contain_text("Venus 2140")
    # This phone takes Gus's seat; the log then records the seat.
    page.locator("#seat").tap()
    page.locator("#seat-list").get_by_role("button", name="Gus", exact=True).tap()
    expect(page.locator("#seat")).to_have_text("Seat: Gus")
    play_a_step(page)
    log = api(server, "GET", "/api/sessions/active/log")
    assert log[-1]["seat"] == "Gus" and log[-1]["source"] == "phone"
    # One tap corrects a tracked number; the log keeps it as a correction.
    all_actions(page)
    all_actions(other)
    page.locator("#numbers-title").tap()
    other.locator("#numbers-title").tap()  # the list is drawn while it is open (fix.js)
    row = page.locator("#numbers li").filter(has_text="Gus: books")
    row.get_by_role("button", name="Gus: books: one more").tap()
    expect(row.locator(".v")).to_have_text("1")
    expect(other.locator("#numbers li").filter(has_text="Gus: books").locator(".v")).to_have_text("1")
    row.get_by_role("button", name="Set Gus: books").tap()
    row.get_by_label("New value of Gus: books").fill("4")
    row.get_by_role("button", name="Save").tap()
    expect(row.locator(".v")).to_have_text("4")
    last = api(server, "GET", "/api/sessions/active/log")[-1]
    assert last["type"] == "correct" and last["seat"] == "Gus"
    # Undo says what it undid; the number goes back on both phones.
    close_all_actions(page)  # the sheet covers the page, Undo beside the last change included
    page.get_by_role("button", name="Undo").tap()
    expect(page.locator("#said")).to_contain_text(re.compile("undid", re.I))
    expect(page.locator("#said")).to_contain_text("books")
    expect(row.locator(".v")).to_have_text("1")
    expect(other.locator("#numbers li").filter(has_text="Gus: books").locator(".v")).to_have_text("1")
    shot(page, "v2140-game")
    page.get_by_role("button", name="History", exact=True).tap()
    expect(page.locator("#log li").filter(has_text="Correction").first).to_be_visible()
    shot(page, "v2140-history")
    # Back to a table phone.
    page.get_by_role("button", name="Game", exact=True).tap()
    page.locator("#seat").tap()
    page.locator("#seat-list").get_by_role("button", name="Table (a shared phone)").tap()
    expect(page.locator("#seat")).to_have_text("Seat: table")
    page.context.close()
    other.context.close()


def test_real_dice_are_entered_by_tapping_faces(browser, server):
    api(server, "POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
    page = phone(browser, server)
    all_actions(page)  # the physical-dice switch is in the All actions sheet
    page.get_by_text("I roll real dice and type the faces").tap()
    close_all_actions(page)
    act = page.locator(
        "#tab-game .act", has=page.locator("button.open[aria-expanded]", has_text=re.compile("roll", re.I))
    )
    if not act.first.locator("form").count():  # the move the table waits for opens by itself
        act.first.locator("button.open").tap()
    form = page.locator("#tab-game .act form").first
    form.locator("button.primary").tap()
    # The table says which dice to roll; the faces are tapped, in the order rolled.
    expect(form.locator(".form-error")).to_contain_text("Roll these dice")
    expect(form).to_contain_text("2d6")
    form.get_by_role("button", name="Add a 6").tap()
    form.get_by_role("button", name="Add a 2").tap()
    form.get_by_role("button", name="Remove die 2 showing 2").tap()  # a mistyped face is one tap away
    form.get_by_role("button", name="Add a 3").tap()
    form.locator("button.primary").tap()
    expect(page.locator("#said")).to_contain_text("Ann 6, Bob 3")
    log = api(server, "GET", "/api/sessions/active/log")
    assert log[-1]["rolls"][0]["rolls"] == [6, 3]
    page.get_by_role("button", name="History", exact=True).tap()
    expect(page.locator("#log li").first.locator(".die")).to_have_text(["6", "3"])
    page.context.close()


def test_a_basic_vnm_setup_asks_only_what_the_basic_game_needs(browser, server):
    page = phone(browser, server)
    page.get_by_role("button", name="Games", exact=True).tap()
    page.locator("#system-box label", has_text="Venus Needs Men").tap()
    land = page.get_by_role("group", name=re.compile("^Land areas"))
    tech = page.get_by_role("group", name=re.compile("^Technology values"))
    total = page.get_by_role("spinbutton", name=re.compile("^Earth's total population"))
    expect(page.get_by_role("group", name=re.compile("^Players"))).to_be_visible()

    def shown(*visible) -> None:
        for part in (land, tech, total):
            if part in visible:
                expect(part).to_be_visible()
            else:
                expect(part).to_be_hidden()

    shown()  # Basic, Normal: names and go
    basic_height = page.locator("#new-game").bounding_box()["height"]
    shot(page, "vnm-setup-basic")
    page.get_by_label("Game", exact=True).select_option(label="Enhanced Game (Technology cards)")
    shown(tech)
    expect(page.get_by_role("button", name="Add a technology value")).to_be_visible()
    page.locator("#option-fields").get_by_text("Long", exact=True).tap()  # the rulebook gives no Long total
    shown(tech, land, total)
    total.fill("131")
    assert page.locator("#new-game").bounding_box()["height"] > basic_height
    shot(page, "vnm-setup-enhanced-long")
    # Back to Basic and Normal: hidden again, and what was typed there is not sent (the defaults apply).
    page.locator("#option-fields").get_by_text("Normal", exact=True).tap()
    page.get_by_label("Game", exact=True).select_option(label="Basic Game")
    shown()
    start_game(page, "Venus Needs Men", NAMES["vnm"])
    state = api(server, "GET", "/api/sessions/active")["state"]
    assert (state["version"], state["game_length"], state["total_population"]) == ("Basic", "Normal", 101)
    assert [p["name"] for p in state["players"]] == NAMES["vnm"]
    page.context.close()


def test_the_e_paper_preview_follows_the_table_once_the_frame_is_drawn(browser, server):
    page = phone(browser, server)
    page.get_by_role("button", name="Display", exact=True).tap()
    expect(page.locator("#hardware")).to_contain_text("virtual display")  # the hardware came up after the panel
    expect(page.locator("#frame")).to_have_attribute("src", re.compile("^blob:"))
    first = page.locator("#frame").get_attribute("src")
    api(server, "POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
    # The frame is drawn a moment after the change; the "frame" event makes the phone fetch it then.
    expect(page.locator("#frame")).not_to_have_attribute("src", first)
    second = page.locator("#frame").get_attribute("src")
    api(server, "POST", "/api/sessions/active/actions", {"type": "set_commander", "player": "Bob"})
    expect(page.locator("#frame")).not_to_have_attribute("src", second)
    shot(page, "display-preview")


def test_a_phone_waiting_on_the_new_game_form_shows_the_game_another_phone_starts(browser, server):
    page = phone(browser, server)
    expect(page.get_by_role("heading", name="New game")).to_be_visible()  # no game yet: the form
    api(server, "POST", "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
    expect(page.locator("#title")).to_contain_text("VENOM Assault")
    expect(page.locator("#tab-game")).to_be_visible()  # the game, not the form it was waiting on
    expect(page.get_by_role("heading", name="New game")).to_be_hidden()
