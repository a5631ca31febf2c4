"""The phone panel in a real browser (Debian's chromium via Playwright) against a real server.

Each test starts its own ``tableside serve --simulate`` on loopback and opens the
panel as a phone would (390 x 844, touch). Screenshots go to tests/_output.
"""

from __future__ import annotations

import signal

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.browser_support import Transfer, gzip_size, launch, phone, shot
from tests.test_serve_process import CODE, Server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "data").start()
    s.code = CODE
    yield s
    if s.proc and s.proc.stdout and not s.proc.stdout.closed:
        s.kill(signal.SIGTERM)


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


def test_first_load_is_under_60_kB(browser, server):
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
    assert total < 60_000, (total, seen)
    assert any("/static/app.js" in u for u in seen) and any("/static/style.css" in u for u in seen)
    page.context.close()


def test_a_dropped_connection_comes_back_to_the_current_version(browser, server):
    made = api(server, "POST", "/api/sessions", {"system": "venom"})
    page = phone(browser, server)
    expect(page.locator("#version")).to_contain_text("version 0")
    server.kill(signal.SIGTERM)
    expect(page.locator("#link")).to_contain_text("reconnecting")
    # A tap while the table is away keeps the view and offers a retry, never "no game".
    page.get_by_role("button", name="Undo").evaluate("b => { b.disabled = false; }")
    page.get_by_role("button", name="Undo").tap()
    expect(page.locator("#banner")).to_contain_text("Could not reach the table")
    expect(page.get_by_role("button", name="Retry")).to_be_visible()
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#no-game")).to_be_hidden()
    again = Server(server.data)
    again.port = server.port
    again.start()
    try:
        status, _ = again.request("POST", "/api/sessions/active/actions", {"type": "roll", "expr": "2d6"})
        assert status == 200
        expect(page.locator("#version")).to_contain_text("version 1", timeout=15_000)
        expect(page.locator("#said")).to_contain_text("Reconnected")
        assert page.evaluate("() => S.view.id") == made["id"]
    finally:
        again.kill(signal.SIGTERM)
    page.context.close()


def test_a_change_with_500_actions_in_the_log_costs_a_phone_under_5_kB(browser, server):
    api(server, "POST", "/api/sessions", {"system": "venom"})
    for i in range(500):
        api(server, "POST", "/api/sessions/active/actions", {"type": "roll", "expr": "5d6cs>=4", "expected_version": i})
    page = phone(browser, server)
    expect(page.locator("#version")).to_contain_text("version 500")
    settle(page)
    meter = Transfer(page)
    api(server, "POST", "/api/sessions/active/actions", {"type": "roll", "expr": "5d6cs>=4"})
    expect(page.locator("#version")).to_contain_text("version 501")
    settle(page)
    seen = meter.by_url()
    total = meter.total()
    assert any("log?after=500" in url for url in seen), seen
    assert not any("log?after=0" in url for url in seen), seen
    assert 0 < total < 5_000, (total, seen)
    page.context.close()
