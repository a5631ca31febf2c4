"""The recorder's edges: how typed-in faces are read and bounded, what a roll that runs out says, and
how a recording that no longer fits the rules is refused. Every refusal names what was wrong."""

from __future__ import annotations

import random
import re

import pytest
from tableside.core import dice
from tableside.core.errors import BadRequest, RuleError
from tableside.core.recorder import MAX_TYPED_FACES, Dice, NeedsDice, ReplayMismatch, typed_faces


def exactly(message: str) -> str:
    return "^" + re.escape(message) + "$"


# --- typed_faces: a list in order, or a count per face ---------------------------------------------


def test_no_faces_typed_in_means_tableside_rolls():
    assert typed_faces(None) is None


def test_a_count_of_zero_is_allowed_and_adds_nothing():
    assert typed_faces({"6": 2, "1": 0}) == [6, 6]


def test_the_whole_allowance_fits_in_one_count_and_in_one_list():
    assert typed_faces({"6": MAX_TYPED_FACES}) == [6] * MAX_TYPED_FACES
    assert len(typed_faces([1] * MAX_TYPED_FACES)) == MAX_TYPED_FACES


@pytest.mark.parametrize("count", [-1, True, 1.5, "2", None])
def test_a_count_that_is_not_a_whole_number_is_refused(count):
    with pytest.raises(BadRequest, match=exactly("faces: the count of 6s must be a whole number 0 or more")):
        typed_faces({"6": count})


def test_more_than_the_allowance_in_counts_is_refused():
    for raw in ({"6": MAX_TYPED_FACES, "5": 1}, {"6": MAX_TYPED_FACES + 1}):
        with pytest.raises(RuleError, match=exactly("faces: at most 200 dice at a time")):
            typed_faces(raw)


def test_more_than_the_allowance_in_a_list_is_refused():
    with pytest.raises(RuleError, match=exactly("at most 200 typed-in faces for one action, got 201")):
        typed_faces([6] * (MAX_TYPED_FACES + 1))


@pytest.mark.parametrize("raw", ["665", 6, (6, 5), {6, 5}])
def test_faces_that_are_neither_a_list_nor_a_count_map_are_refused(raw):
    with pytest.raises(
        BadRequest, match=exactly("'faces' must be a list of faces in the order rolled, or a count per face")
    ):
        typed_faces(raw)


# --- rolling: from the RNG, from typed faces, running out ------------------------------------------


def test_tableside_rolls_with_the_rng_it_was_given():
    recorded = Dice(rng=random.Random(7)).roll("attack", "20d6").rolls
    assert recorded == dice.roll("20d6", rng=random.Random(7)).rolls


def test_asking_for_no_faces_rolls_and_records_nothing():
    d = Dice(rng=random.Random(1))
    assert d.faces("none", 0) == []
    assert d.records == []


def test_with_nothing_typed_in_the_roll_asks_for_the_dice():
    with pytest.raises(NeedsDice) as caught:
        Dice(typed=[]).roll("attack", "2d6")
    message = "attack needs 2d6: no typed-in faces left for it; type in the rest or let Tableside roll"
    assert caught.value.message == message
    assert caught.value.needs_dice == [{"label": "attack", "expr": "2d6"}]


def test_with_too_few_typed_in_the_roll_says_how_many_are_left():
    d = Dice(typed=[4, 6])
    d.faces("first", 1)
    with pytest.raises(NeedsDice) as caught:
        d.roll("second", "3d6")
    assert caught.value.message == (
        "second needs 3d6: only 1 typed-in face left for it; type in the rest or let Tableside roll"
    )


def test_a_big_pool_may_explode_and_take_one_more_typed_face():
    d = Dice(typed=[6] + [1] * 51)
    assert d.roll("pool", "51d6x", by="Ann").rolls == [6] + [1] * 51
    d.mark()
    assert len(d.finish()) == 1


def test_exactly_the_explosion_cap_is_allowed_one_more_is_refused():
    cap = dice.MAX_EXPLOSIONS
    d = Dice(typed=[2] * cap + [1])  # the first die and each of the cap's extra dice but the last show a 2
    assert len(d.roll("chain", "1d2x").rolls) == cap + 1
    with pytest.raises(dice.DiceError, match=exactly(f"1d2x exploded into more than {cap} extra dice, the cap")):
        Dice(typed=[2] * (cap + 1) + [1]).roll("chain", "1d2x")


def test_typed_faces_left_over_are_refused_with_the_count():
    d = Dice(typed=[3, 4, 5])
    d.faces("one", 1)
    with pytest.raises(RuleError, match=exactly("2 typed-in faces left over: this action rolled only 1")):
        d.finish()


# --- replaying a recording ---------------------------------------------------------------------


def test_a_recording_shorter_than_the_rules_is_a_mismatch_not_a_crash():
    with pytest.raises(
        ReplayMismatch, match=exactly("the rules now roll attack (2d6), which the recording does not have")
    ):
        Dice(replay=[]).roll("attack", "2d6")


def test_a_recording_of_another_roll_names_both():
    rec = Dice(rng=random.Random(3))
    rec.roll("attack", "2d6", by="Ann")
    rec.mark()
    replay = Dice(replay=rec.finish())
    with pytest.raises(
        ReplayMismatch, match=exactly("the recording has attack (2d6) where the rules now roll defence (2d6)")
    ):
        replay.roll("defence", "2d6")


def test_a_recording_longer_than_the_rules_is_a_mismatch():
    rec = Dice(rng=random.Random(3))
    rec.roll("attack", "2d6", by="Ann")
    rec.mark()
    rec.roll("defence", "1d6", by="Bob")
    rec.mark()
    replay = Dice(replay=rec.finish())
    assert replay.roll("attack", "2d6").rolls == rec.records[0]["rolls"]
    with pytest.raises(ReplayMismatch, match=exactly("the recording has 2 rolls but the rules made 1")):
        replay.finish()


# --- how the newest roll reads: marks and verdict ------------------------------------------------


def test_marking_before_any_roll_is_a_programming_error_in_words():
    with pytest.raises(RuntimeError, match=exactly("mark() follows a roll: nothing has been rolled yet")):
        Dice(typed=[]).mark(["hit"])


def test_marks_and_the_verdict_go_on_the_newest_roll_only_and_each_only_when_given():
    d = Dice(typed=[6, 2, 5])
    d.roll("attack", "2d6")
    d.roll("defence", "1d6")
    d.mark(["kept"])
    assert d.records[1]["marks"] == ["kept"] and "verdict" not in d.records[1]
    assert "marks" not in d.records[0]
    d.mark(verdict="holds")
    assert (d.records[1]["marks"], d.records[1]["verdict"]) == (["kept"], "holds")
    with pytest.raises(ValueError, match=exactly("2 marks for the 1 die of defence")):
        d.mark(["hit", "miss"])
    assert d.records[1]["marks"] == ["kept"]


# --- every roll says whose dice and how they read ----------------------------------------------------


def test_a_roll_without_its_owner_or_its_mark_is_refused_naming_what_it_lacks():
    """``by`` and ``mark()`` are checked by the recorder, not remembered by habit (#37)."""
    from tableside.core.recorder import UnsaidRoll

    unsaid = Dice(rng=random.Random(1))
    unsaid.roll("attack", "2d6")
    with pytest.raises(
        UnsaidRoll,
        match=exactly(
            "attack: the rules rolled without by= and mark(); every roll says whose dice they are (by=) and how "
            "they read (ctx.dice.mark() after it): a fault in this game system"
        ),
    ):
        unsaid.finish()
    unmarked = Dice(rng=random.Random(1))
    unmarked.roll("attack", "2d6", by="Ann")
    unmarked.roll("defence", "1d6", by="Bob")
    unmarked.mark()  # the defence's: the attack was never marked
    with pytest.raises(UnsaidRoll, match="^attack: the rules rolled without mark\\(\\);"):
        unmarked.finish()
    nobody = Dice(rng=random.Random(1))
    nobody.roll("pick", "1d3", by="")  # TABLE: nobody's dice, said so
    nobody.mark()
    assert nobody.finish()[0]["by"] == ""
