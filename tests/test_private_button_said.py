"""Which button asked for a private move is no secret (#17 QA F23): every phone says "Button A: GM rolled 6
dice ...", not "A table button: ..." on the phones that may not see the GM's faces. The faces stay private.
Seen failing on the old core/privacy.py (the public result kept the summary alone)."""

from __future__ import annotations

import pytest

from tests.httpapi import new_table


@pytest.fixture
def table(tmp_path):
    with new_table(tmp_path, 2140) as table:
        yield table


def test_a_private_roll_by_button_a_names_the_button_to_every_seat(table):
    table.create_session("v2140", {"players": ["Shred", "Sven"], "gm": "GM"})
    table.act({"type": "prepare_pool", "participant": "GM", "racks": 1}, seat="GM")
    pressed = table.press("A", source="button")  # the GPIO button: no seat
    assert pressed["result"]["button"] == "A"
    own = table.log(seat="GM")[-1]
    assert own["result"]["button"] == "A" and own["rolls"]  # the GM's phone: everything
    for seat in ("Shred", "Sven", None):
        entry = table.log(seat=seat)[-1]
        assert entry["private"] is True and entry["rolls"] == [] and entry["action"] is None
        # the public summary and the button, nothing else of the GM's result
        assert set(entry["result"]) == {"summary", "button"} and entry["result"]["button"] == "A"
        assert entry["result"]["summary"].startswith("GM rolled 6 dice")
