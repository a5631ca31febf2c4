"""Turn Order: the Commander's Event Phase, the phases, Rounds, End of Turn."""

from __future__ import annotations

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.venom import turns

from tests.test_venom_helpers import act, attacking, started, to_phase


def test_commanders_turn_goes_through_every_phase_in_order():
    state = started()
    seen = [state["phase"]]
    state, _ = act(state, {"type": "draw_event", "kind": "all_is_quiet"})
    for _ in range(4):
        state, _ = act(state, {"type": "next_phase"})
        seen.append(state["phase"])
    # No VENOM Leader chosen: Tactical goes straight to Retirement.
    assert seen == ["Event", "Recruitment", "Tactical", "Retirement", "End of Turn"]


def test_not_attacking_skips_combat():
    state = to_phase(started(), "Tactical")
    state, result = act(state, {"type": "next_phase"})
    assert state["phase"] == "Retirement"
    assert "Combat skipped" in result["summary"]


def test_attacking_goes_to_combat():
    state = attacking(health=2, defense=4, dice=3)
    state, _ = act(state, {"type": "next_phase"})
    assert state["phase"] == "Combat"


def test_other_players_skip_the_event_phase_and_the_round_starts_with_the_commander():
    state = to_phase(started(["Ann", "Bob"]), "End of Turn")
    state, result = act(state, {"type": "next_phase"})
    assert (state["active_player"], state["phase"], state["round"]) == (1, "Recruitment", 1)
    assert result["summary"] == "Round 1: Bob's Turn, Recruitment Phase"
    state = to_phase(state, "End of Turn")
    state, _ = act(state, {"type": "next_phase"})
    assert (state["active_player"], state["phase"], state["round"]) == (0, "Event", 2)
    assert state["event_drawn_this_phase"] is False


def test_a_commander_who_is_not_first_in_seating_order_starts_each_round():
    state = to_phase(started(["Ann", "Bob", "Cy"], commander="Cy"), "End of Turn")
    assert state["active_player"] == 2
    state, _ = act(state, {"type": "next_phase"})
    assert (state["active_player"], state["phase"], state["round"]) == (0, "Recruitment", 1)
    state, _ = act(to_phase(state, "End of Turn"), {"type": "next_phase"})
    state, _ = act(to_phase(state, "End of Turn"), {"type": "next_phase"})
    assert (state["active_player"], state["phase"], state["round"]) == (2, "Event", 2)


def test_the_event_card_must_be_drawn_before_leaving_the_event_phase():
    with pytest.raises(RuleError, match="draw the Event card first"):
        act(started(), {"type": "next_phase"})


def test_end_of_turn_resets_the_tracks_and_clears_the_combat():
    state = attacking(health=5, defense=6, dice=7)
    state, _ = act(state, {"type": "adjust_track", "track": "health", "by": 2})
    state, _ = act(state, {"type": "combat_roll"}, faces=[1, 1, 1, 1, 1, 1, 1])
    state, _ = act(state, {"type": "next_phase"})  # Retirement
    assert state["health_track"] == 7
    state, result = act(state, {"type": "next_phase"})  # End of Turn
    assert state["phase"] == "End of Turn"
    assert (state["health_track"], state["defense_track"], state["leader"]) == (1, 1, None)
    assert state["combat"]["dice"] == [] and state["combat"]["dice_count"] == 0
    assert "tracks reset" in result["summary"]


def test_leaving_combat_without_rolling_is_refused_when_the_roll_could_succeed():
    state = attacking(health=2, defense=4, dice=3)
    state, _ = act(state, {"type": "next_phase"})
    with pytest.raises(RuleError, match="roll the Combat Dice first"):
        act(state, {"type": "next_phase"})


def test_leaving_combat_that_cannot_succeed_records_the_abort():
    state = attacking(health=4, defense=4, dice=3)
    state, _ = act(state, {"type": "next_phase"})
    state, result = act(state, {"type": "next_phase"})
    assert state["phase"] == "Retirement"
    assert "Combat aborted: 3 combat dice < Health 4" in result["summary"]
    assert state["players"][0]["leaders"] == []


def test_phase_actions_outside_their_phase_are_refused():
    state = to_phase(started(), "Recruitment")
    with pytest.raises(RuleError, match=r"Choose the VENOM Leader: only in the Tactical Phase \(now: Recruitment"):
        act(
            state,
            {"type": "choose_leader", "name": "X", "zone": "VENOM Island", "health": 2, "defense": 3, "support": 1},
        )
    with pytest.raises(RuleError, match="Combat roll: no VENOM Leader chosen this Turn"):
        act(to_phase(state, "Tactical"), {"type": "combat_roll"})


def test_turn_order_pure_functions():
    assert turns.roll_off([0, 1, 2], [3, 6, 2]) == (1, [])
    assert turns.roll_off([0, 2, 3], [5, 5, 1]) == (None, [0, 2])
    assert turns.first_phase(2, commander=2) == "Event"
    assert turns.first_phase(0, commander=2) == "Recruitment"
    assert turns.next_player(2, 3) == 0
    assert turns.phase_after("Tactical", attacking=True) == "Combat"
    assert turns.phase_after("Retirement", attacking=False) == "End of Turn"
