"""The phone says why it has no live updates (#17 leftovers 3), in chromium at 390 x 844 against a real server.

An EventSource never tells the page why it was refused; the phone used to say "live updates are busy" for any
refusal. Now: too many phones streaming (the table's ``max_streams``), another refusal with the table's own
reason, and no answer at all are each said as what they are, and the phone keeps up by polling meanwhile.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, phone, served, shot
from tests.test_tap_budget import api

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

TOO_MANY = "Too many phones are following the table live: this one checks every few seconds instead"


@pytest.fixture
def one_stream(tmp_path):
    yield from served(tmp_path, "[server]\nmax_streams = 1  # one phone streams, the next is refused\n")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # One server for the short tests: a server stopped seconds after its start waits for the e-paper's start
    # (3-10 s at load 5-10 here, against 0.1-0.9 s once started), which at load 20+ can pass a stop's 20 s.
    yield from served(tmp_path_factory.mktemp("words"), MANY_NEW_GAMES)


def test_a_phone_past_the_stream_limit_says_too_many_phones_and_still_follows_the_table(browser, one_stream):
    api(one_stream, "POST", "/api/sessions", {"system": "venom"})
    first = phone(browser, one_stream)  # holds the table's one stream
    second = phone(browser, one_stream, join=False)
    second.goto(f"/join?code={one_stream.code}")
    link = second.locator("#link")
    expect(link).to_have_text(TOO_MANY)
    expect(link).to_have_class("link down")
    shot(second, "stream-refused-too-many", full_page=False)
    # It keeps up by polling: a change shows within a poll or two.
    version = api(one_stream, "POST", "/api/sessions/active/actions", {"type": "roll", "expr": "2d6"})["version"]
    expect(second.locator("#version")).to_contain_text(f"version {version}", timeout=30_000)
    expect(link).to_have_text(TOO_MANY)
    # The first phone leaves: the second's stream opens at its next try.
    first.context.close()
    expect(link).to_have_class("link live", timeout=45_000)
    second.context.close()


def test_another_refusal_is_said_with_the_table_s_reason(browser, server):
    api(server, "POST", "/api/sessions", {"system": "venom"})
    page = phone(browser, server, join=False)
    stopping = json.dumps({"error": "the table is stopping"})  # what the table answers while it stops
    page.route(
        "**/api/stream",
        lambda route: route.fulfill(status=503, content_type="application/json", body=stopping),
    )
    page.goto(f"/join?code={server.code}")
    link = page.locator("#link")
    said = "Live updates refused: the table is stopping. This phone checks every few seconds instead"
    expect(link).to_have_text(said)
    expect(link).not_to_contain_text("Too many")
    shot(page, "stream-refused-stopping", full_page=False)
    page.context.close()


def test_no_answer_at_all_is_said_as_a_lost_connection(browser, server):
    api(server, "POST", "/api/sessions", {"system": "venom"})
    page = phone(browser, server, join=False)
    page.route("**/api/stream", lambda route: route.abort("connectionrefused"))
    page.goto(f"/join?code={server.code}")
    link = page.locator("#link")
    expect(link).to_have_text(re.compile("^Connection lost: "))
    expect(link).to_have_class("link down")
    expect(page.locator("#version")).to_contain_text("version 0")  # the page itself loaded: only the stream fails
    page.context.close()


def test_a_refusal_whose_reason_does_not_come_is_said_as_a_lost_connection(browser, server):
    """The stream refused, then no answer when the phone asks why (the table gone meanwhile): not "refused"."""
    api(server, "POST", "/api/sessions", {"system": "venom"})
    page = phone(browser, server, join=False)

    def refuse_then_vanish(route):
        if route.request.resource_type == "eventsource":
            route.fulfill(status=503, content_type="application/json", body='{"error": "the table is stopping"}')
        else:  # the phone's own question why
            route.abort("connectionrefused")

    page.route("**/api/stream", refuse_then_vanish)
    page.goto(f"/join?code={server.code}")
    link = page.locator("#link")
    expect(link).to_have_text("Connection lost: the table does not answer. Trying again every few seconds…")
    expect(link).to_have_class("link down")
    page.context.close()
