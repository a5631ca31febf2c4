"""The HTTP API of contract section 4, through Flask's test client and a real SQLite file."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.buttons import ButtonPanel, mock_factory
from tableside.device.display import RefreshScheduler, VirtualDisplay
from tableside.display.panels import get_panel
from tableside.webui.app import Services, create_app
from tableside.webui.seats import SEAT_GONE_AFTER

from tableside.frames import FrameSource
from tests import toysystem

CODE = "K7TQ2M"
AUTH = {"Authorization": f"Bearer {CODE}"}


@pytest.fixture
def services(tmp_path):
    table = Table(
        Store(tmp_path / "t.db"), rng=random.Random(3), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )
    panel = get_panel("what-red")
    frames = FrameSource(table, panel)
    scheduler = RefreshScheduler(VirtualDisplay(panel, refresh_seconds=0), frames.image)
    table.subscribe(scheduler.request)
    scheduler.start()

    def on_button(gesture):
        return table.press(gesture.button, gesture.hold, source="button")

    # hold_time leaves a loaded CI machine room: a virtual press held longer than it would be a hold
    buttons = ButtonPanel(on_button, mock_factory(), hold_time=0.4, debounce=0.005)
    yield Services(table=table, join_code=CODE, frame_png=scheduler.png, press=buttons.simulate)
    scheduler.stop()
    buttons.close()
    table.store.close()


@pytest.fixture
def client(services):
    return create_app(services, {"TESTING": True}).test_client()


def start(client, **options):
    r = client.post("/api/sessions", json={"system": "toy", "options": options}, headers=AUTH)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_healthz_needs_no_code(client):
    assert client.get("/healthz").get_json() == {"ok": True}


def test_everything_else_needs_the_join_code(client):
    for path in ("/api/systems", "/api/sessions", "/api/sessions/active", "/display.png"):
        r = client.get(path)
        assert r.status_code == 401 and "join code" in r.get_json()["error"]
    assert client.get("/api/systems", headers={"Authorization": "Bearer WRONG1"}).status_code == 401


def test_join_sets_a_cookie_that_opens_the_api(client):
    assert client.get("/join?code=nope").status_code == 401
    r = client.get(f"/join?code={CODE.lower()}")
    assert r.status_code == 302
    assert client.get("/api/systems").status_code == 200


def test_new_session_then_actions_undo_redo_and_log(client):
    made = start(client, limit=40)
    assert made["version"] == 0 and made["state"]["score"] == 0 and made["system"] == "toy"
    r = client.post("/api/sessions/active/actions", json={"type": "add", "points": 5}, headers=AUTH)
    assert r.status_code == 200 and r.get_json()["version"] == 1
    assert client.post("/api/sessions/active/undo", headers=AUTH).get_json()["state"]["score"] == 0
    assert client.post("/api/sessions/active/redo", headers=AUTH).get_json()["state"]["score"] == 5
    log = client.get("/api/sessions/active/log", headers=AUTH).get_json()
    assert [e["kind"] for e in log] == ["action", "undo", "redo"]
    assert all(e["source"] == "api" for e in log)  # the code as a Bearer token: a script, not a phone


def test_a_phone_joined_with_the_cookie_is_logged_as_phone(client):
    start(client, limit=40)
    assert client.get(f"/join?code={CODE}").status_code == 302
    r = client.post(
        "/api/sessions/active/actions", json={"type": "add", "points": 2}, headers={"Origin": "http://localhost"}
    )
    assert r.status_code == 200, r.get_json()
    assert client.post("/api/rolls", json={"expr": "1d6"}, headers={"Origin": "http://localhost"}).status_code == 200
    log = client.get("/api/sessions/active/log").get_json()
    assert [e["source"] for e in log] == ["phone", "phone"]


def test_errors_are_json_with_the_contract_codes_and_change_nothing(client):
    start(client, limit=10)
    cases = [
        (dict(data="not json", content_type="application/json"), 400, "JSON object"),
        (dict(json={"type": "add"}), 400, "'Points' is required"),
        (dict(json={"type": "add", "points": "many"}), 400, "whole number"),
        (dict(json={"type": "add", "points": 11}), 422, "may not pass 10"),
        (dict(json={"type": "teleport"}), 422, "unknown action 'teleport'"),
        (dict(json={"type": "add", "points": 1, "expected_version": 7}), 409, "not 7"),
    ]
    for kwargs, status, words in cases:
        r = client.post("/api/sessions/active/actions", headers=AUTH, **kwargs)
        assert r.status_code == status, (kwargs, r.get_json())
        assert words in r.get_json()["error"]
    assert client.get("/api/sessions/active", headers=AUTH).get_json()["version"] == 0
    assert client.post("/api/sessions", json={"system": "chess"}, headers=AUTH).status_code == 404
    bad_options = {"system": "toy", "options": {"limit": 0}}
    assert client.post("/api/sessions", json=bad_options, headers=AUTH).status_code == 422
    r = client.get("/api/nope", headers=AUTH)
    assert r.status_code == 404 and "no such page" in r.get_json()["error"]
    assert client.delete("/api/sessions", headers=AUTH).status_code == 405


def test_no_active_session_is_404(client):
    r = client.get("/api/sessions/active", headers=AUTH)
    assert r.status_code == 404 and "no active session" in r.get_json()["error"]


def test_sessions_newest_first_and_activate(client):
    first = start(client)["id"]
    client.post("/api/sessions/active/actions", json={"type": "add", "points": 2}, headers=AUTH)
    second = start(client)["id"]
    listed = client.get("/api/sessions", headers=AUTH).get_json()
    assert [s["id"] for s in listed] == [second, first] and listed[0]["active"]
    r = client.post("/api/sessions/active/activate", json={"id": first}, headers=AUTH)
    assert r.get_json()["state"]["score"] == 2
    assert client.post("/api/sessions/active/activate", json={"id": "zzz"}, headers=AUTH).status_code == 404


def test_free_rolls_follow_the_roll_json(client):
    r = client.post(
        "/api/rolls", json={"expr": "10d6xcs>=4", "faces": [6, 6, 5, 5, 4, 3, 3, 2, 2, 1, 5, 5]}, headers=AUTH
    )
    body = r.get_json()
    assert body["rolls"] == [6, 6, 5, 5, 4, 3, 3, 2, 2, 1, 5, 5] and body["successes"] == 7
    assert set(body) >= {"rolls", "kept", "successes", "total"}
    bad = client.post("/api/rolls", json={"expr": "banana"}, headers=AUTH)
    assert bad.status_code == 400 and "\n" not in bad.get_json()["error"]
    start(client)
    client.post("/api/rolls", json={"expr": "2d10cs>=8", "faces": [0, 7]}, headers=AUTH)
    entry = client.get("/api/sessions/active/log", headers=AUTH).get_json()[-1]
    assert entry["type"] == "roll" and entry["rolls"][0]["rolls"] == [10, 7]


def test_buttons_go_through_the_gpio_code_path(client):
    start(client)
    r = client.post("/api/buttons/B", json={"hold": False}, headers=AUTH)
    assert r.status_code == 200 and r.get_json()["state"]["score"] == 1
    assert client.post("/api/buttons/d", headers=AUTH).get_json()["state"]["score"] == 0
    assert client.post("/api/buttons/D", json={"hold": True}, headers=AUTH).get_json()["state"]["score"] == 1
    log = client.get("/api/sessions/active/log", headers=AUTH).get_json()
    assert [e["source"] for e in log] == ["button"] * 3
    refused = client.post("/api/buttons/C", headers=AUTH)
    assert refused.status_code == 422 and "nothing to do" in refused.get_json()["error"]
    assert client.post("/api/buttons/E", headers=AUTH).status_code == 404
    assert client.post("/api/buttons/A", json={"hold": "yes"}, headers=AUTH).status_code == 400


def test_display_png_is_the_panel_frame(client, services):
    start(client)
    client.post("/api/sessions/active/actions", json={"type": "add", "points": 9}, headers=AUTH)
    services.frame_png.__self__.wait_idle(10)  # rendered off the request path, by the scheduler
    r = client.get("/display.png", headers=AUTH)
    with Image.open(io.BytesIO(r.data)) as image:
        image.load()
    assert r.mimetype == "image/png" and image.size == (400, 300) and image.mode == "P"
    colours = {c for _, c in image.convert("RGB").getcolors()}
    assert colours <= set(get_panel("what-red").palette)


def test_phone_page_and_systems(client):
    assert client.get("/", headers=AUTH).status_code == 200
    systems = client.get("/api/systems", headers=AUTH).get_json()
    assert systems[0]["id"] == "toy" and systems[0]["buttons"][0]["button"] == "A"


def test_a_phone_holding_anns_seat_cannot_see_bobs_private_data(client, services):
    start(client)
    bob = client.post("/api/sessions/active/seats", json={"seat": "Bob"}, headers=AUTH).get_json()
    ann_phone = create_app(services, {"TESTING": True}).test_client()
    ann = ann_phone.post("/api/sessions/active/seats", json={"seat": "Ann"}, headers=AUTH).get_json()
    assert ann["seat"] == "Ann" and bob["seat"] == "Bob"
    as_bob = {**AUTH, "X-Tableside-Seat": bob["token"]}
    as_ann = {**AUTH, "X-Tableside-Seat": ann["token"]}
    events = []
    services.table.subscribe(events.append)
    r = client.post(
        "/api/sessions/active/actions", json={"type": "hide", "seat": "Bob", "n": 2, "faces": [6, 4]}, headers=as_bob
    )
    assert r.status_code == 200 and r.get_json()["state"]["hands"]["Bob"] == [6, 4]
    view = ann_phone.get("/api/sessions/active", headers=as_ann).get_json()
    assert view["seat"] == "Ann" and view["state"]["hands"] == {"Ann": [], "Bob": 2}
    log = ann_phone.get("/api/sessions/active/log", headers=as_ann).get_json()
    assert log[-1]["rolls"] == [] and log[-1]["result"] == {"summary": "Bob rolled 2 dice into the hand"}
    assert "6" not in json.dumps(log[-1]["result"]) and log[-1]["seat"] == "Bob"
    assert client.get("/api/sessions/active/log", headers=as_bob).get_json()[-1]["rolls"][0]["rolls"] == [6, 4]
    # the stream carries versions only, never state, so no seat's data can leak through it
    assert events == [{"kind": "change", "session": view["id"], "version": 1}]
    # the seat cookie set by the claim works too, and a taken-over seat is told to pick again
    assert ann_phone.get("/api/sessions/active", headers=AUTH).get_json()["seat"] == "Ann"
    # a seat is taken over only once its phone has been gone for SEAT_GONE_AFTER seconds
    r = client.post("/api/sessions/active/seats", json={"seat": "Ann", "takeover": True}, headers=AUTH)
    assert r.status_code == 409 and "release the seat" in r.get_json()["error"]
    later = services.table.clock() + SEAT_GONE_AFTER + 1
    services.table.clock = lambda: later
    r = client.post("/api/sessions/active/seats", json={"seat": "Ann", "takeover": True}, headers=AUTH)
    assert r.status_code == 200
    r = ann_phone.get("/api/sessions/active", headers=as_ann)
    assert r.status_code == 409 and "pick a seat again" in r.get_json()["error"]


def test_needs_dice_reaches_the_phone_and_actions_list_choices(client):
    start(client)
    r = client.post("/api/sessions/active/actions", json={"type": "chain", "faces": []}, headers=AUTH)
    assert r.status_code == 422 and r.get_json()["needs_dice"] == [{"label": "How many", "expr": "1d6"}]
    actions = client.get("/api/sessions/active/actions", headers=AUTH).get_json()
    assert actions["pending"][0]["text"] == "Ann: roll the dice"
    assert {a["type"] for a in actions["actions"]} >= {"add", "roll_d6", "correct"}
    log = client.get("/api/sessions/active/log?since=0", headers=AUTH)
    assert log.status_code == 200
    assert client.get("/api/sessions/active/log?since=x", headers=AUTH).status_code == 400
