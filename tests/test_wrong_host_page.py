"""The host-name refusal (the DNS rebinding guard) is a page a person can read in a browser, and stays JSON
for an API client (issue 38: a phone that opened the table by a router's name got raw JSON)."""

from __future__ import annotations

import random

import pytest
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app

from tests import toysystem

CODE = "K7TQ2M"
# Chromium's Accept for a page it navigates to, and curl's.
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


@pytest.fixture
def client(tmp_path):
    table = Table(
        Store(tmp_path / "t.db"), rng=random.Random(3), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda *_: {})
    yield create_app(services, {"TESTING": True}).test_client()
    table.store.close()


def test_a_browser_gets_a_page_that_says_what_to_open(client):
    r = client.get("/", headers={"Host": "tableside.fritz.box:8080", "Accept": BROWSER})
    assert r.status_code == 400 and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    assert "<h1>This table does not answer to &#x27;tableside.fritz.box:8080&#x27;</h1>" in page
    assert "http://NAME.local:8080/" in page and '[server] names = ["tableside.fritz.box"]' in page
    assert "<script" not in page and "{" not in page.split("<body>")[1]  # no JSON, nothing left unformatted


def test_a_hostile_host_is_escaped(client):
    r = client.get("/", headers={"Host": "<script>x</script>", "Accept": BROWSER})
    assert r.status_code == 400 and "<script>" not in r.get_data(as_text=True)


@pytest.mark.parametrize("accept", ["*/*", "application/json", None])
def test_an_api_client_still_gets_json(client, accept):
    headers = {"Host": "evil.example", **({"Accept": accept} if accept else {})}
    r = client.get("/api/systems", headers=headers)
    assert r.status_code == 400 and "does not answer to the host name 'evil.example'" in r.get_json()["error"]
