"""VENOM Combat at its boundaries: exactly as many Combat Dice as the Health Track goes ahead (one fewer
aborts), how far past a track's end a move is ignored, and the hit/miss mark each rolled die carries
to the table. Each rule quotes docs/rulebooks/venom.txt."""

from __future__ import annotations

import pytest
from tableside.core.systems.venom import SYSTEM, combat

from tests.dicehelp import dice_for, play_step
from tests.rulebook_quotes import quoted
from tests.test_venom_helpers import act, attacking

ABORT = quoted(
    "venom",
    "If the number of Combat Dice you have is less than the VENOM Leader's Health Track position, or you are "
    "unable to gain successes against the Defense Track due to too high a Defense Value, the Combat is aborted.",
)


def test_as_many_combat_dice_as_the_health_track_is_not_an_abort():
    assert ABORT
    assert combat.abort_reason(3, health=3, defense=4) is None
    assert combat.abort_reason(2, health=3, defense=4) == "2 combat dice < Health 3"
    state = attacking(health=3, defense=4, dice=3)
    assert state["odds"]["abort"] is None
    assert dice_for(SYSTEM, state, SYSTEM.validate_action({"type": "combat_roll"})) == "3d6"
    state, result = act(state, {"type": "combat_roll"}, faces=[4, 5, 6])
    assert result["verdict"] == "captured" and result["successes"] == 3


def test_one_combat_die_against_health_one_goes_ahead():
    assert ABORT
    assert combat.abort_reason(1, health=1, defense=6) is None
    assert combat.abort_reason(1, health=1, defense=7) == "no die can reach Defense 7"


def test_a_track_move_past_an_end_counts_only_the_steps_beyond_it():
    quoted("venom", "No Ability can adjust this track over eight, or under one.")
    quoted(
        "venom",
        "Once the track reaches an end of its spectrum, any additional adjustments in that direction are ignored.",
    )
    assert combat.move_track(5, 2) == (7, 0)
    assert combat.move_track(7, 3) == (8, 2)
    assert combat.move_track(3, -5) == (1, 3)
    state = attacking(health=3, defense=4, dice=5)
    state, result = act(state, {"type": "adjust_track", "track": "defense", "by": 2})
    assert result["value"] == 6 and result["ignored"] == 0 and "ignored" not in result["summary"]


def test_each_rolled_die_is_marked_hit_or_miss_against_the_defense_track():
    quoted(
        "venom",
        "Set aside all Combat Dice that have a Rolled Value equal to or greater than the marked number on the "
        "VENOM Leader's Defense Track; these are successes.",
    )
    state = attacking(health=3, defense=4, dice=5)
    step = play_step(SYSTEM, state, {"type": "combat_roll"}, faces=[4, 6, 3, 2, 1])
    (roll,) = step.rolls
    assert roll["marks"] == ["hit", "hit", "miss", "miss", "miss"]
    assert roll["verdict"] == "2 successes"
    assert combat.hit_marks([3, 1], [True, False], 4) == ["hit", "miss"]


def test_marks_need_one_automatic_success_flag_per_die():
    with pytest.raises(ValueError):
        combat.hit_marks([4, 5], [False], 4)


SUCCESSES = quoted(
    "venom",
    "Set aside all Combat Dice that have a Rolled Value equal to or greater than the marked number on the VENOM "
    "Leader's Defense Track; these are successes.",
)


def test_a_combat_dies_hit_chance_is_its_faces_reaching_the_defense():
    """SUCCESSES: a die's chance is its faces at or above the Defense; against 7 or 8 no face reaches it (only
    Abilities do), so no chance is said and the recap reads that roll by its faces."""
    from fractions import Fraction

    assert SUCCESSES
    assert [combat.die_hit_chance(d) for d in range(1, 9)] == [
        Fraction(1),
        Fraction(5, 6),
        Fraction(2, 3),
        Fraction(1, 2),
        Fraction(1, 3),
        Fraction(1, 6),
        None,
        None,
    ]
