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


# -- one request per tap (issue #37): a change sent with ``?moment=1`` is answered with the moment --------------
def test_a_change_asked_with_moment_answers_the_moment_and_no_state(table):
    _long_game(table, 3)
    client = phone(table)
    held = client.get("/api/sessions/active/moment?after=0", headers=AUTH).get_json()
    res = client.post(f"/api/sessions/active/actions?moment=1&after=3&base={held['tag']}", json=ROLL, headers=AUTH)
    answer = res.get_json()
    assert res.status_code == 200 and {"version", "result", "moment"} <= set(answer), answer
    assert answer["version"] == 4 and "state" not in answer and '"state"' not in json.dumps(answer)
    got = answer["moment"]
    full = client.get("/api/sessions/active/moment?after=3", headers=AUTH).get_json()
    assert got["base"] == held["tag"] and [e["seq"] for e in got["log"]] == [4]
    assert apply({"view": held["view"], "actions": held["actions"]}, got["patch"]) == {
        "view": full["view"],
        "actions": full["actions"],
    }
    # its tag is a base for the next change, as a moment's is
    after = client.get(f"/api/sessions/active/moment?after=4&base={got['tag']}", headers=AUTH).get_json()
    assert after["base"] == got["tag"] and "patch" in after


def test_undo_and_redo_asked_with_moment_answer_it_too(table):
    _long_game(table, 2)
    client = phone(table)
    for which, version in (("undo", 3), ("redo", 4)):
        answer = client.post(f"/api/sessions/active/{which}?moment=1&after=0", json={}, headers=AUTH).get_json()
        assert "state" not in answer and "moment" in answer and answer["version"] == version, answer
        assert answer["moment"]["view"]["version"] == version and answer["moment"]["log"][-1]["seq"] == version


def test_without_the_flag_a_change_answers_as_the_contract_says(table):
    _long_game(table, 1)
    answer = phone(table).post("/api/sessions/active/actions", json=ROLL, headers=AUTH).get_json()
    assert {"version", "state", "result"} <= set(answer) and "moment" not in answer


def test_a_bad_after_with_moment_is_refused_before_the_change_and_changes_nothing(table):
    _long_game(table, 1)
    res = phone(table).post("/api/sessions/active/actions?moment=1&after=x", json=ROLL, headers=AUTH)
    assert res.status_code == 400 and "'after' must be a version number" in res.get_json()["error"]
    assert table.view()["version"] == 1


def test_a_button_press_asked_with_moment_answers_it_and_no_state(table):
    _long_game(table, 1)
    client = phone(table)
    plain = client.post("/api/buttons/B", json={"hold": False}, headers=AUTH).get_json()
    assert "state" in plain and "moment" not in plain  # as before without the flag
    answer = client.post("/api/buttons/B?moment=1&after=2", json={"hold": False}, headers=AUTH).get_json()
    assert "state" not in answer and answer["version"] == 3, answer
    assert answer["moment"]["view"]["version"] == 3 and [e["seq"] for e in answer["moment"]["log"]] == [3]
