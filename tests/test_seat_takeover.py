"""When a held seat frees, said before anyone tries (#17 QA, #18 privacy): ``GET /api/sessions/active/seats``.

A seat is taken over only when its phone releases it or has been away ``SEAT_GONE_AFTER`` seconds with
no request and no stream; the route tells the seat dialog which of these holds and how long is left.
"""

from __future__ import annotations

from tableside.core.store import Store
from tableside.core.table import Table
from tableside.webui.seats import SEAT_GONE_AFTER, seats_for

from tests import toysystem
from tests.httpapi import AUTH, phone


def test_the_seats_say_who_is_here_and_when_a_held_seat_frees(tmp_path):
    now = [1000.0]
    table = Table(
        Store(tmp_path / "t.db"), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM], clock=lambda: now[0]
    )
    table.create_session("toy")
    client = phone(table)
    free = client.get("/api/sessions/active/seats", headers=AUTH).get_json()
    assert free["gone_after"] == SEAT_GONE_AFTER == 120
    assert all(not s["claimed"] and "frees_in" not in s for s in free["seats"])
    ann = seats_for(table).claim_seat("Ann")
    seats_for(table).stream_opened(ann["token"])
    now[0] += SEAT_GONE_AFTER * 10  # here all along: its stream is open, so it never frees by itself

    def ann_seat() -> dict:
        seats = client.get("/api/sessions/active/seats", headers=AUTH).get_json()["seats"]
        return next(s for s in seats if s["name"] == "Ann")

    assert ann_seat() == {
        "name": "Ann",
        "role": "player",
        "label": "Ann",
        "claimed": True,
        "here": True,
        "frees_in": None,
    }
    seats_for(table).stream_closed(ann["token"])
    assert ann_seat()["frees_in"] == 120 and ann_seat()["here"] is False
    now[0] += 100.5
    assert ann_seat()["frees_in"] == 20
    now[0] += 19.5
    assert ann_seat()["frees_in"] == 0
    assert seats_for(table).claim_seat("Ann", takeover=True)["seat"] == "Ann"  # what the route said holds
    table.store.close()
