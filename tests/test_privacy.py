"""Private dice stay private (issue #18, findings 1-3): one place, ``core.privacy``, decides what a
request may see, and every route of the app goes through it.

The sweep calls every route in Flask's url_map, with no seat, after the GM rolled a private Venus
2140 scene pool, and looks for the faces in every answer (JSON, CSV, SVG, events).
"""

from __future__ import annotations

import json
import re

import pytest
from tableside.core.errors import Conflict, RuleError
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.seats import SEAT_GONE_AFTER, seats_for

from tests import toysystem
from tests.httpapi import AUTH, acted, new_table, phone, seated

GM_FACES = [6, 4, 3, 2, 2, 1, 1]  # the GM's private roll (a Venus 2140 rack: 7 dice)


@pytest.fixture
def table(tmp_path):
    with new_table(tmp_path, 2140) as table:
        yield table


def _private_game(table):
    """A Venus 2140 game where the GM's phone rolled its pool privately; returns (gm phone, its headers)."""
    gm_phone = phone(table)
    r = gm_phone.post(
        "/api/sessions", json={"system": "v2140", "options": {"players": ["Shred"], "gm": "GM"}}, headers=AUTH
    )
    assert r.status_code == 201
    as_gm = seated(gm_phone, "GM")
    acted(gm_phone, {"type": "prepare_pool", "racks": 1}, as_gm)
    acted(gm_phone, {"type": "roll_pool", "participant": "GM", "faces": GM_FACES}, as_gm)
    return gm_phone, as_gm


def _secrets(table, as_gm, gm_phone) -> list[str]:
    """The private faces as the GM's phone reads them, written the ways a response could carry them
    (any order, no spaces): each roll of three or more dice, and the dice tossed from the pool."""
    own = gm_phone.get("/api/sessions/active/log", headers=as_gm).get_json()
    rolled = [r["rolls"] for r in own[-1]["rolls"] if len(r["rolls"]) >= 3]
    mine = gm_phone.get("/api/sessions/active", headers=as_gm).get_json()
    marked = [zip(r["rolls"], r["marks"], strict=True) for r in mine["roll"]["rolls"]]  # the roll on the GM's table
    tossed = sorted((f for record in marked for f, mark in record if mark == "tossed"), reverse=True)
    assert rolled and len(tossed) >= 3
    found = [f for faces in [*rolled, tossed] for f in (faces, sorted(faces), sorted(faces, reverse=True))]
    return sorted({",".join(map(str, f)) for f in found})


def _leaks(text: str, secrets: list[str]) -> list[str]:
    compact = re.sub(r"[\s\"']", "", text)
    return [s for s in secrets if s in compact]


def _url(rule, session_id: str) -> str:
    values = {"session_id": session_id, "label": "A", "size": "192", "filename": "app.js"}
    return rule.build({a: values.get(a, "x") for a in rule.arguments}, append_unknown=False)[1]


def test_a_seatless_request_to_every_route_after_a_private_roll_shows_none_of_the_faces(table):
    gm_phone, as_gm = _private_game(table)
    secrets = _secrets(table, as_gm, gm_phone)
    # The GM's own phone sees them, so the check below can fail.
    assert _leaks(json.dumps(gm_phone.get("/api/sessions/active/log", headers=as_gm).get_json()), secrets)
    session_id = table.position()[0]
    guest = phone(table)
    rules = [r for r in guest.application.url_map.iter_rules()]
    # Changes last (undo, then redo, which answers with the result of the GM's roll again).
    order = {"api.undo": 1, "api.redo": 2}
    calls = sorted(
        ((order.get(r.endpoint, 0), m, r) for r in rules for m in sorted(r.methods - {"HEAD", "OPTIONS"})),
        key=lambda c: (c[0], c[1] != "GET"),
    )
    seen = []
    for _, method, rule in calls:
        url = _url(rule, session_id)
        for query in ("", "?format=csv") if rule.endpoint == "api.export" else ("",):
            if method == "GET":
                r = guest.get(url + query, headers=AUTH, buffered=False)
            else:
                r = guest.open(url, method=method, json={}, headers=AUTH, buffered=False)
            if r.mimetype == "text/event-stream":
                text = next(iter(r.response)).decode() if isinstance(r.response, list) else ""
                if not text:
                    body = iter(r.response)
                    text = next(body)
                    text = text.decode() if isinstance(text, bytes) else text
            else:
                text = r.get_data(as_text=r.mimetype != "image/png")
                text = text if isinstance(text, str) else ""
            r.close()
            seen.append(rule.endpoint)
            assert not _leaks(text, secrets), (method, url + query, r.status_code, text[:400])
    assert {"api.export", "api.session_log", "history.luck", "history.chart", "api.undo", "api.redo"} <= set(seen)
    # the e-paper draws the public view only
    assert not _leaks(json.dumps(table.screen().to_dict()), secrets)


def test_export_json_and_csv_keep_other_seats_private_entries_to_their_summary(table):
    # finding 1: the export route returned the raw log
    gm_phone, as_gm = _private_game(table)
    guest = phone(table)
    for fmt in ("json", "csv"):
        text = guest.get(f"/api/sessions/active/export?format={fmt}", headers=AUTH).get_data(as_text=True)
        assert "rolled" in text and "3,2,2,1" not in re.sub(r"\s", "", text), fmt
    own = gm_phone.get("/api/sessions/active/export", headers=as_gm).get_json()
    roll = next(e for e in own["log"] if e["type"] == "roll_pool")
    assert roll["rolls"][0]["rolls"] == GM_FACES[:6] and roll["action"]["participant"] == "GM"


def test_a_refusal_for_another_seats_pool_reveals_nothing(table):
    # finding 2: "needs 5 more 6s" for another seat rebuilt a private pool
    gm_phone, as_gm = _private_game(table)
    nobody, guest = phone(table), phone(table)
    shred = seated(guest, "Shred")
    tries = [
        (nobody, {"type": "put_forward", "actor": "GM", "target": "Shred", "dice": [6, 6]}, AUTH),
        (nobody, {"type": "put_forward", "actor": "GM", "target": "Shred", "dice": [4, 4, 4, 4, 4]}, AUTH),
        (guest, {"type": "put_forward", "actor": "GM", "target": "Shred", "dice": [6, 6]}, shred),
        (nobody, {"type": "bid_initiative", "participant": "GM", "dice": [6, 6]}, AUTH),
    ]
    answers = set()
    for client, body, headers in tries:
        r = client.post("/api/sessions/active/actions", json=body, headers=headers)
        assert r.status_code == 422, r.get_json()
        answers.add(r.get_json()["error"].split(":")[0])
        assert "more" not in r.get_json()["error"] and "holds" not in r.get_json()["error"]
    assert answers == {"a phone with no seat cannot act for GM", "Shred cannot act for GM"}
    # the GM's own phone still hears what its pool lacks
    r = gm_phone.post(
        "/api/sessions/active/actions",
        json={"type": "put_forward", "target": "Shred", "dice": [6, 6]},
        headers=as_gm,
    )
    assert r.status_code == 422 and "needs 1 more 6" in r.get_json()["error"]


def test_the_table_acts_for_a_seat_no_phone_holds(table):
    table.create_session("v2140", {"players": ["Shred"], "gm": "GM"})
    table.act({"type": "prepare_pool", "participant": "GM", "racks": 1})
    out = table.act({"type": "roll_pool", "participant": "GM", "faces": GM_FACES}, source="phone")
    assert out["version"] == 2 and out["rolls"] == []  # played by the table; still shown as its summary


def test_a_held_seat_is_taken_over_only_with_its_phones_agreement_or_once_it_is_gone(table):
    # finding 3: {"takeover": true} handed the seat and the pool to anyone
    gm_phone, as_gm = _private_game(table)
    thief = phone(table)
    r = thief.post("/api/sessions/active/seats", json={"seat": "GM", "takeover": True}, headers=AUTH)
    assert r.status_code == 409 and "still here" in r.get_json()["error"]
    assert gm_phone.get("/api/sessions/active", headers=as_gm).get_json()["seat"] == "GM"
    # the holder agrees: it releases the seat, and another phone takes it at once
    assert gm_phone.post("/api/sessions/active/seats/release", json={}, headers=as_gm).status_code == 200
    assert thief.post("/api/sessions/active/seats", json={"seat": "GM"}, headers=AUTH).status_code == 200
    assert gm_phone.get("/api/sessions/active", headers=as_gm).status_code == 409


def test_a_phone_with_its_stream_open_is_present_and_one_gone_long_enough_is_taken_over(tmp_path):
    now = [1000.0]
    table = Table(
        Store(tmp_path / "t.db"), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM], clock=lambda: now[0]
    )
    table.create_session("toy")
    ann = seats_for(table).claim_seat("Ann")
    seats_for(table).stream_opened(ann["token"])
    now[0] += SEAT_GONE_AFTER * 10
    with pytest.raises(Conflict, match="still here"):
        seats_for(table).claim_seat("Ann", takeover=True)
    seats_for(table).stream_closed(ann["token"])
    now[0] += SEAT_GONE_AFTER - 1
    with pytest.raises(Conflict, match="still here"):
        seats_for(table).claim_seat("Ann", takeover=True)
    now[0] += 2
    assert seats_for(table).claim_seat("Ann", takeover=True)["seat"] == "Ann"
    table.store.close()


def test_undo_and_redo_answers_keep_a_private_result_to_its_seat(tmp_path):
    table = Table(Store(tmp_path / "t.db"), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM])
    table.create_session("toy")
    table.act({"type": "hide", "seat": "Ann", "n": 3, "faces": [6, 5, 1]}, seat="Ann")
    undone = table.undo(seat=None)
    assert "6" not in json.dumps(undone["result"]) and undone["result"]["summary"].startswith("Undid: Ann rolled")
    redone = table.redo(seat="Bob")
    assert "6" not in json.dumps(redone["result"])
    assert "[6, 5, 1]" in table.log(seat="Ann")[-1]["result"]["summary"]
    with pytest.raises(RuleError, match="Bob cannot act for Ann"):
        table.act({"type": "hide", "seat": "Ann", "n": 1, "faces": [2]}, seat="Bob")
    table.store.close()


def test_a_phone_with_no_seat_is_told_which_moves_are_a_held_seat_s_own_phone_s(table):
    """#17 F6b: the table phone (no seat) offered "Draw dice for a scene pool", "Roll the scene pool" and the GM's
    actions for seats phones held; the table refused each ("a phone with no seat cannot act for Shred: Shred's
    dice are private to Shred's phone"). The actions answer names, for a phone with no seat, the held seats whose
    own phone alone makes each move (own_phones): what the table refuses from it, no more, no less."""
    table.create_session("v2140", {"players": ["Shred", "Sven"], "gm": "GM"})
    table.act({"type": "prepare_pool", "participant": "Shred", "primary_skills": 1})
    assert not any("own_phones" in a for a in table.actions(None)["actions"])  # no phone holds a seat yet
    seats_for(table).claim_seat("Shred")
    seats_for(table).claim_seat("GM")
    listed = {a["type"]: a.get("own_phones", []) for a in table.actions(None)["actions"]}
    assert listed["prepare_pool"] == listed["roll_pool"] == listed["put_forward"] == ["Shred", "GM"]
    assert listed["new_scene"] == listed["session_rack"] == ["GM"]  # the GM's own actions: the GM's phone
    assert listed["next_participant"] == listed["settle_initiative"] == []  # the table's: any phone
    assert "own_phones" not in {a["type"]: a for a in table.actions("Shred")["actions"]}["roll_pool"]
    version = table.view()["version"]
    for refused in (
        {"type": "roll_pool", "participant": "Shred", "faces": [5, 4]},
        {"type": "prepare_pool", "participant": "GM", "racks": 1},
        {"type": "new_scene"},
    ):
        with pytest.raises(RuleError, match="a phone with no seat cannot act for"):
            table.act(refused, source="phone")
    assert table.view()["version"] == version
    # Sven's seat is free: the table draws and rolls for him.
    table.act({"type": "prepare_pool", "participant": "Sven", "primary_skills": 1}, source="phone")
    table.act({"type": "roll_pool", "participant": "Sven", "faces": [5, 4]}, source="phone")
