"""Faces typed in as a count per face ("one 10, one 9, one 3") read the same everywhere.

Issue 20: the recorder sorted a count-per-face map by the key's text ("9" > "3" > "10"), the
field reader by number, so ``{"10": 1, "9": 1, "3": 1}`` for ``2d10x`` was refused ("1 typed-in
face(s) left over") while ``[10, 9, 3]`` worked: the 10 that explodes must come first.
"""

from __future__ import annotations

import random

import pytest
from tableside.core import fields
from tableside.core.recorder import Dice, typed_faces
from tableside.core.store import Store
from tableside.core.table import Table

MAPS = [
    ({"10": 1, "9": 1, "3": 1}, 10),
    ({"3": 2, "12": 1, "1": 4, "20": 1}, 20),
    ({"6": 4, "5": 3}, 6),
    ({"0": 1, "9": 2}, 10),  # a d10's 0 is its 10: high, not low
    ({"2": 0, "100": 2, "99": 1}, 100),
]


def test_a_count_per_face_for_an_exploding_d10_is_read_high_to_low_by_number():
    d = Dice(typed=typed_faces({"10": 1, "9": 1, "3": 1}))
    result = d.roll("Attack", "2d10x", by="Ann")
    d.mark()
    assert list(result.rolls) == [10, 9, 3]
    assert [r["rolls"] for r in d.finish()] == [[10, 9, 3]]


@pytest.mark.parametrize(("counts", "sides"), MAPS)
def test_the_recorder_and_the_faces_field_read_a_map_in_the_same_order(counts, sides):
    d = Dice(typed=typed_faces(counts))
    rolled = d.faces("Pool", sum(counts.values()), sides, by="Ann")
    d.mark()
    d.finish()
    assert rolled == fields.read_faces(counts, sides) == sorted(rolled, reverse=True)


def test_a_free_roll_takes_the_same_map_with_or_without_a_game(tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(0))
    try:
        assert table.roll("2d10x", faces={"10": 1, "9": 1, "3": 1})["rolls"] == [10, 9, 3]
        table.create_session("vegas")
        assert table.roll("2d10x", faces={"10": 1, "9": 1, "3": 1})["rolls"] == [10, 9, 3]
    finally:
        table.close()
