"""The phone page's one request per change (issue #17): ``GET /api/sessions/active/moment``.

A phone opening a long game reads a bounded number of log entries; an unchanged moment is a 304;
a phone holding a moment gets only what changed, and that patch rebuilds exactly the full answer
without showing anything another seat's view would not.
"""

from __future__ import annotations

import json

import pytest
from tableside.core.patch import apply, diff
from tableside.webui.api import MOMENT_LOG

from tests.httpapi import AUTH, new_table, phone
from tests.test_privacy import _leaks, _private_game, _secrets

ROLL = {"type": "roll", "expr": "5d6cs>=4"}


@pytest.fixture
def table(tmp_path):
    with new_table(tmp_path, 17) as table:
        yield table


def _long_game(table, actions: int) -> None:
    table.create_session("venom", None)
    for _ in range(actions):
        table.act(dict(ROLL), source="api")


def test_a_first_load_of_a_long_game_reads_only_the_newest_log_entries(table):
    _long_game(table, MOMENT_LOG * 3)
    first = phone(table).get("/api/sessions/active/moment?after=0", headers=AUTH).get_json()
    seqs = [e["seq"] for e in first["log"]]
    assert len(seqs) == MOMENT_LOG and seqs[-1] == first["view"]["version"] == MOMENT_LOG * 3
    assert seqs == list(range(MOMENT_LOG * 2 + 1, MOMENT_LOG * 3 + 1))
    assert first["actions"]["actions"] and all("example" not in a for a in first["actions"]["actions"])


def test_an_unchanged_moment_answers_304_and_a_change_does_not(table):
    _long_game(table, 3)
    client = phone(table)
    url = "/api/sessions/active/moment?after=3"
    first = client.get(url, headers=AUTH)
    assert first.status_code == 200 and first.headers["ETag"]
    again = client.get(url, headers={**AUTH, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    table.act(dict(ROLL), source="api")
    changed = client.get(url, headers={**AUTH, "If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and [e["seq"] for e in changed.get_json()["log"]] == [4]


def test_a_phone_holding_a_moment_gets_the_change_only_and_it_rebuilds_the_whole(table):
    _long_game(table, 3)
    client = phone(table)
    held = client.get("/api/sessions/active/moment?after=0", headers=AUTH).get_json()
    table.act(dict(ROLL), source="api")
    url = f"/api/sessions/active/moment?after=3&base={held['tag']}"
    answer = client.get(url, headers=AUTH).get_json()
    full = client.get("/api/sessions/active/moment?after=3", headers=AUTH).get_json()
    assert "view" not in answer and answer["base"] == held["tag"] and answer["tag"] == full["tag"]
    rebuilt = apply({"view": held["view"], "actions": held["actions"]}, answer["patch"])
    assert rebuilt == {"view": full["view"], "actions": full["actions"]}
    assert len(json.dumps(answer)) * 4 < len(json.dumps(full))
    # a tag the table no longer knows (or never gave) is answered in full
    assert "view" in client.get("/api/sessions/active/moment?after=3&base=nope", headers=AUTH).get_json()


def test_another_seats_tag_as_base_shows_none_of_its_private_faces(table):
    gm_phone, as_gm = _private_game(table)
    secrets = _secrets(table, as_gm, gm_phone)
    gm = gm_phone.get("/api/sessions/active/moment?after=0", headers=as_gm)
    assert _leaks(gm.get_data(as_text=True), secrets)  # the GM's own moment has them: the check can fail
    gm_phone.delete_cookie("tableside_seat")  # the same server, now as a table phone holding the GM's tag
    guest = gm_phone.get(f"/api/sessions/active/moment?after=0&base={gm.get_json()['tag']}", headers=AUTH)
    assert "patch" in guest.get_json() and not _leaks(guest.get_data(as_text=True), secrets)


def test_a_patch_tells_true_from_one_and_removes_keys():
    old = {"a": 1, "b": [1, 2], "c": {"x": None, "y": 2}, "d": [1]}
    new = {"a": True, "b": [1, 3], "c": {"y": 2}, "d": [1, 2], "e": "new"}
    patch = diff(old, new)
    rebuilt = apply(old, patch)
    assert rebuilt == new and rebuilt["a"] is True and "x" not in rebuilt["c"]
    assert patch["del"] == [["c", "x"]] and [["b", 1], 3] in patch["set"]
    assert diff(new, new) == {"set": [], "del": []}


def test_with_no_game_the_moment_says_so_in_a_200_the_page_draws(table):
    """The page polls this route (the stream refused): no game is a moment too, never a 404 to tell apart."""
    client = phone(table)
    empty = client.get("/api/sessions/active/moment?after=0", headers=AUTH)
    assert empty.status_code == 200, empty.get_data(as_text=True)
    body = empty.get_json()
    assert body["view"] is None and body["actions"] is None and body["log"] == [] and body["tag"] is None
    assert "no game" in body["message"]
    again = client.get("/api/sessions/active/moment?after=0", headers={**AUTH, "If-None-Match": empty.headers["ETag"]})
    assert again.status_code == 304
    table.create_session("venom", None)
    started = client.get("/api/sessions/active/moment?after=0", headers=AUTH).get_json()
    assert started["view"]["system"] == "venom" and started["tag"]
