"""``POST /api/sessions/active/again`` (#34): "New game with the same players" starts the same system with the
same options and carries the seats; with no game it is a clear 404 that stores nothing."""

from __future__ import annotations

from tests.golden_states import ENDINGS, SCENARIOS
from tests.httpapi import AUTH, acted, api_client, seated


def test_the_same_game_again_has_the_same_options_and_seats(tmp_path):
    options, actions = SCENARIOS["venom"]
    with api_client(tmp_path, 1) as client:
        first = client.post("/api/sessions", json={"system": "venom", "options": options}, headers=AUTH).get_json()
        bob = seated(client, "Bob")
        for action in [*actions, *ENDINGS["venom"]]:
            acted(client, action)
        over = client.get("/api/sessions/active?brief=1", headers=AUTH).get_json()
        assert over["screen"]["result"] == {
            "label": "Medal of Honor",
            "winners": ["Ann"],
            "scores": [["Ann", "2 VP"], ["Bob", "0 VP"], ["Cy", "0 VP"]],
        }
        r = client.post("/api/sessions/active/again", headers=AUTH)
        assert r.status_code == 201, r.get_json()
        again = r.get_json()
        assert again["id"] != first["id"] and again["version"] == 0 and "state" not in again
        assert again["screen"]["result"] is None
        state = client.get("/api/sessions/active", headers=AUTH).get_json()["state"]
        assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cy"] and state["commander"] == 0
        # Bob's phone still sits at Bob's seat in the new game.
        assert client.get("/api/sessions/active?brief=1", headers=bob).get_json()["seat"] == "Bob"


def test_no_game_to_play_again_is_a_clear_404(tmp_path):
    with api_client(tmp_path, 1) as client:
        r = client.post("/api/sessions/active/again", headers=AUTH)
        assert r.status_code == 404 and "no game on the table" in r.get_json()["error"]
        assert client.get("/api/sessions", headers=AUTH).get_json() == []
