"""A round's end over HTTP (#34): the view names the round being played; GET /api/sessions/active/round tells
what changed in the last round that ended, the same for every seat, and forgets a round end that is undone."""

from __future__ import annotations

from tests.golden_states import ENDINGS, SCENARIOS
from tests.httpapi import AUTH, acted, api_client, post, seated


def test_a_vegas_round_end_is_told_to_every_phone_and_undone(tmp_path):
    options, actions = SCENARIOS["vegas"]
    with api_client(tmp_path, 1) as client:
        client.post("/api/sessions", json={"system": "vegas", "options": options}, headers=AUTH)
        for action in actions:
            acted(client, action)
        view = client.get("/api/sessions/active", headers=AUTH).get_json()
        assert view["round"] == "Round 1"
        assert client.get("/api/sessions/active/round", headers=AUTH).get_json()["summary"] is None
        for action in ENDINGS["vegas"][:7]:
            acted(client, action)
        view = client.get("/api/sessions/active", headers=AUTH).get_json()
        assert view["round"] is None  # the round is over
        told = client.get("/api/sessions/active/round", headers=AUTH).get_json()
        assert told["summary"]["round"] == "Round 1" and told["version"] == view["version"]
        texts = [line["text"] for line in told["summary"]["lines"]]
        assert texts[0].startswith("Ann: VP +9") and texts[1].startswith("Bob: VP +4")
        bob = client.get("/api/sessions/active/round", headers=seated(client, "Bob")).get_json()
        assert bob["summary"] == told["summary"]  # public: the same lines on every phone
        assert post(client, "/api/sessions/active/undo", {}).status_code == 200
        again = client.get("/api/sessions/active/round", headers=AUTH).get_json()
        assert again["summary"] is None and again["round"] == "Round 1"


def test_no_game_no_round(tmp_path):
    with api_client(tmp_path, 1) as client:
        r = client.get("/api/sessions/active/round", headers=AUTH)
        assert r.status_code == 404 and "no game" in r.get_json()["error"]
