"""A phone keeps its seat across a new game with the same names, and never holds a seat no phone is (#17 QA
F10, F14, F15): seats carried over by name, the 409 that tells a phone its seat is gone, a claim that gives up
the phone's old seat, and the cookie a page drops only when it holds no seat in the game on the table."""

from __future__ import annotations

import pytest
from tableside.core.errors import SeatGone
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.seats import seats_for

from tests import toysystem
from tests.httpapi import AUTH, acted, new_table, phone, seated

V2140 = {"players": ["Shred", "Sven"], "gm": "GM"}
GM_FACES = [6, 4, 3, 2, 2, 1, 1]


@pytest.fixture
def table(tmp_path):
    with new_table(tmp_path, 2140) as table:
        yield table


def _seat(client, headers) -> str | None:
    r = client.get("/api/sessions/active", headers=headers)
    assert r.status_code == 200, r.get_json()
    return r.get_json()["seat"]


def test_a_new_game_with_the_same_name_keeps_that_phones_seat_and_only_that_one(table):
    first = phone(table)
    assert first.post("/api/sessions", json={"system": "v2140", "options": V2140}, headers=AUTH).status_code == 201
    gm, shred, sven, guest = phone(table), phone(table), phone(table), phone(table)
    as_gm, as_shred, as_sven = seated(gm, "GM"), seated(shred, "Shred"), seated(sven, "Sven")
    old_id = first.get("/api/sessions/active", headers=AUTH).get_json()["id"]

    options = {"players": ["Shred", "Mia"], "gm": "GM"}  # Sven is not in the new game; Mia is new
    assert first.post("/api/sessions", json={"system": "v2140", "options": options}, headers=AUTH).status_code == 201
    assert _seat(gm, as_gm) == "GM" and _seat(shred, as_shred) == "Shred"  # the same tokens, the new game's seats
    r = sven.get("/api/sessions/active/moment", headers=as_sven)
    assert r.status_code == 409
    assert r.get_json()["seat_gone"] is True and r.get_json()["seat"] == "Sven"  # said, so the page drops it
    claimed = {s["name"]: s["claimed"] for s in guest.get("/api/sessions/active", headers=AUTH).get_json()["seats"]}
    assert claimed == {"GM": True, "Shred": True, "Mia": False}
    assert guest.post("/api/sessions/active/seats", json={"seat": "Shred"}, headers=AUTH).status_code == 409

    # The carried GM phone sees its own private roll in the new game; a table phone sees only counts.
    acted(gm, {"type": "prepare_pool", "racks": 1}, as_gm)
    acted(gm, {"type": "roll_pool", "participant": "GM", "faces": GM_FACES}, as_gm)
    mine = gm.get("/api/sessions/active/log", headers=as_gm).get_json()[-1]
    assert mine["rolls"] and not mine.get("private")
    theirs = guest.get("/api/sessions/active/log", headers=AUTH).get_json()[-1]
    assert theirs["private"] is True and theirs["rolls"] == [] and theirs["action"] is None
    # No answer names a token: not the view, the seats, the moment or the log of any phone.
    tokens = [h["X-Tableside-Seat"] for h in (as_gm, as_shred, as_sven)]
    for path in ("/api/sessions/active", "/api/sessions/active/seats", "/api/sessions/active/moment", "/api/sessions"):
        for client, headers in ((guest, AUTH), (gm, as_gm)):
            body = client.get(path, headers=headers).get_data(as_text=True)
            assert not any(t.split(": ")[-1] in body for t in tokens), path

    # Back to the first game: the seats come back with their phones (Sven's phone never left it).
    assert first.post("/api/sessions/active/activate", json={"id": old_id}, headers=AUTH).status_code == 200
    assert (_seat(gm, as_gm), _seat(shred, as_shred), _seat(sven, as_sven)) == ("GM", "Shred", "Sven")


def test_a_seat_held_in_the_game_switched_to_stays_with_its_phone(tmp_path):
    table = Table(Store(tmp_path / "t.db"), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM])
    first = table.create_session("toy")["id"]
    ann_then = seats_for(table).claim_seat("Ann")["token"]
    second = table.create_session("toy")["id"]
    assert seats_for(table).seat_of(ann_then) == "Ann"  # carried into the second game
    seats_for(table).release_seat(ann_then)
    ann_now = seats_for(table).claim_seat("Ann")["token"]  # another phone takes Ann in the second game
    bob = seats_for(table).claim_seat("Bob")["token"]
    table.activate(first)
    assert seats_for(table).seat_of(ann_now) == "Ann" and seats_for(table).seat_of(bob) == "Bob"
    table.activate(second)
    assert seats_for(table).seat_of(ann_now) == "Ann" and seats_for(table).seat_of(bob) == "Bob"
    with pytest.raises(SeatGone, match="no longer holds a seat") as gone:
        seats_for(table).seat_of(ann_then)
    assert gone.value.seat is None  # released: it holds nothing anywhere
    # Only from the game just left: a phone asleep through two new games picks its seat again.
    seats_for(table).release_seat(ann_now)
    asleep = seats_for(table).claim_seat("Ann")["token"]
    table.create_session("toy")
    table.create_session("toy")
    with pytest.raises(SeatGone) as gone:
        seats_for(table).seat_of(asleep)
    assert gone.value.seat == "Ann"
    table.store.close()


def test_a_phone_holds_one_seat_and_asking_again_for_its_own_keeps_it(tmp_path):
    """Seat > Bob from Ann's phone left Ann held by no phone for 2 minutes; Seat > Ann again was a 409."""
    table = Table(Store(tmp_path / "t.db"), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM])
    table.create_session("toy")
    client = phone(table)
    as_ann = seated(client, "Ann")
    again = client.post("/api/sessions/active/seats", json={"seat": "Ann"}, headers=as_ann)
    assert again.status_code == 200 and again.get_json()["token"] == as_ann["X-Tableside-Seat"]
    as_bob = client.post("/api/sessions/active/seats", json={"seat": "Bob"}, headers=as_ann)
    assert as_bob.status_code == 200
    claimed = {s["name"]: s["claimed"] for s in table.view()["seats"]}
    assert claimed == {"Ann": False, "Bob": True}
    assert client.get("/api/sessions/active", headers=as_ann).status_code == 409
    table.store.close()


def test_a_claim_gives_up_the_phones_seat_in_a_game_gone_by(table):
    first = phone(table)
    assert first.post("/api/sessions", json={"system": "v2140", "options": V2140}, headers=AUTH).status_code == 201
    old_id = first.get("/api/sessions/active", headers=AUTH).get_json()["id"]
    sven = phone(table)
    as_sven = seated(sven, "Sven")
    options = {"players": ["Shred", "Mia"], "gm": "GM"}
    assert first.post("/api/sessions", json={"system": "v2140", "options": options}, headers=AUTH).status_code == 201
    assert sven.post("/api/sessions/active/seats", json={"seat": "Mia"}, headers=as_sven).status_code == 200
    table.activate(old_id)  # Sven's seat there is free: no phone holds it now
    assert not next(s for s in table.view()["seats"] if s["name"] == "Sven")["claimed"]


def test_a_page_drops_only_a_stale_seat_cookie_and_the_stream_takes_it_as_the_table(table):
    first = phone(table)
    assert first.post("/api/sessions", json={"system": "v2140", "options": V2140}, headers=AUTH).status_code == 201
    sven = phone(table)
    r = sven.post("/api/sessions/active/seats", json={"seat": "Sven"}, headers=AUTH)  # the cookie holds the seat
    assert r.status_code == 200
    kept = sven.delete("/api/panel/seat?gone=1", headers=AUTH)  # a seat of the game on the table: kept
    assert kept.get_json() == {"seat": "Sven"} and "tableside_seat" not in kept.headers.get("Set-Cookie", "")
    assert _seat(sven, AUTH) == "Sven"
    options = {"players": ["Shred", "Mia"], "gm": "GM"}
    assert first.post("/api/sessions", json={"system": "v2140", "options": options}, headers=AUTH).status_code == 201
    assert sven.get("/api/sessions/active/moment", headers=AUTH).status_code == 409  # the stale cookie
    stream = sven.get("/api/stream", headers=AUTH, buffered=False)
    assert stream.status_code == 200  # the public stream: never a refusal the page reads as "busy"
    stream.close()
    dropped = sven.delete("/api/panel/seat?gone=1", headers=AUTH)
    assert dropped.get_json() == {"seat": None} and "tableside_seat=;" in dropped.headers["Set-Cookie"]
    assert _seat(sven, AUTH) is None
    table.activate(table.sessions()[-1]["id"])  # the first game again: Sven's old seat is free, no phantom
    assert not next(s for s in table.view()["seats"] if s["name"] == "Sven")["claimed"]
