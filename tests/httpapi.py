"""The API as a phone calls it, in process, over a real Table and SQLite file: for the systems'
HTTP tests, where bad input must be a 422 naming the problem and change nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app

CODE = "SYS123"
AUTH = {"Authorization": f"Bearer {CODE}"}


def phone(table: Table):
    """A test client of the app over ``table`` (each call: another phone)."""
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda b, h: table.press(b, h))
    return create_app(services, {"TESTING": True}).test_client()


@contextmanager
def new_table(folder: Path, seed: int) -> Iterator[Table]:
    """A table on a new SQLite file in ``folder`` whose dice come from ``random.Random(seed)``, closed after."""
    table = Table(Store(folder / "t.db"), rng=random.Random(seed))
    try:
        yield table
    finally:
        table.store.close()


@contextmanager
def api_client(folder: Path, seed: int) -> Iterator:
    """One phone on a new table whose dice come from ``random.Random(seed)``."""
    with new_table(folder, seed) as table:
        yield phone(table)


def post(client, path: str, body: dict):
    return client.post(path, json=body, headers=AUTH)


def seated(client, seat: str) -> dict:
    """Headers of a phone that took ``seat`` (its seat token with the join code)."""
    r = client.post("/api/sessions/active/seats", json={"seat": seat}, headers=AUTH)
    assert r.status_code == 200, r.get_json()
    return {**AUTH, "X-Tableside-Seat": r.get_json()["token"]}


def acted(client, body: dict, headers: dict = AUTH) -> dict:
    """Send an action that must be accepted; its answer."""
    r = client.post("/api/sessions/active/actions", json=body, headers=headers)
    assert r.status_code == 200, (body, r.get_json())
    return r.get_json()


def refused(client, body: dict, *words: str, headers: dict = AUTH) -> str:
    """``body`` (sent with ``headers``) must be a 422 whose message names every word, and the version and state
    stay as they were."""
    before = client.get("/api/sessions/active", headers=AUTH).get_json()
    r = client.post("/api/sessions/active/actions", json=body, headers=headers)
    assert r.status_code == 422, (body, r.get_json())
    message = r.get_json()["error"]
    for word in words:
        assert word.lower() in message.lower(), (word, message)
    after = client.get("/api/sessions/active", headers=AUTH).get_json()
    assert (after["version"], after["state"]) == (before["version"], before["state"])
    return message
