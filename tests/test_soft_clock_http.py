"""The soft clock over HTTP (#34): off by default; "clock": true at New game switches it on as the game's first
entry; whose move it is runs; Pause and its Undo are log entries; the recap's time per seat names the same seats;
a bad "clock" is a 400 that starts nothing."""

from __future__ import annotations

from tests.golden_states import SCENARIOS
from tests.httpapi import AUTH, acted, api_client, post


def test_the_clock_on_paused_undone_and_in_the_recap(tmp_path):
    options, actions = SCENARIOS["vnm"]
    with api_client(tmp_path, 1) as client:
        r = post(client, "/api/sessions", {"system": "vnm", "options": options, "clock": "yes"})
        assert r.status_code == 400 and "'clock' must be true or false" in r.get_json()["error"]
        assert client.get("/api/sessions/active", headers=AUTH).status_code == 404  # nothing started
        post(client, "/api/sessions", {"system": "vnm", "options": options})
        assert client.get("/api/sessions/active/clock", headers=AUTH).get_json()["on"] is False  # off by default
        r = post(client, "/api/sessions", {"system": "vnm", "options": options, "clock": True})
        assert r.status_code == 201 and r.get_json()["version"] == 1
        for action in actions:
            acted(client, action)
        moment = client.get("/api/sessions/active/moment?after=0", headers=AUTH).get_json()
        assert moment["log"][0]["type"] == "clock"
        clock = client.get("/api/sessions/active/clock", headers=AUTH).get_json()
        view = client.get("/api/sessions/active", headers=AUTH).get_json()
        assert clock["on"] and not clock["paused"] and clock["version"] == view["version"]
        assert clock["running"] == view["pending"][0]["seat"] == "Ann" and clock["since"] and clock["now"]
        acted(client, {"type": "clock", "do": "pause"})
        paused = client.get("/api/sessions/active/clock", headers=AUTH).get_json()
        assert paused["paused"] and paused["running"] is None
        assert post(client, "/api/sessions/active/undo", {}).status_code == 200
        again = client.get("/api/sessions/active/clock", headers=AUTH).get_json()
        assert not again["paused"] and again["running"] == "Ann"
        told = client.get("/api/sessions/active/recap", headers=AUTH).get_json()
        labels = {p["name"]: p["label"] for p in view["seats"]}
        names = {x["name"] for x in told["time_per_seat"]}
        assert names == {labels.get(k, k) for k in again["seconds"]}, (names, again["seconds"])  # the same count


def test_the_view_says_whether_the_clock_is_on(tmp_path):
    """The phone asks for the clock only when the view says it is on: off by default, on from the game's first
    entry, off again when that switch is undone, and a pause leaves it on."""
    options, actions = SCENARIOS["vnm"]
    with api_client(tmp_path, 1) as client:

        def on() -> bool:
            return client.get("/api/sessions/active", headers=AUTH).get_json()["clock"]

        post(client, "/api/sessions", {"system": "vnm", "options": options})
        assert on() is False
        post(client, "/api/sessions", {"system": "vnm", "options": options, "clock": True})
        assert on() is True
        acted(client, {"type": "clock", "do": "pause"})
        assert on() is True
        acted(client, {"type": "clock", "do": "off"})
        assert on() is False
        assert post(client, "/api/sessions/active/undo", {}).status_code == 200  # the off taken back
        assert on() is True
        acted(client, actions[0])
        moment = client.get("/api/sessions/active/moment?after=0", headers=AUTH).get_json()
        assert moment["view"]["clock"] is True  # the moment the phone draws carries it
