"""Combat Dice: the roll, successes, abort, Rolled Value changes, Automatic Successes, re-rolls."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tableside.core.errors import RuleError
from tableside.core.odds import at_least_k, face_chance
from tableside.core.systems.venom import SYSTEM, combat

from tests.dicehelp import dice_for
from tests.test_venom_helpers import act, attacking


def test_rulebook_example_4_6_4_2_1_against_defense_4_health_3_captures():
    state = attacking(health=3, defense=4, dice=5)
    assert dice_for(SYSTEM, state, SYSTEM.validate_action({"type": "combat_roll"})) == "5d6"
    state, result = act(state, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    assert result["successes"] == 3 and result["verdict"] == "captured"
    assert state["phase"] == "Combat"
    assert result["summary"] == (
        "Rolled 4,6,4,2,1 vs Defense 4: 3 successes vs Health 3 captures Vipress (in Ann's Victory Point pile)"
    )


def test_capture_probability_5_dice_defense_4_health_3_is_exactly_one_half():
    assert combat.capture_chance(5, defense=4, health=3) == Fraction(1, 2)
    state = attacking(health=3, defense=4, dice=5)
    assert state["odds"]["capture"] == "1/2"
    assert state["odds"]["capture_percent"] == "50%"


@pytest.mark.parametrize("dice, defense, health", [(1, 1, 1), (3, 5, 2), (6, 6, 1), (8, 2, 8), (10, 3, 4)])
def test_capture_probability_is_the_binomial_value(dice, defense, health):
    assert combat.capture_chance(dice, defense, health) == at_least_k(dice, face_chance(6, defense), health)


def test_capture_probability_follows_track_and_dice_changes():
    state = attacking(health=3, defense=4, dice=5)
    state, result = act(state, {"type": "adjust_track", "track": "health", "by": 1})
    assert state["odds"]["capture"] == str(combat.capture_chance(5, 4, 4)) == "3/16"
    state, result = act(state, {"type": "adjust_dice", "by": 1})
    assert state["odds"]["capture"] == str(combat.capture_chance(6, 4, 4)) == "11/32"
    assert "capture chance 34.4%" in result["summary"]


def test_capture_when_successes_equal_health_failure_when_fewer():
    assert combat.verdict(3, 3) == "captured"
    assert combat.verdict(4, 3) == "captured"
    assert combat.verdict(2, 3) == "failed"


def test_abort_when_dice_fewer_than_health():
    state = attacking(health=3, defense=4, dice=2)
    assert state["odds"]["abort"] == "2 combat dice < Health 3"
    assert dice_for(SYSTEM, state, SYSTEM.validate_action({"type": "combat_roll"})) is None
    state, result = act(state, {"type": "combat_roll"})
    assert result["verdict"] == "aborted" and state["combat"]["verdict"] == "aborted"
    assert state["combat"]["dice"] == [] and state["phase"] == "Combat"
    assert "aborted: 2 combat dice < Health 3" in result["summary"]
    state2, result = act(attacking(health=3, defense=4, dice=2), {"type": "combat_roll"}, faces=[6, 6])
    assert "typed faces ignored" in result["summary"] and state2["combat"]["dice"] == []
    with pytest.raises(RuleError, match="Combat was aborted this Turn \\(2 combat dice < Health 3\\)"):
        act(state, {"type": "combat_roll"}, faces=[6, 6])


def test_abort_when_no_die_can_reach_the_defense():
    assert combat.abort_reason(5, health=2, defense=7) == "no die can reach Defense 7"
    assert combat.abort_reason(5, health=2, defense=6) is None
    state = attacking(health=2, defense=6, dice=5)
    state, _ = act(state, {"type": "adjust_track", "track": "defense", "by": 1})
    state, result = act(state, {"type": "combat_roll"})
    assert result["verdict"] == "aborted" and result["capture_chance"] == "0"


def test_combat_roll_with_zero_dice_is_refused():
    state = attacking(health=3, defense=4, dice=0)
    with pytest.raises(RuleError, match="needs at least 1 Combat Die"):
        act(state, {"type": "combat_roll"})
    with pytest.raises(RuleError, match="Combat roll: Dice must be at least 1, got 0"):
        SYSTEM.validate_action({"type": "combat_roll", "dice": 0})


def test_combat_roll_may_name_the_dice_count():
    state = attacking(health=2, defense=4, dice=5)
    action = SYSTEM.validate_action({"type": "combat_roll", "dice": 3})
    assert dice_for(SYSTEM, state, action) == "3d6"
    state, result = act(state, {"type": "combat_roll", "dice": 3}, faces=[5, 5, 1])
    assert result["verdict"] == "captured" and state["combat"]["dice_count"] == 3


def test_faces_are_checked():
    state = attacking(health=3, defense=4, dice=5)
    with pytest.raises(RuleError, match="Combat needs 5d6: only 4 typed-in"):
        act(state, {"type": "combat_roll"}, faces=[1, 2, 3, 4], typed=True)
    with pytest.raises(RuleError, match="face 7 is not on a d6"):
        act(state, {"type": "combat_roll"}, faces=[1, 2, 3, 4, 7])
    with pytest.raises(RuleError, match="Combat needs 5d6: no typed-in faces left"):
        act(state, {"type": "combat_roll"}, faces=[])


def test_only_one_combat_roll_per_turn():
    state = attacking(health=3, defense=4, dice=5)
    state, _ = act(state, {"type": "combat_roll"}, faces=[1, 1, 1, 1, 1])
    with pytest.raises(RuleError, match="already rolled"):
        act(state, {"type": "combat_roll"}, faces=[6, 6, 6, 6, 6])


def _rolled(faces=(4, 6, 4, 2, 1), health=3, defense=4):
    state = attacking(health=health, defense=defense, dice=len(faces))
    state, _ = act(state, {"type": "combat_roll"}, faces=list(faces))
    return state


def test_rolled_values_may_go_above_six_and_below_one():
    state = _rolled()
    state, result = act(state, {"type": "modify_die", "die": 2, "by": 3})
    assert state["combat"]["dice"][1] == {"face": 6, "value": 9, "auto": False}
    state, result = act(state, {"type": "modify_die", "die": 5, "by": -2})
    assert result["values"] == [4, 9, 4, 2, -1]
    state, result = act(state, {"type": "modify_die", "die": 1, "by": -1})
    assert result["successes"] == 2 and result["verdict"] == "failed"
    assert result["summary"].startswith("Die 1 4 -> 3 vs Defense 4: 2 successes")


def test_modify_die_checks_the_die_number():
    with pytest.raises(RuleError, match="'6' is not one of Die 1: 4 \\(hit\\), Die 2: 6 \\(hit\\)"):
        act(_rolled(), {"type": "modify_die", "die": 6, "by": 1})
    with pytest.raises(RuleError, match="^Change a die's Rolled Value: the Combat Dice have not been rolled yet$"):
        act(attacking(health=3, defense=4, dice=5), {"type": "modify_die", "die": 1, "by": 1})


def test_automatic_success_keeps_the_rolled_value_and_counts():
    state = _rolled()
    state, result = act(state, {"type": "automatic_success", "dice": [4, 5]})
    assert result["successes"] == 5
    assert [d["value"] for d in state["combat"]["dice"]] == [4, 6, 4, 2, 1]
    assert [d["auto"] for d in state["combat"]["dice"]] == [False, False, False, True, True]


def test_automatic_success_comes_before_any_ability():
    state = _rolled()
    state, _ = act(state, {"type": "modify_die", "die": 1, "by": 1})
    with pytest.raises(RuleError, match="before any card's Abilities"):
        act(state, {"type": "automatic_success", "dice": [4]})


def test_automatic_success_is_lost_when_re_rolled():
    state = _rolled()
    state, _ = act(state, {"type": "automatic_success", "dice": [5]})
    assert dice_for(SYSTEM, state, SYSTEM.validate_action({"type": "reroll_dice", "dice": [5, 4]})) == "2d6"
    state, result = act(state, {"type": "reroll_dice", "dice": [5, 4]}, faces=[2, 6])
    assert state["combat"]["dice"][4] == {"face": 2, "value": 2, "auto": False}
    assert state["combat"]["dice"][3] == {"face": 6, "value": 6, "auto": False}
    assert result["successes"] == 4
    assert "Automatic Success lost on die 5" in result["summary"]


def test_reroll_replaces_a_modified_value():
    state = _rolled()
    state, _ = act(state, {"type": "modify_die", "die": 4, "by": 5})
    state, _ = act(state, {"type": "reroll_dice", "dice": [4]}, faces=[1])
    assert state["combat"]["dice"][3] == {"face": 1, "value": 1, "auto": False}


def test_reroll_refuses_a_die_twice_or_missing_faces():
    state = _rolled()
    with pytest.raises(RuleError, match="Re-roll dice: Dice: '2' is picked twice"):
        act(state, {"type": "reroll_dice", "dice": [2, 2]}, faces=[1, 1])
    with pytest.raises(RuleError, match="Re-roll needs 2d6"):
        act(state, {"type": "reroll_dice", "dice": [1, 2]}, faces=[3], typed=True)


def test_dice_cannot_change_once_rolled():
    with pytest.raises(RuleError, match="already rolled"):
        act(_rolled(), {"type": "allocate_dice", "combat_value": 7})
    with pytest.raises(RuleError, match="already rolled"):
        act(_rolled(), {"type": "adjust_dice", "by": 1})


def test_adjust_dice_cannot_go_below_zero():
    state = attacking(health=2, defense=4, dice=2)
    with pytest.raises(RuleError, match="only 2 Combat Dice to remove, not 3"):
        act(state, {"type": "adjust_dice", "by": -3})


def test_allocate_dice_adds_combat_value_and_support():
    state = attacking(health=2, defense=4, dice=0)
    state, result = act(
        state, {"type": "allocate_dice", "combat_value": 2, "support_dice": 3, "combat_leader": "Dropzone"}
    )
    assert state["combat"]["dice_count"] == 5
    assert result["summary"].startswith("Dropzone 2 + support 3 = 5 Combat Dice")


def test_the_combat_roll_reads_one_success_not_one_successes():
    # The roll's verdict, as every phone and the e-paper show it beside the dice, said "1 successes".
    from tableside.core.system import run_action

    step = run_action(SYSTEM, attacking(health=1, defense=4, dice=2), {"type": "combat_roll"}, faces=[5, 2])
    assert step.rolls[-1]["verdict"] == "1 success"
    step = run_action(SYSTEM, attacking(health=1, defense=4, dice=2), {"type": "combat_roll"}, faces=[5, 4])
    assert step.rolls[-1]["verdict"] == "2 successes"
