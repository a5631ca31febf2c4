"""Both game systems over HTTP: bad input is a 422 naming the problem and changes nothing."""

from __future__ import annotations

import pytest

from tests.httpapi import AUTH, api_client, post, refused


@pytest.fixture
def client(tmp_path):
    with api_client(tmp_path, seed=11) as phone:
        yield phone


def act(client, body):
    return post(client, "/api/sessions/active/actions", body)


def test_systems_are_listed_with_options_actions_and_buttons(client):
    systems = {s["id"]: s for s in client.get("/api/systems", headers=AUTH).get_json()}
    assert {"venom", "vnm"} <= set(systems)
    for s in systems.values():
        # A system binds the buttons it has a use for (D and hold D are always undo and redo):
        # tests/test_conformance.py checks the declaration; no system must bind B.
        buttons = {b["button"] for b in s["buttons"]}
        assert s["options"] and s["actions"] and "D" in buttons and buttons <= {"A", "B", "C", "D"}


def test_brief_systems_leave_out_the_actions_the_page_never_draws_from_them(client):
    """The phone's first load carried every system's actions (13.7 kB of 60): it draws the new game form
    from the options and the buttons, and the game's actions from its own answer."""
    full = client.get("/api/systems", headers=AUTH)
    brief = client.get("/api/systems?brief=1", headers=AUTH)
    assert [s["id"] for s in brief.get_json()] == [s["id"] for s in full.get_json()]
    for s, whole in zip(brief.get_json(), full.get_json(), strict=True):
        assert "actions" not in s and s == {k: v for k, v in whole.items() if k != "actions"}
    assert len(brief.get_data()) < len(full.get_data()) / 2


def test_venom_bad_input(client):
    r = post(client, "/api/sessions", {"system": "venom", "options": {"players": ["A", "B", "C", "D", "E", "F"]}})
    assert r.status_code == 422 and "Players" in r.get_json()["error"]
    assert post(client, "/api/sessions", {"system": "venom", "options": {"players": ["Ana", "Ben"]}}).status_code == 201
    assert act(client, {"type": "set_commander", "player": "Ana"}).status_code == 200
    leader = {
        "type": "choose_leader",
        "name": "Vipress",
        "zone": "VENOM Mountain Defense",
        "zone_type": "Arctic",
        "health": 2,
        "defense": 4,
        "support": 2,
    }
    refused(client, leader, "only in the Tactical Phase")
    for step in ({"type": "draw_event", "kind": "all_is_quiet"}, {"type": "next_phase"}, {"type": "next_phase"}):
        assert act(client, step).status_code == 200
    refused(client, {**leader, "health": 0}, "health")
    refused(client, {**leader, "defense": 9}, "defense")
    assert act(client, leader).status_code == 200
    refused(client, {"type": "combat_roll", "dice": 0}, "dice")
    refused(client, {"type": "summon_kaiju"}, "unknown action", "summon_kaiju")


def test_vnm_bad_input(client):
    seven = ["Venus", "Mars", "Ganymede", "Titan", "Pluto", "Earth", "Venus"]
    r = post(client, "/api/sessions", {"system": "vnm", "options": {"players": seven}})
    assert r.status_code == 422 and "player" in r.get_json()["error"].lower()
    made = post(client, "/api/sessions", {"system": "vnm", "options": {"players": ["Venus", "Mars", "Pluto"]}})
    assert made.status_code == 201, made.get_json()
    refused(client, {"type": "research", "upgrade": "Yttrium Alloys"}, "Enhanced")
    refused(client, {"type": "collect", "area": "Atlantis", "count": 1}, "Atlantis")
    refused(client, {"type": "draw_zap", "world": "Pluto", "count": 1}, "hand")
    # Empty an area, then collecting from it must be refused.
    state = made.get_json()["state"]
    north_america = next(a for a in state["land_areas"] if a["name"] == "North America")
    for _ in range(north_america["population"]):
        assert act(client, {"type": "collect", "area": "North America", "count": 1}).status_code == 200
        act(client, {"type": "end_turn"})
    refused(client, {"type": "collect", "area": "North America", "count": 1}, "North America")
