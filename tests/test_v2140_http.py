"""Venus 2140 over HTTP: a pool stays private to its seat, and bad input is a 422 that changes nothing."""

from __future__ import annotations

import json
import random

import pytest
from tableside.core.store import Store
from tableside.core.table import Table

from tests.httpapi import AUTH, phone, refused

SHRED_FACES = {"6": 2, "5": 4, "4": 1, "3": 2, "2": 2, "1": 1}  # 6655433221 with the roll-ins 55


@pytest.fixture
def table(tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(2140))
    yield table
    table.store.close()


def seated(client, seat):
    r = client.post("/api/sessions/active/seats", json={"seat": seat}, headers=AUTH)
    assert r.status_code == 200, r.get_json()
    return {**AUTH, "X-Tableside-Seat": r.get_json()["token"]}


def act(client, body, headers=AUTH):
    r = client.post("/api/sessions/active/actions", json=body, headers=headers)
    assert r.status_code == 200, (body, r.get_json())
    return r.get_json()


def start(client):
    r = client.post(
        "/api/sessions", json={"system": "v2140", "options": {"players": ["Shred"], "gm": "GM"}}, headers=AUTH
    )
    assert r.status_code == 201, r.get_json()


def test_the_targets_phone_cannot_see_the_actors_pool_before_the_exchange_resolves(table):
    shred_phone, gm_phone = phone(table), phone(table)
    start(shred_phone)
    as_shred, as_gm = seated(shred_phone, "Shred"), seated(gm_phone, "GM")
    events: list[dict] = []
    table.subscribe(events.append)
    act(
        shred_phone,
        {"type": "prepare_pool", "primary_skills": 3, "secondary_skills": 3, "secondary_assist_quality": 4},
        as_shred,
    )
    mine = act(shred_phone, {"type": "roll_pool", "faces": SHRED_FACES}, as_shred)
    assert mine["state"]["participants"]["Shred"]["pool"] == [6, 6, 5, 5, 5, 5, 4]
    # The roll on the table is Shred's alone, like the pool: Shred's phone shows it, the GM's does not.
    shreds_roll = shred_phone.get("/api/sessions/active", headers=as_shred).get_json()["roll"]
    assert [r["rolls"] for r in shreds_roll["rolls"]] == [r["rolls"] for r in mine["rolls"]]
    assert shreds_roll["private"] and shreds_roll["seat"] == "Shred"
    assert gm_phone.get("/api/sessions/active", headers=as_gm).get_json()["roll"] is None
    act(gm_phone, {"type": "prepare_pool", "racks": 1}, as_gm)
    act(gm_phone, {"type": "roll_pool", "participant": "GM", "faces": [6, 4, 3, 2, 2, 1, 1]}, as_gm)
    act(shred_phone, {"type": "put_forward", "target": "GM", "dice": [6], "says": "acid rain"}, as_shred)

    # The GM (the target) is asked to answer, and sees the die put forward, face up, but not the pool.
    view = gm_phone.get("/api/sessions/active", headers=as_gm).get_json()
    shred = view["state"]["participants"]["Shred"]
    assert shred["pool"] is None and shred["dice"] == 6 and view["roll"] is None
    assert view["state"]["participants"]["GM"]["pool"] == [6, 4]
    assert view["state"]["exchange"]["forward"] == [6]
    assert view["pending"] == [
        {"seat": "GM", "text": "GM: answer Shred's 6 with 1 die", "type": "answer", "rule": "v2140:answer"}
    ]
    hidden = json.dumps([6, 5, 5, 5, 5, 4])  # what Shred holds now
    assert hidden not in json.dumps(view)
    actions = gm_phone.get("/api/sessions/active/actions", headers=as_gm).get_json()
    assert hidden not in json.dumps(actions)
    assert hidden in json.dumps(shred_phone.get("/api/sessions/active", headers=as_shred).get_json())
    # The log: Shred's roll reads as its public summary, with no faces and no action details.
    log = gm_phone.get("/api/sessions/active/log", headers=as_gm).get_json()
    roll = next(e for e in log if e["type"] == "roll_pool" and e["seat"] == "Shred")
    assert roll["rolls"] == [] and roll["action"] is None and roll.get("private") is True
    assert roll["result"] == {
        "summary": "Shred rolled 10 dice into the scene pool, 2 more rolled in for sixes: "
        "5 tossed (1s to 3s), 7 left in the pool"
    }
    own = shred_phone.get("/api/sessions/active/log", headers=as_shred).get_json()
    own_roll = next(e for e in own if e["type"] == "roll_pool" and e["seat"] == "Shred")
    assert [f for r in own_roll["rolls"] for f in r["rolls"]] == [6, 6, 5, 5, 5, 5, 4, 3, 3, 2, 2, 1]
    # The stream carries versions only.
    assert events and all(set(e) == {"kind", "session", "version"} for e in events)
    # The e-paper and a phone without a seat: counts only.
    public = phone(table).get("/api/sessions/active", headers=AUTH).get_json()
    assert all(p["pool"] is None for p in public["state"]["participants"].values())
    grid = public["screen"]["elements"][0]
    assert [list(r["cells"])[:2] for r in grid["rows"]] == [["6 dice", "0 books"], ["2 dice", "0 books"]]
    # Undo and redo of Shred's roll from the GM's phone do not hand over the faces either.
    act(shred_phone, {"type": "withdraw"}, as_shred)
    for path in ("undo", "undo", "redo"):
        r = gm_phone.post(f"/api/sessions/active/{path}", json={}, headers=as_gm)
        assert r.status_code == 200
        body = r.get_json()
        assert body["state"]["participants"]["Shred"]["pool"] is None
        assert hidden not in json.dumps(body) and "6655554" not in json.dumps(body)
    # Redone, the exchange waits again; once resolve it with button B, every die is public with its fate.
    act(gm_phone, {"type": "answer", "dice": [4]}, as_gm)
    r = gm_phone.post("/api/buttons/B", json={}, headers=as_gm)
    assert r.status_code == 200
    last = r.get_json()["state"]["last_exchange"]
    assert [(f["face"], f["fate"]) for f in last["fates"]] == [(6, "won"), (4, "captured")]
    assert r.get_json()["state"]["participants"]["Shred"]["books"] == 1
    assert hidden not in json.dumps(r.get_json())


def test_bad_input_over_http_is_a_422_naming_the_problem_and_changes_nothing(table):
    client = phone(table)
    start(client)
    act(client, {"type": "prepare_pool", "participant": "Shred", "primary_skills": 1})
    act(client, {"type": "roll_pool", "participant": "Shred", "faces": [6, 5, 1]})  # keeps 65
    act(client, {"type": "prepare_pool", "participant": "GM", "racks": 1})
    act(client, {"type": "roll_pool", "participant": "GM", "faces": [5, 5, 4, 3, 2, 1]})

    refused(
        client,
        {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6, 5, 5]},
        "Shred holds 2 dice",
        "cannot put forward 3",
    )
    # which faces a pool lacks: test_only_the_pool_s_own_phone_is_told_which_faces_it_lacks
    refused(client, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [7]}, "1-6", "7")
    act(client, {"type": "prepare_pool", "participant": "GM", "racks": 1})
    refused(client, {"type": "roll_pool", "participant": "GM", "faces": [7, 5, 4, 3, 2, 1]}, "7", "d6")
    refused(client, {"type": "roll_pool", "participant": "GM", "faces": {"7": 1, "5": 5}}, "7")
    refused(client, {"type": "buy_goal", "participant": "Shred", "price": 2}, "Shred has 0 book", "costs 2")
    refused(client, {"type": "reputation", "participant": "Shred", "books": 3}, "Shred has 0 book", "cannot spend 3")
    refused(client, {"type": "prepare_pool", "participant": "GM", "racks": -1}, "Racks", "at least 0", "-1")
    refused(client, {"type": "set_rack", "participant": "GM", "rack": -1}, "Rack", "at least 1", "-1")
    refused(client, {"type": "correct", "key": "session_racks", "value": -1}, "at least 0")
    refused(client, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6, 5]}, "at most 1 of 2")
    act(client, {"type": "put_forward", "actor": "Shred", "target": "GM", "dice": [6]})
    refused(client, {"type": "answer", "dice": [5, 5]}, "GM must answer Shred's 1 die with 1")
    refused(client, {"type": "next_participant"}, "resolve it with button B")
    r = client.post("/api/buttons/B", json={}, headers=AUTH)
    assert r.status_code == 422 and "waiting for GM to answer" in r.get_json()["error"]
    act(client, {"type": "answer", "dice": [5]})
    r = client.post("/api/buttons/B", json={}, headers=AUTH)
    assert r.status_code == 200 and r.get_json()["state"]["participants"]["Shred"]["books"] == 1


def test_only_the_pool_s_own_phone_is_told_which_faces_it_lacks(table):
    """#33: a seat no phone holds may be played from the table's phone, which is answered from the count
    only (tests/test_v2140_pool_probes.py): dice it names are taken as seen. The seat's own phone is told."""
    client = phone(table)
    start(client)
    act(client, {"type": "prepare_pool", "participant": "Shred", "primary_skills": 1})
    act(client, {"type": "roll_pool", "participant": "Shred", "faces": [6, 5, 1]})  # keeps 65
    act(client, {"type": "prepare_pool", "participant": "GM", "racks": 1})
    act(client, {"type": "roll_pool", "participant": "GM", "faces": [5, 5, 4, 3, 2, 1]})  # keeps 55 4
    body = act(client, {"type": "bid_initiative", "participant": "Shred", "dice": [3]})
    assert body["state"]["participants"]["Shred"]["dice"] == 1
    as_gm = seated(phone(table), "GM")
    refused(client, {"type": "bid_initiative", "participant": "GM", "dice": [6]}, "needs 1 more 6", headers=as_gm)
    refused(client, {"type": "bid_initiative", "participant": "GM", "dice": [6]}, "cannot act for GM")
