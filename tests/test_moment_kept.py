"""The moment answer is made once per ``Table.mark`` and read again without the table's lock (issue #17's
GET p99 with ten phones): what is read again must be exactly what a fresh build gives after any change
(an action, undo, redo, a seat claimed, released or taken over), a seat's old phone must not be answered
from it, and a phone re-reading it must not wait behind a change being written to disk.
"""

from __future__ import annotations

import gzip
import json
import random
import threading

import pytest
from tableside.core.patch import apply
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.seats import SEAT_GONE_AFTER, seats_for

from tests.handclock import Clock
from tests.httpapi import AUTH, phone

ROLL = {"type": "roll", "expr": "2d10"}
GZ = {"Accept-Encoding": "gzip"}


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def table(tmp_path, clock):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(19), clock=clock)
    table.create_session("vnm", None)
    yield table
    table.store.close()


def _claim(client, seat: str, takeover: bool = False) -> dict:
    r = client.post("/api/sessions/active/seats", json={"seat": seat, "takeover": takeover}, headers=AUTH)
    assert r.status_code == 200, r.get_json()
    client.delete_cookie("tableside_seat")  # the token goes in a header: the same client can ask as another phone
    return {**AUTH, "X-Tableside-Seat": r.get_json()["token"]}


def _read(response) -> dict:
    assert response.status_code == 200, response.get_data(as_text=True)
    raw = response.data
    return json.loads(gzip.decompress(raw) if response.headers.get("Content-Encoding") == "gzip" else raw)


def test_every_answer_read_again_is_what_a_fresh_build_gives_after_any_change(table):
    kept = phone(table)  # one server: it keeps the answers it made
    as_venus = _claim(kept, "Venus")
    held = {
        kind: _read(kept.get("/api/sessions/active/moment?after=0", headers=h))
        for kind, h in (("table", AUTH), ("venus", as_venus))
    }
    mars: list[dict] = []  # the headers of the phone that claims Mars
    changes = [
        lambda: table.act(dict(ROLL), source="api"),
        lambda: table.act(dict(ROLL), source="api"),
        lambda: table.undo(source="api"),
        lambda: table.redo(source="api"),
        lambda: mars.append(_claim(kept, "Mars")),  # a claim changes every view's "claimed" flags, not the version
        lambda: seats_for(table).release_seat(mars[0]["X-Tableside-Seat"]),  # the file keeps only its hash
        lambda: table.act(dict(ROLL), source="api"),
    ]
    seen: set[str] = set()  # the tags of the moments before: a change names a new one
    for change in [None, *changes]:
        for kind, headers in (("table", AUTH), ("venus", as_venus)):
            base = held[kind]
            for extra in ({}, GZ):
                url = f"/api/sessions/active/moment?after=1&base={base['tag']}"
                seen.add(_read(kept.get(url, headers={**headers, **extra}))["tag"])  # made and kept before
        if change is not None:
            change()
        for kind, headers in (("table", AUTH), ("venus", as_venus)):
            base = held[kind]
            fresh = _read(phone(table).get("/api/sessions/active/moment?after=1", headers=headers))
            tags = set()
            for extra in ({}, GZ):
                url = f"/api/sessions/active/moment?after=1&base={base['tag']}"
                for _ in range(2):  # made, then read again
                    again = _read(kept.get(url, headers={**headers, **extra}))
                    assert again["log"] == fresh["log"]
                    tags.add(again["tag"])
                    rebuilt = apply({"view": base["view"], "actions": base["actions"]}, again["patch"])
                    assert rebuilt == {"view": fresh["view"], "actions": fresh["actions"]}
            assert len(tags) == 1 and bool(tags & seen) == (change is None)  # one tag, new after a change


def test_a_seat_taken_over_is_not_answered_from_what_its_old_phone_was_sent(table, clock):
    old_phone = phone(table)
    as_old = _claim(old_phone, "Venus")
    url = "/api/sessions/active/moment?after=0"
    assert _read(old_phone.get(url, headers=as_old))["view"]["seat"] == "Venus"
    assert _read(old_phone.get(url, headers=as_old))["view"]["seat"] == "Venus"  # read again: kept
    clock.now += SEAT_GONE_AFTER + 1  # the old phone is gone long enough
    new_phone = phone(table)
    _claim(new_phone, "Venus", takeover=True)
    refused = old_phone.get(url, headers=as_old)
    assert refused.status_code == 409 and "no longer holds a seat" in refused.get_json()["error"]


def test_a_seated_phone_answered_from_the_kept_moment_is_still_here(table, clock):
    seated = phone(table)
    as_venus = _claim(seated, "Venus")
    url = "/api/sessions/active/moment?after=0"
    _read(seated.get(url, headers=as_venus))
    clock.now += SEAT_GONE_AFTER + 1
    _read(seated.get(url, headers=as_venus))  # the same answer, read again: the phone is here now
    r = phone(table).post("/api/sessions/active/seats", json={"seat": "Venus", "takeover": True}, headers=AUTH)
    assert r.status_code == 409 and "still here" in r.get_json()["error"]


def test_a_phone_rereading_the_moment_does_not_wait_behind_a_change_being_written(table, monkeypatch):
    client = phone(table)
    url = "/api/sessions/active/moment?after=0"
    before = _read(client.get(url, headers=AUTH))
    writing, written = threading.Event(), threading.Event()
    append = table.store.append

    def slow_disk(*args, **kwargs):  # the change holds the table while its entry is written
        writing.set()
        assert written.wait(30)
        return append(*args, **kwargs)

    monkeypatch.setattr(table.store, "append", slow_disk)
    writer = threading.Thread(target=table.act, args=(dict(ROLL),), kwargs={"source": "api"})
    writer.start()
    try:
        assert writing.wait(30)
        answers: list = []
        reader = threading.Thread(target=lambda: answers.append(client.get(url, headers=AUTH)))
        reader.start()
        reader.join(10)
        assert answers, "the phone waited for the change being written"
        assert _read(answers[0]) == before  # the moment as it is until the change is done: not the next one
    finally:
        written.set()
        writer.join(30)
    after = _read(client.get(url, headers=AUTH))
    assert (
        after["view"]["version"] == before["view"]["version"] + 1
        and after["log"][-1]["seq"] == after["view"]["version"]
    )


def test_a_kept_answer_is_revalidated_as_compress_revalidates_every_other_answer(table):
    client = phone(table)
    url = "/api/sessions/active/moment?after=0"
    for extra in ({}, GZ):
        first = client.get(url, headers={**AUTH, **extra})
        etag = first.headers["ETag"]
        assert first.headers["Vary"] == "Accept-Encoding" and first.headers["Cache-Control"] == "no-cache"
        assert (first.headers.get("Content-Encoding") == "gzip") == bool(extra) and etag.endswith('-gz"') == bool(extra)
        for held in (etag, f'"other", W/{etag}', "*"):
            again = client.get(url, headers={**AUTH, **extra, "If-None-Match": held})
            assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag, held
        other = client.get(url, headers={**AUTH, **extra, "If-None-Match": '"other"'})
        assert other.status_code == 200 and other.data == first.data and other.headers["ETag"] == etag
        head = client.head(url, headers={**AUTH, **extra})
        assert head.status_code == 200 and head.data == b""
