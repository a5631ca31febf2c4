"""Venus 2140 pool words the table reads: the roll's limits name the rule they rest on (the phone's "Rule"
button), a draw that gives the wrong number of faces says which wave, and dice named from another phone say on
the pool's own phone every face that was not there and every face that went in its place."""

from __future__ import annotations

import pytest
from tableside.core.errors import RuleError
from tableside.core.recorder import Context, Dice
from tableside.core.systems.v2140 import pool, rules


def sixes(label: str, n: int) -> list[int]:
    return [6] * n


def test_a_roll_past_the_starting_limit_names_the_pool_limit():
    with pytest.raises(RuleError) as refused:
        pool.roll_in(rules.MAX_DICE_IN_ROLL + 1, sixes)
    assert refused.value.rule == "pool_limit"
    assert str(refused.value) == f"a roll starts with at most {rules.MAX_DICE_IN_ROLL} dice, got 101"


def test_roll_ins_past_their_limit_name_the_pool_limit():
    with pytest.raises(RuleError) as refused:
        pool.roll_in(1, sixes, "Shred's pool")
    assert refused.value.rule == "pool_limit"
    assert str(refused.value) == (
        f"Shred's pool: more than {rules.MAX_ROLL_INS} dice rolled in; roll the rest as a new pool"
    )


def test_a_draw_short_of_faces_names_the_wave_it_was_for():
    waves = iter([[6, 4], []])
    with pytest.raises(RuleError) as refused:
        pool.roll_in(2, lambda label, n: next(waves), "pool")
    assert str(refused.value) == "pool roll-in 1: needs 1 die, got 0"
    with pytest.raises(RuleError) as refused:
        pool.roll_in(3, lambda label, n: [5], "Vix's pool")
    assert str(refused.value) == "Vix's pool: needs 3 dice, got 1"


def test_dice_named_from_another_phone_say_each_missing_and_each_taken_face():
    ctx = Context(dice=Dice(), seat="GM")
    said = pool.seen_summary(ctx, [6, 5, 3, 2], [6, 6, 4], "Shred", "Shred puts 6, 6, 4 forward")
    assert said == "Shred puts 6, 6, 4 forward; Shred's pool did not hold 64: 32 from it went in their place"
    assert ctx.private_to == "Shred"
    assert ctx.public_summary == (
        "Shred puts 6, 6, 4 forward (entered by another phone: a die not in Shred's pool stands in for its lowest)"
    )


def test_dice_named_on_the_pools_own_phone_are_said_as_entered():
    ctx = Context(dice=Dice(), seat="Shred")
    assert pool.seen_summary(ctx, [6, 5], [6, 6], "Shred", "Shred puts 6, 6 forward") == "Shred puts 6, 6 forward"
    assert ctx.private_to is None
