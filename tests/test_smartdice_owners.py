"""Whose die fills whose roll, over HTTP with simulated dice: the rules' ``by``, never the first die in.

The table of the issue: a VENOM roll-off where the second seat's die lands first, a VNM attack
asked by the table's own phone while another seat's die lands, a flood of frames while the prompt
asks for dice, a Venus 2140 pool read by another seat's phone, and the die's own feedback.
Simulated dice report through the same hub as Bluetooth ones (``hub.rolling`` / ``hub.landed``:
the frames a die sends), so the flood is played frame by frame at that interface.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.app import Services, create_app

from tableside.config import load_config
from tableside.smartdice import open_dice
from tests.httpapi import AUTH, CODE, seated


@pytest.fixture
def rig(tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(4))
    reports: list[str] = []
    dice, _ = open_dice(
        load_config(None),
        True,
        tmp_path,
        table,
        on_change=lambda: None,
        on_wait_change=lambda: None,
        report=reports.append,
    )
    now = [1000.0]
    dice.feed.clock = lambda: now[0]  # the feed's 2 s after a taken roll, moved by hand
    services = Services(table=table, join_code=CODE, frame_png=lambda: b"", press=lambda b, h: None, dice=dice)
    app = create_app(services, {"TESTING": True})
    client = app.test_client()
    post(client, "/api/dice/scan")
    yield SimpleNamespace(table=table, dice=dice, app=app, client=client, now=now, reports=reports)
    dice.close()
    table.store.close()


def phone_of(rig, seat):
    """Another phone (its own client: a phone holds one seat) that took ``seat``: (client, headers)."""
    client = rig.app.test_client()
    return client, seated(client, seat)


def post(client, path, body=None, headers=AUTH):
    return client.post(path, json=body or {}, headers=headers)


def pair(rig, die, name, seat):
    r = post(rig.client, "/api/dice/pair", {"die": die, "name": name, "seat": seat})
    assert r.status_code == 200, r.get_json()


def roll(rig, die, face, headers=AUTH):
    r = post(rig.client, "/api/dice/roll", {"die": die, "face": face}, headers)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def dice_of(rig, kind):
    return [d.id for d in rig.dice.hub.dice.values() if d.kind == kind]


def log(rig, headers=AUTH):
    return rig.client.get("/api/sessions/active/log", headers=headers).get_json()


def test_a_venom_roll_off_fills_each_seats_place_with_its_own_die_whichever_lands_first(rig):
    post(rig.client, "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}})
    ann, bob, spare = dice_of(rig, "d6")[:3]
    pair(rig, ann, "Ann's d6", "Ann")
    pair(rig, bob, "Bob's d6", "Bob")
    pair(rig, spare, "Spare d6", None)
    said = roll(rig, spare, 6)  # anyone's die: no seat's place in a roll-off
    assert said["waiting"] is None and "wants each seat's own die, so it is a free roll" in said["message"]
    status = roll(rig, bob, 6)  # Bob's lands first: Bob's place, not the first one
    assert status["waiting"]["faces"] == [{"die": bob, "name": "Bob's d6", "face": 6}]
    refused = roll(rig, spare, 1)
    assert refused["message"] == "Spare d6 is anyone's die: in Roll-off each seat rolls its own, so it was not used"
    roll(rig, ann, 2)
    entry = log(rig)[-1]
    assert entry["type"] == "commander_roll_off" and entry["rolls"][0]["rolls"] == [2, 6]
    assert entry["rolls"][0]["dice"] == ["Ann's d6", "Bob's d6"] and entry["rolls"][0]["by"] == ["Ann", "Bob"]
    assert "Bob is the Commander" in entry["result"]["summary"]


def test_a_vnm_attack_asked_by_the_table_phone_takes_only_the_attackers_dice(rig):
    post(rig.client, "/api/sessions", {"system": "vnm", "options": {}})
    post(rig.client, "/api/sessions/active/actions", {"type": "declare_target", "target": "Mars"})
    pluto, pluto2, mars = dice_of(rig, "d10")
    pair(rig, pluto, "Pluto A", "Pluto")
    pair(rig, pluto2, "Pluto B", "Pluto")
    pair(rig, mars, "Mars d10", "Mars")
    r = post(rig.client, "/api/dice/wait", {"action": {"type": "attack"}})  # the table's phone: no seat
    assert r.status_code == 200 and r.get_json()["waiting"]["by"] == "Pluto"
    said = roll(rig, mars, 10)
    words = "Mars d10 is Mars's die: Pluto vs Mars is Pluto's roll, so it was not used"
    assert said["message"] == words and said["waiting"]["landed"] == 0
    mars_phone, mars_headers = phone_of(rig, "Mars")
    assert mars_phone.get("/api/dice", headers=mars_headers).get_json()["message"] == words  # every phone
    assert words in rig.dice.feed.overlay()["lines"]  # and the e-paper
    assert [s for s in rig.dice.hub.dice[mars].extra["signals"]] == ["refused"]  # the die blinks "no"
    roll(rig, pluto, 7)
    # A second request for dice while this one is half in is refused in words; the 7 stays.
    again = post(rig.client, "/api/dice/wait", {"action": {"type": "attack"}})
    assert again.status_code == 422 and "is half in (1 of 2 dice landed)" in again.get_json()["error"]
    roll(rig, pluto2, 3)
    entry = log(rig)[-1]
    assert entry["type"] == "attack" and entry["rolls"][0]["rolls"] == [7, 3]
    assert entry["rolls"][0]["dice"] == ["Pluto A", "Pluto B"]
    assert rig.dice.hub.dice[pluto].extra["signals"] == ["taken"]


@pytest.mark.parametrize("moving", [False, True], ids=["rolled-frames", "rolling-and-rolled-frames"])
def test_a_flood_of_frames_from_two_dice_logs_at_most_two_rolls_and_nothing_unasked(rig, moving):
    """1,000 "rolled" frames from two dice within one second while the VNM prompt asks for dice."""
    post(rig.client, "/api/sessions", {"system": "vnm", "options": {}})
    post(rig.client, "/api/sessions/active/actions", {"type": "declare_target", "target": "Mars"})
    a, b = dice_of(rig, "d10")[:2]
    pair(rig, a, "Pluto A", "Pluto")
    pair(rig, b, "Pluto B", "Pluto")
    before = len(log(rig))
    hub, faces = rig.dice.hub, random.Random(5)
    for die in (a, b):
        hub.rolling(die)  # each die seen rolling once: a real roll
    for n in range(1000):
        rig.now[0] += 0.001  # 1,000 frames in one second
        die = (a, b)[n % 2]
        if moving:
            hub.rolling(die)  # a die that says it rolls between every frame
        hub.landed(die, faces.randint(1, 10))
    entries = log(rig)[before:]
    rolls = [r for e in entries for r in e.get("rolls", [])]
    assert len(rolls) <= 2, [(e["type"], e.get("rolls")) for e in entries]
    assert {e["type"] for e in entries} <= {"attack"}  # the prompt's own action, nothing else
    assert len(entries) <= 1


def test_a_face_out_of_range_is_refused_at_once(rig):
    post(rig.client, "/api/sessions", {"system": "vnm", "options": {}})
    post(rig.client, "/api/sessions/active/actions", {"type": "declare_target", "target": "Mars"})
    a = dice_of(rig, "d10")[0]
    pair(rig, a, "Red d10", "Pluto")
    post(rig.client, "/api/dice/wait", {"action": {"type": "attack"}})
    rig.dice.hub.rolling(a)
    rig.dice.hub.landed(a, 0)  # a d10 has no 0 here (its 0 is 10): a frame no die can send
    status = rig.client.get("/api/dice", headers=AUTH).get_json()
    assert status["message"] == "Red d10 sent face 0, which a d10 does not have: roll it again"
    assert status["waiting"]["text"] == "Pluto vs Mars: waiting for 2 d10" and status["waiting"]["landed"] == 0


def test_a_venus_2140_pool_rolled_with_smart_dice_is_a_count_on_other_phones(rig):
    post(rig.client, "/api/sessions", {"system": "v2140", "options": {"players": ["Shred", "Vex"], "gm": "GM"}})
    shred_phone, shred = phone_of(rig, "Shred")
    vex_phone, vex = phone_of(rig, "Vex")
    body = {"type": "prepare_pool", "primary_skills": 1, "secondary_skills": 1, "secondary_assist_quality": 4}
    assert post(shred_phone, "/api/sessions/active/actions", body, shred).status_code == 200
    d6s = dice_of(rig, "d6")[:2]
    for n, die in enumerate(d6s):
        pair(rig, die, f"Shred {n}", "Shred")
    r = post(shred_phone, "/api/dice/wait", {"action": {"type": "roll_pool"}}, shred)
    assert r.status_code == 200 and r.get_json()["waiting"]["private_to"] == "Shred"
    assert post(shred_phone, "/api/dice/roll", {"die": d6s[0], "face": 4}, shred).status_code == 200
    for client, phone in ((vex_phone, vex), (rig.client, AUTH)):  # another seat's phone, and one with no seat
        seen = client.get("/api/dice", headers=phone).get_json()
        die = next(d for d in seen["dice"] if d["id"] == d6s[0])
        assert (die["last_face"], die["shows"], die["label"]) == (None, "rolled", "Shred 0")
        assert seen["waiting"]["faces"] == [] and seen["waiting"]["landed"] == 1 and "4" not in seen["message"]
    own = shred_phone.get("/api/dice", headers=shred).get_json()
    assert next(d for d in own["dice"] if d["id"] == d6s[0])["last_face"] == 4
    assert own["waiting"]["faces"][0]["face"] == 4


def test_identify_blinks_the_die_and_seat_names_are_checked_against_the_game(rig):
    post(rig.client, "/api/sessions", {"system": "vnm", "options": {}})
    die = dice_of(rig, "d6")[0]
    bad = post(rig.client, "/api/dice/pair", {"die": die, "name": "Odd", "seat": "Zed"})
    assert bad.status_code == 422 and "'Zed' is not a seat of this game: pick one of" in bad.get_json()["error"]
    assert not rig.dice.hub.dice[die].paired  # nothing changed
    unpaired = post(rig.client, "/api/dice/identify", {"die": die})
    assert unpaired.status_code == 422 and "is not connected" in unpaired.get_json()["error"]
    pair(rig, die, "Odd", "Mars")
    assert post(rig.client, "/api/dice/identify", {"die": die}).status_code == 200
    assert rig.dice.hub.dice[die].extra["signals"] == ["identify"]
    assert post(rig.client, "/api/dice/identify", {"die": 7}).status_code == 400


def test_a_low_battery_is_said_once_on_the_phones_and_in_the_hardware_list(rig):
    die = dice_of(rig, "d6")[0]
    pair(rig, die, "Tired d6", None)
    rig.dice.hub.battery(die, 14, False)
    rig.dice.hub.battery(die, 13, False)
    assert rig.reports == ["Tired d6 has 14% battery left: charge it soon"]
    listed = next(d for d in rig.client.get("/api/dice", headers=AUTH).get_json()["dice"] if d["id"] == die)
    assert listed["low_battery"] is True
    assert next(d for d in rig.dice.hardware()["dice"] if d["id"] == die)["low_battery"] is True
    rig.dice.hub.battery(die, 60, True)
    assert next(d for d in rig.dice.hardware()["dice"] if d["id"] == die)["low_battery"] is False


def test_a_taken_roll_blinks_in_the_seats_colour_of_the_game_on_the_table(rig):
    """The colour each seat has on the board (the system's seat_colours, core.screen.PLAYER_INKS)."""
    from tableside.device.smartdice.hub import TAKEN_RGB, seat_colour

    assert seat_colour(rig.dice.hub.seat_colours, "Mars") == TAKEN_RGB  # no game yet: green
    post(rig.client, "/api/sessions", {"system": "vnm", "options": {}})
    inks = rig.dice.hub.seat_colours()
    assert set(inks) == {"Venus", "Mars", "Pluto"}
    rgb = {"red": 0xFF0000, "blue": 0x0000FF, "green": 0x00FF00, "orange": 0xFF8000, "yellow": 0xFFFF00}
    rgb |= {"black": 0xFFFFFF, "purple": 0x8000FF}  # a die cannot show black: white
    from tableside.core.screen import PLAYER_INKS

    for seat, ink in inks.items():
        assert seat_colour(rig.dice.hub.seat_colours, seat) == rgb[PLAYER_INKS[ink]]
    assert seat_colour(rig.dice.hub.seat_colours, None) == TAKEN_RGB  # anyone's die
