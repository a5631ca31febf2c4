"""A mid-game VENOM session over HTTP: the phone's forms come from the game's real names, never JSON."""

from __future__ import annotations

import random

import pytest
from tableside.core.errors import RuleError
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app

CODE = "VENOM1"
AUTH = {"Authorization": f"Bearer {CODE}"}
KINDS_A_PHONE_DRAWS = {"count", "pick", "picks", "seat", "text", "texts", "flag", "faces", "rows"}


@pytest.fixture
def client(tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(3))
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda b, h: table.press(b, h))
    yield create_app(services, {"TESTING": True}).test_client()
    table.store.close()


def _act(client, body):
    r = client.post("/api/sessions/active/actions", json=body, headers=AUTH)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _mid_game(client):
    made = client.post(
        "/api/sessions", json={"system": "venom", "options": {"players": ["Ann", "Bob", "Cy"]}}, headers=AUTH
    )
    assert made.status_code == 201
    _act(client, {"type": "commander_roll_off", "faces": [2, 6, 4]})  # Bob is the Commander
    for body in (
        {"type": "draw_event", "kind": "venom_strikes"},
        {"type": "next_phase"},
        {"type": "next_phase"},
        {
            "type": "choose_leader",
            "name": "Vipress",
            "zone": "VENOM Mountain Defense",
            "health": 2,
            "defense": 4,
            "support": 2,
        },
        {"type": "allocate_dice", "combat_value": 3},
        {"type": "combat_roll", "faces": [5, 1, 3]},
    ):
        _act(client, body)


def _choices(actions, action_type, field):
    spec = next(a for a in actions if a["type"] == action_type)
    found = next(f for f in spec["fields"] if f["name"] == field)
    return [(c["value"], c["label"]) for c in found["choices"]]


def test_mid_game_actions_offer_the_real_players_leader_zones_and_dice(client):
    _mid_game(client)
    r = client.get("/api/sessions/active/actions", headers=AUTH)
    assert r.status_code == 200
    body = r.get_json()
    actions = body["actions"]
    assert body["pending"] == [
        {
            "seat": "Bob",
            "text": "Bob: apply the Combat Abilities, then next phase",
            "type": "next_phase",
            "also": ["modify_die", "automatic_success"],
            "rule": "venom:phases",  # the rule it rests on (#35): the one a refusal of Next phase gives
        }
    ]
    assert [v for v, _ in _choices(actions, "add_reward", "player")] == ["Ann", "Bob", "Cy"]
    assert _choices(actions, "record_capture", "leader") == [("Vipress", "Vipress (in play)")]
    assert ("VENOM Mountain Defense", "VENOM Mountain Defense (Arctic)") in _choices(actions, "choose_leader", "zone")
    assert _choices(actions, "reroll_dice", "dice") == [
        (1, "Die 1: 5 (hit)"),
        (2, "Die 2: 1 (miss)"),
        (3, "Die 3: 3 (miss)"),
    ]
    assert ("venom_strikes", "VENOM Strikes! (9 left)") in _choices(actions, "draw_event", "kind")
    # The 18 shared between the two kinds, said as shared (it read "Freedom Squadron (18 or VENOM left)").
    assert ("freedom_squadron", "Freedom Squadron (18 left with VENOM)") in _choices(actions, "draw_event", "kind")
    assert ("venom", "VENOM (18 left with Freedom Squadron)") in _choices(actions, "draw_event", "kind")
    assert _choices(actions, "game_over", "winner")[0][1].startswith("Freedom Squadron")
    kinds = {f["kind"] for a in actions for f in a["fields"]}
    assert kinds <= KINDS_A_PHONE_DRAWS, kinds - KINDS_A_PHONE_DRAWS
    for a in actions:
        assert a["label"] and a["label"] != a["type"] and a["group"]
        for f in a["fields"]:
            assert f["label"] and (f.get("help") or a["type"] == "correct"), (a["type"], f)
    why = {a["type"]: a.get("reason") for a in actions if not a["available"]}
    assert why["combat_roll"] == "the Combat Dice were already rolled this Turn"
    assert why["choose_leader"] == "only in the Tactical Phase (now: Combat Phase)"
    assert why["commander_roll_off"] == "the Commander is already chosen and never changes during a game"
    assert "reroll_dice" not in why and "next_phase" not in why
    correct = next(a for a in actions if a["type"] == "correct")
    keys = {c["value"] for c in correct["fields"][0]["choices"]}
    assert {"event_track", "health_track", "defense_track", "event_deck.venom_strikes"} <= keys


def test_deck_corrections_move_cards_and_a_correction_that_breaks_the_deck_law_is_refused(client):
    _mid_game(client)
    # The VENOM Strikes! drawn this game is an active Event on the board: it cannot be back in the deck.
    r = client.post(
        "/api/sessions/active/actions",
        json={"type": "correct", "key": "event_deck.venom_strikes", "value": 10},
        headers=AUTH,
    )
    assert r.status_code == 422
    assert (
        "Event cards: 10 VENOM Strikes! in the deck + 1 drawn is not the 10 the deck was built with"
        in r.get_json()["error"]
    )
    # The table finds one All Is Quiet fewer than Tableside thought: it goes to the discard pile, unrecorded.
    out = _act(client, {"type": "correct", "key": "event_deck.all_is_quiet", "value": 8, "reason": "not entered"})
    assert out["state"]["event_discard"] == [{"kind": "all_is_quiet", "name": "", "unrecorded": True}]
    assert out["state"]["odds"]["venom_strikes_next"] == "9/35"
    back = _act(client, {"type": "correct", "key": "event_deck.all_is_quiet", "value": 9})
    assert back["state"]["event_discard"] == []
    r = client.post(
        "/api/sessions/active/actions", json={"type": "correct", "key": "event_track", "value": 6}, headers=AUTH
    )
    assert r.status_code == 422 and "at most 5" in r.get_json()["error"]


def test_a_session_saved_with_rules_version_1_opens_read_only_with_a_clear_message(tmp_path):
    """Version 2 changed how captures, adjustments and odds work: an old log would replay differently."""
    store = Store(tmp_path / "old.db")
    table = Table(store, rng=random.Random(1))
    made = table.create_session("venom", {"players": ["Ann", "Bob"], "commander": "Ann"})
    table.act({"type": "draw_event", "kind": "venom_strikes"})
    store.execute("UPDATE sessions SET rules_version = 1 WHERE id = ?", [made["id"]])
    again = Table(Store(tmp_path / "old.db"))
    view = again.view()
    assert view["state"]["event_track"] == 1
    assert view["readonly"] == (
        "this game was played with VENOM Assault rules v1, and this Tableside has v2: "
        "it can be viewed and exported, not played on"
    )
    assert all(not a["available"] for a in again.actions()["actions"])
    with pytest.raises(RuleError, match="rules v1"):
        again.act({"type": "next_phase"})
