"""The recorder's newer record fields, read back as the log keeps them: whose dice a roll is (``by``: a seat,
a seat per die, or the table's), the name the table reads (``shown``) where it is not the label a replay
checks, the prompt for typed-in faces that ran out, in the name players read and with its owner, and the
refusal of a roll that says neither whose dice it is nor how it reads."""

from __future__ import annotations

import random
import re

import pytest
from tableside.core.recorder import TABLE, Dice, NeedsDice, UnsaidRoll


def test_a_roll_records_the_seat_whose_dice_they_are():
    dice = Dice(rng=random.Random(1))
    dice.roll("Attack", "2d6", by="Cy")
    dice.mark(["hit", "miss"])
    assert dice.records[0]["by"] == "Cy" and "shown" not in dice.records[0]


def test_a_roll_off_records_a_seat_per_die_as_a_list():
    dice = Dice(typed=[3, 5])
    dice.roll("Roll-off", "2d6", by=("Ann", "Bob"))
    dice.mark(["miss", "hit"])
    assert dice.records[0]["by"] == ["Ann", "Bob"] and dice.records[0]["rolls"] == [3, 5]


def test_the_tables_own_dice_are_recorded_as_the_tables():
    dice = Dice(typed=[4])
    dice.roll("Random pick", "1d6", by=TABLE)
    dice.mark(["kept"])
    assert dice.records[0]["by"] == TABLE == ""


def test_the_name_the_table_reads_is_kept_beside_the_label_only_when_it_differs():
    dice = Dice(typed=[2, 6, 1])
    dice.roll("Venus vs Pluto", "2d6", shown="Ann (Venus) vs Cy (Pluto)", by="Ann")
    dice.mark(["miss", "hit"])
    dice.roll("Pluto", "1d6", shown="Pluto", by="Cy")
    dice.mark(["miss"])
    first, second = dice.finish()
    assert first["label"] == "Venus vs Pluto" and first["shown"] == "Ann (Venus) vs Cy (Pluto)"
    assert "shown" not in second


def test_faces_pass_the_shown_name_and_the_owner_on_and_zero_dice_roll_nothing():
    dice = Dice(typed=[5, 5])
    assert dice.faces("Pool", 0, by="Ann") == [] and dice.records == []
    assert dice.faces("Pool", 2, sides=6, shown="Ann's pool", by="Ann") == [5, 5]
    dice.mark(["kept", "kept"])
    assert dice.records[0]["shown"] == "Ann's pool" and dice.records[0]["by"] == "Ann"


def test_faces_that_run_out_ask_for_the_roll_in_the_name_players_read():
    dice = Dice(typed=[4])
    with pytest.raises(NeedsDice) as caught:
        dice.roll("Venus vs Pluto", "3d6", shown="Ann (Venus) vs Cy (Pluto)", by="Ann")
    assert str(caught.value) == (
        "Ann (Venus) vs Cy (Pluto) needs 3d6: only 1 typed-in face left for it; type in the rest or let Tableside roll"
    )
    assert caught.value.needs_dice == [{"label": "Venus vs Pluto", "expr": "3d6", "shown": "Ann (Venus) vs Cy (Pluto)"}]
    assert caught.value.by == "Ann"


def test_faces_that_run_out_under_their_own_label_ask_for_it_once():
    dice = Dice(typed=[])
    with pytest.raises(NeedsDice, match=re.escape("Pool needs 2d6: no typed-in faces left for it")) as caught:
        dice.roll("Pool", "2d6", shown="Pool", by=("Ann", "Bob"))
    assert caught.value.needs_dice == [{"label": "Pool", "expr": "2d6"}]
    assert caught.value.by == ["Ann", "Bob"]


def test_an_action_whose_roll_says_neither_owner_nor_reading_is_refused_naming_both():
    dice = Dice(typed=[2])
    dice.roll("Stray", "1d6")
    with pytest.raises(UnsaidRoll) as caught:
        dice.finish()
    assert str(caught.value) == (
        "Stray: the rules rolled without by= and mark(); every roll says whose dice they are (by=) and how they "
        "read (ctx.dice.mark() after it): a fault in this game system"
    )


def test_a_roll_without_its_owner_or_without_its_mark_is_refused_naming_what_is_missing():
    dice = Dice(typed=[2])
    dice.roll("Stray", "1d6")
    dice.mark(["miss"])
    with pytest.raises(UnsaidRoll, match=r"^Stray: the rules rolled without by=; every roll"):
        dice.finish()
    dice = Dice(typed=[2])
    dice.roll("Stray", "1d6", by=TABLE)
    with pytest.raises(UnsaidRoll, match=r"^Stray: the rules rolled without mark\(\); every roll"):
        dice.finish()


def test_each_roll_needs_its_own_mark_and_a_bare_mark_is_one():
    dice = Dice(typed=[2, 5])
    dice.roll("First", "1d6", by="Ann")
    dice.roll("Second", "1d6", by="Bob")
    dice.mark(["hit"])  # reads the newest roll only
    with pytest.raises(UnsaidRoll, match=r"^First: the rules rolled without mark\(\)"):
        dice.finish()
    dice = Dice(typed=[2, 5])
    dice.roll("First", "1d6", by="Ann")
    dice.mark()
    dice.roll("Second", "1d6", by="Bob")
    dice.mark(verdict="a five")
    assert [r["label"] for r in dice.finish()] == ["First", "Second"]
    assert "marks" not in dice.records[0] and dice.records[1]["verdict"] == "a five"


def test_a_hit_chance_is_kept_in_the_log_as_an_exact_fraction():
    from fractions import Fraction

    dice = Dice(typed=[4, 2])
    dice.roll("Combat", "2d6", by="Ann")
    dice.mark(["hit", "miss"], hit_chance=Fraction(1, 2))
    assert dice.records[0]["hit_chance"] == "1/2"


@pytest.mark.parametrize("chance", ["0", "1", "1/6"])
def test_a_hit_chance_from_none_to_certain_is_taken(chance):
    from fractions import Fraction

    dice = Dice(typed=[6])
    dice.roll("Combat", "1d6", by="Ann")
    dice.mark(["hit"], hit_chance=Fraction(chance))
    assert dice.records[0]["hit_chance"] == (chance if "/" in chance else f"{chance}/1")


@pytest.mark.parametrize(("marks", "chance"), [(["hit"], "-1/6"), (["hit"], "7/6"), (["hit"], "3/2"), ([], "1/2")])
def test_a_hit_chance_outside_0_to_1_or_without_marks_is_refused_and_changes_nothing(marks, chance):
    from fractions import Fraction

    dice = Dice(typed=[6])
    dice.roll("Combat", "1d6", by="Ann")
    before = dict(dice.records[0])
    with pytest.raises(ValueError, match=re.escape(f"hit_chance {Fraction(chance)} needs a mark per die")):
        dice.mark(marks, hit_chance=Fraction(chance))
    assert dice.records[0] == before
