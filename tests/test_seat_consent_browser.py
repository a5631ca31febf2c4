"""The seat PIN on the phone (#33), at 390 x 844 with two phones: Shred's phone claims with a PIN and sleeps,
another takes the seat over with the PIN and reads Shred's pool; a third, without it, is told it sees what
the table sees.

The app is served in this process (werkzeug's threaded server over a Table with a test clock), so "two
minutes asleep" is the clock moved on, not a wait.
"""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app
from tableside.webui.seats import SEAT_GONE_AFTER, seats_for
from tableside.webui.stream import Broker
from werkzeug.serving import make_server

from tests.browser_support import phone, shot

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)
CODE = "PIN123"
POST = """async ([path, body]) => {
  const headers = {"Content-Type": "application/json"};
  const r = await fetch(path, {method: "POST", headers, body: JSON.stringify(body)});
  return [r.status, await r.json()];
}"""
GET = """async (path) => (await fetch(path)).json()"""


@pytest.fixture()
def table_server(tmp_path):
    now = [1000.0]
    table = Table(Store(tmp_path / "t.db"), clock=lambda: now[0])
    table.create_session("v2140", {"players": ["Shred"], "gm": "GM"})
    press = lambda b, h: table.press(b, h)  # noqa: E731
    # A keepalive each 0.5 s: werkzeug notices a phone that left at the next write (waitress at once).
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=press, broker=Broker(keepalive=0.5))
    http = make_server("127.0.0.1", 0, create_app(services), threaded=True)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    yield SimpleNamespace(port=http.server_port, code=CODE, now=now, table=table)
    http.shutdown()
    table.store.close()


def gone(server, seat: str) -> None:
    """Wait until the table notices ``seat``'s phone left (its stream closed), then move the clock past
    ``SEAT_GONE_AFTER``."""
    for _ in range(100):
        held = {s["name"]: s for s in seats_for(server.table).seat_holders()}[seat]
        if not held.get("here"):
            break
        threading.Event().wait(0.1)
    server.now[0] += SEAT_GONE_AFTER + 1


def sit(page, seat: str, pin: str = "") -> None:
    page.locator("#seat").click()
    if pin:
        page.locator("#seat-pin").fill(pin)
    page.locator("#seat-list button", has_text=seat).first.click()
    expect(page.locator("#seat")).to_have_text(f"Seat: {seat}")


def take_over(page, seat: str, pin: str) -> None:
    page.locator("#seat").click()
    page.locator("#seat-list button", has_text=f"Take over {seat}'s seat").click()
    expect(page.locator("#confirm-pin-row")).to_be_visible()
    expect(page.locator("#confirm-text")).to_contain_text(f"Type {seat}'s seat PIN")
    if pin:
        page.locator("#confirm-pin").fill(pin)
        shot(page, "seat-consent-confirm-pin", full_page=False)
    page.locator("#confirm-yes").click()
    expect(page.locator("#seat")).to_have_text(f"Seat: {seat}")


def test_a_phone_takes_shred_over_with_the_pin_and_one_without_it_sees_the_table_view(browser, table_server):
    one = phone(browser, table_server)
    expect(one.locator("#seat")).to_be_visible()
    sit(one, "Shred", "4711")
    prepare = {"type": "prepare_pool", "participant": "Shred", "primary_skills": 1, "secondary_skills": 1}
    for action in (prepare, {"type": "roll_pool", "participant": "Shred", "faces": [5, 4, 3]}):
        status, body = one.evaluate(POST, ["/api/sessions/active/actions", action])
        assert status == 200, body
    seats = one.evaluate(GET, "/api/sessions/active/seats")["seats"]
    assert next(s for s in seats if s["name"] == "Shred")["pin"] is True
    one.context.close()  # Shred's phone sleeps past SEAT_GONE_AFTER
    gone(table_server, "Shred")

    two = phone(browser, table_server)
    take_over(two, "Shred", "4711")
    assert two.evaluate(GET, "/api/sessions/active")["state"]["participants"]["Shred"]["pool"] == [5, 4]
    expect(two.locator("#seat-public")).to_be_hidden()
    shot(two, "seat-consent-with-pin")
    two.context.close()
    gone(table_server, "Shred")

    three = phone(browser, table_server)
    take_over(three, "Shred", "")  # no PIN: seated, but with the table's view of Shred's pool
    words = "Seated without the PIN: this phone sees what the table sees of Shred's pool or hand."
    expect(three.locator("#seat-public")).to_have_text(words)
    assert three.evaluate(GET, "/api/sessions/active")["state"]["participants"]["Shred"]["pool"] is None
    expect(three.locator("#banner")).to_be_hidden()
    shot(three, "seat-consent-without-pin", full_page=False)
    three.context.close()
