"""Venus 2140 scene pools at their edges: what each source adds, the caps on a roll and its roll-ins
(each bound itself allowed, one more refused), Resist Dice, dice put forward, and the words each
refusal says. Each rule quotes docs/rulebooks/v2140.txt."""

from __future__ import annotations

import re

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import pool, rules
from tableside.core.systems.v2140.pool import PoolDice

from tests.rulebook_quotes import quoted
from tests.test_v2140_rules import typed


def refused(message: str):
    """The refusal with exactly this message (the words a player reads)."""
    return pytest.raises(RuleError, match=f"^{re.escape(message)}$")


def test_each_source_adds_the_dice_the_rulebook_gives_it_under_its_own_name() -> None:
    quoted("v2140", "You get two dice for each skill your character has that matches either the Primary Skill")
    quoted("v2140", "You get one die for each skill that matches the secondary skill.")
    quoted("v2140", "it adds half its quality in dice to your pool (rounded down)")
    quoted("v2140", "Each separate circumstance in the situation that favors you is worth one additional die.")
    quoted("v2140", "A rack of dice is equal to one die per Lifestyle of the character.")
    dice = PoolDice(
        primary_skills=3,
        secondary_skills=2,
        assists=(5,),
        secondary_assists=(9,),
        gear_circumstances=1,
        circumstances=4,
        racks=2,
        rack=7,
        follow_up=3,
    )
    assert dice.parts() == {
        "primary": 6,
        "secondary": 2,
        "assists": 2,
        "secondary_assists": 2,
        "gear_circumstances": 1,
        "circumstances": 4,
        "racks": 14,
        "follow_up": 3,
    }
    assert list(dice.parts()) == list(PoolDice().parts())  # the rulebook's order, every source named
    assert dice.count() == 34


def test_shreds_ten_dice_come_from_both_skills_and_a_secondary_assist() -> None:
    quoted("v2140", "Shred gets nine dice for having both skills at the max.")
    quoted("v2140", "since that's the secondary here it's only worth one die. Ten for Shred vs. six for Jack.")
    shred = PoolDice(primary_skills=3, secondary_skills=3, secondary_assists=(4,))
    assert shred.parts()["secondary_assists"] == 1 and shred.count() == 10
    assert PoolDice(racks=1).count() == 6  # "Usually this is six per person."


def test_a_face_outside_one_to_six_is_refused_naming_where_it_came_from() -> None:
    quoted("v2140", "All dice in Venus are six sided normal dice.")
    assert [pool.check_face(f) for f in (1, 6)] == [1, 6]
    with refused("a die: a d6 face is 1-6, got 7"):
        pool.check_face(7)
    with refused("a die: a d6 face is 1-6, got True"):
        pool.check_face(True)
    with refused("Shred's die: a d6 face is 1-6, got '4'"):
        pool.check_face("4", "Shred's die")


def test_a_roll_of_no_dice_draws_nothing_and_a_negative_count_is_refused() -> None:
    draw = typed()
    rolled = pool.roll_in(0, draw)
    assert rolled.waves == () and rolled.kept == () and draw.calls == []
    with refused("cannot roll -1 dice"):
        pool.roll_in(-1, typed())


def test_a_roll_starts_with_at_most_the_cap_and_the_cap_itself_is_allowed() -> None:
    cap = rules.MAX_DICE_IN_ROLL
    assert len(pool.roll_in(cap, typed(*[4] * cap)).kept) == cap
    with refused(f"a roll starts with at most {cap} dice, got {cap + 1}"):
        pool.roll_in(cap + 1, typed(*[4] * (cap + 1)))


def test_roll_ins_are_counted_over_every_wave_up_to_the_cap() -> None:
    quoted("v2140", "For each 6 that you roll, add an additional die into the pool.")
    cap = rules.MAX_ROLL_INS
    # 60 sixes roll in 60 dice, 40 of which are sixes again: 100 dice rolled in, the cap itself.
    at_cap = pool.roll_in(cap, typed(*[6] * 60, *[1] * 40, *[6] * 40, *[2] * 20, *[3] * 40))
    assert at_cap.rolled_in == cap and len(at_cap.waves) == 3
    assert at_cap.kept == (6,) * 100 and len(at_cap.tossed) == 100
    # One six more in the second wave makes 101 over the waves, though no wave alone is over the cap.
    with refused(f"Shred scene pool: more than {cap} dice rolled in; roll the rest as a new pool"):
        pool.roll_in(cap, typed(*[6] * 60, *[1] * 40, *[6] * 41, *[2] * 19, *[3] * 41), label="Shred scene pool")


def test_a_bad_face_in_a_roll_in_names_the_wave_it_came_in() -> None:
    with refused("Shred scene pool roll-in 1: a d6 face is 1-6, got 7"):
        pool.roll_in(2, typed(6, 4, 7), label="Shred scene pool")
    with refused("pool: a d6 face is 1-6, got 0"):
        pool.roll_in(1, typed(0))


def test_every_face_typed_at_once_keeps_four_to_six_and_tosses_the_rest() -> None:
    quoted("v2140", "Toss all 1s, 2s, and 3s. Those dice are gone.")
    rolled = pool.roll_in_all_faces(3, [3, 6, 4, 1])
    assert rolled.waves == ((6, 4, 3, 1),)
    assert rolled.kept == (6, 4) and rolled.tossed == (3, 1)
    with refused("a typed-in die: a d6 face is 1-6, got 9"):
        pool.roll_in_all_faces(1, [9])


def test_typed_in_faces_that_do_not_add_up_say_both_counts() -> None:
    with refused("10 dice with 2 sixes rolled in make 12 dice, but 11 faces were typed in"):
        pool.roll_in_all_faces(10, [6, 6, 5, 5, 5, 5, 4, 3, 2, 2, 1])
    with refused("0 dice with 0 sixes rolled in make 0 dice, but 1 face was typed in"):
        pool.roll_in_all_faces(0, [4])
    with refused("1 die with 1 six rolled in make 2 dice, but 1 face was typed in"):
        pool.roll_in_all_faces(1, [6])


def test_resist_dice_keep_four_or_higher_and_roll_nothing_in() -> None:
    quoted("v2140", "you immediately roll a number of dice (usually the quality of the device), and add any dice with")
    quoted("v2140", "four or higher to the scene pool.")
    draw = typed(6, 4, 3, 1)
    rolled = pool.resist(draw, 4)
    assert draw.calls == [("resist", 4)]
    assert rolled.waves == ((6, 4, 3, 1),) and rolled.kept == (6, 4) and rolled.tossed == (3, 1)
    with refused("Sven resist: a d6 face is 1-6, got 8"):
        pool.resist(typed(8), 1, label="Sven resist")


def test_gear_of_quality_zero_resists_with_no_dice_and_a_negative_quality_is_refused() -> None:
    draw = typed()
    assert pool.resist(draw, 0) == pool.RollIn(waves=((),)) and draw.calls == []
    with refused("a gear quality is 0 or more, got -1"):
        pool.resist(typed(), -1)


def test_dice_put_forward_must_be_in_the_pool_and_say_which_are_missing() -> None:
    quoted("v2140", "The acting player then selects one or several dice from his scene pool")
    assert pool.take_from([6, 5, 5, 4], [5, 6], "Shred") == [5, 4]
    with refused("Shred's scene pool does not hold those dice: needs 2 more 6s, 1 more 5"):
        pool.take_from([5, 4, 4, 4, 4, 4], [6, 5, 6, 5], "Shred")
    with refused("Shred's scene pool does not hold those dice: needs 1 more 6, 2 more 4s"):
        pool.take_from([6, 5, 5, 5], [4, 6, 4, 6], "Shred")
    with refused("Shred's dice: a d6 face is 1-6, got 0"):
        pool.take_from([6, 5], [0], "Shred")
    with refused("Shred holds 2 dice in the scene pool, cannot put forward 3"):
        pool.take_from([6, 5], [6, 5, 4], "Shred")


def test_a_follow_up_tosses_half_rounding_down() -> None:
    quoted("v2140", "Everyone takes half their dice in their scene pool (rounding down) and tosses them out.")
    assert pool.follow_up_split(7) == (3, 4) and pool.follow_up_split(0) == (0, 0)
