"""VENOM Leader Health and Defense tracks: base values, adjustments, the 1-8 limits."""

from __future__ import annotations

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.venom import SYSTEM, combat

from tests.test_venom_helpers import act, attacking, started, to_phase

LEADER = {
    "type": "choose_leader",
    "name": "Vipress",
    "zone": "VENOM Mountain Defense",
    "health": 2,
    "defense": 4,
    "support": 2,
}


def test_choosing_a_leader_sets_the_tracks_to_its_base_values():
    state = to_phase(started(), "Tactical")
    state, result = act(state, LEADER)
    assert (state["health_track"], state["defense_track"]) == (2, 4)
    assert state["leader"]["zone_type"] == "Arctic"
    assert "Vipress in VENOM Mountain Defense (Arctic)" in result["summary"]


def test_zone_type_given_must_match_the_zone():
    state = to_phase(started(), "Tactical")
    with pytest.raises(RuleError, match="VENOM Mountain Defense is a Zone of type Arctic, not Sea"):
        act(state, {**LEADER, "zone_type": "Sea"})
    with pytest.raises(RuleError, match="'Moon Base' is not one of VENOM Sky Temple"):
        SYSTEM.validate_action({**LEADER, "zone": "Moon Base"})


def test_choosing_again_replaces_the_leader_and_resets_the_tracks():
    state = attacking(health=3, defense=4, dice=5)
    state, _ = act(state, {"type": "adjust_track", "track": "defense", "by": 2})
    state, result = act(state, {**LEADER, "name": "Cobra", "zone": "VENOM Island", "health": 5, "defense": 3})
    assert (state["health_track"], state["defense_track"]) == (5, 3)
    assert "instead of Vipress" in result["summary"]


@pytest.mark.parametrize(
    "value, by, expected, ignored",
    [
        (7, 3, 8, 2),
        (8, 1, 8, 1),
        (2, -5, 1, 4),
        (1, -1, 1, 1),
        (4, 2, 6, 0),
        (5, -4, 1, 0),
    ],
)
def test_move_track_clamps_at_1_and_8_and_counts_what_is_ignored(value, by, expected, ignored):
    assert combat.move_track(value, by) == (expected, ignored)


def test_adjustment_past_eight_is_ignored_and_the_result_says_so():
    state = attacking(health=7, defense=4, dice=5)
    state, result = act(state, {"type": "adjust_track", "track": "health", "by": 3})
    assert state["health_track"] == 8
    assert result["ignored"] == 2
    assert result["summary"].startswith("Health track 7 -> 8 (2 ignored: the track ends at 8)")
    assert result["notice"] == "the Health Track ends at 8: 2 ignored"


def test_adjustment_below_one_is_ignored_and_the_result_says_so():
    state = attacking(health=3, defense=2, dice=5)
    state, result = act(state, {"type": "adjust_track", "track": "defense", "by": -4})
    assert state["defense_track"] == 1
    assert result["summary"] == "Defense track 2 -> 1 (3 ignored: the track ends at 1); capture chance 100%"


def test_tracks_move_only_with_a_leader_chosen():
    state = to_phase(started(), "Tactical")
    with pytest.raises(RuleError, match="Move a VENOM Leader track: no VENOM Leader chosen this Turn"):
        act(state, {"type": "adjust_track", "track": "health", "by": 1})


def test_zero_adjustment_is_refused():
    with pytest.raises(RuleError, match="'by' must not be 0"):
        act(attacking(health=3, defense=4, dice=5), {"type": "adjust_track", "track": "health", "by": 0})


def test_defense_change_after_the_roll_recounts_the_successes():
    state = attacking(health=3, defense=4, dice=5)
    state, _ = act(state, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    assert state["combat"]["verdict"] == "captured"
    state, _ = act(state, {"type": "adjust_track", "track": "defense", "by": 1})
    assert state["combat"]["successes"] == 1 and state["combat"]["verdict"] == "failed"


@pytest.mark.parametrize("by, expected, ignored", [(12, 8, 8), (-40, 1, 37), (1_000_000, 8, 999_996)])
def test_an_adjustment_of_any_size_is_accepted_and_the_excess_ignored_with_a_notice(by, expected, ignored):
    """Glossary: "No Ability can adjust this track over eight, or under one. Any additional
    adjustments in that direction are ignored." The old field refused anything past +-7."""
    state = attacking(health=3, defense=4, dice=5)
    state, result = act(state, {"type": "adjust_track", "track": "defense", "by": by})
    assert state["defense_track"] == expected and result["ignored"] == ignored
    assert result["notice"] == f"the Defense Track ends at {expected}: {ignored} ignored"
    assert SYSTEM.validate_action({"type": "adjust_track", "track": "health", "by": "-12"})["by"] == -12


def test_a_move_within_the_track_has_no_notice():
    state, result = act(attacking(health=3, defense=4, dice=5), {"type": "adjust_track", "track": "health", "by": 2})
    assert result["ignored"] == 0 and "notice" not in result
