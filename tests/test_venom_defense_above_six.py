"""VENOM Assault: a Defense above six is still fought when an Ability can reach it, and an Event that makes
the Combat fail says so (the Event Ability Conflict example). Each rule quotes docs/rulebooks/venom.txt.

Before: any Defense of 7 or 8 aborted the Combat before the roll ("no die can reach Defense 8"), so an
Automatic Success was refused; the Event Ability Conflict example reached Retirement with the log saying
"Combat aborted: 0 combat dice < Health 2"."""

from __future__ import annotations

import copy

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.venom import SYSTEM, combat

from tests.dicehelp import dice_for
from tests.httpapi import AUTH, acted, api_client, post, refused
from tests.rulebook_quotes import quoted
from tests.test_venom_helpers import act, attacking
from tests.test_venom_tracks import LEADER

DEFENSE_RUNS_1_TO_8 = quoted("venom", "is represented in a dice value of 1-8 on the Defense Track")
ABOVE_SIX = quoted("venom", "Rolled Values can go above six or below one.")
AUTOMATIC = quoted(
    "venom",
    "Any Automatic Successes are chosen by the player after Combat Dice are rolled, "
    "but before any card's Abilities take place.",
)
ABORT = quoted(
    "venom",
    "or you are unable to gain successes against the Defense Track due to too high a Defense Value, "
    "the Combat is aborted.",
)
INSTANTLY_FAILS = quoted(
    "venom",
    'However, because "VENOM Mountain Defense" is an Arctic Zone, the combat instantly fails and the player '
    "must advance to their Retirement Phase.",
)
ABILITY = "abilities_can_reach"


def _defense_8(dice: int = 3, health: int = 2):
    state = attacking(health=health, defense=4, dice=dice)
    state, _ = act(state, {"type": "adjust_track", "track": "defense", "by": 4})
    assert state["defense_track"] == 8 and DEFENSE_RUNS_1_TO_8
    return state


def test_a_defense_of_8_is_rolled_against_when_an_ability_can_reach_it():
    assert ABOVE_SIX
    state = _defense_8()
    roll = SYSTEM.validate_action({"type": "combat_roll", ABILITY: True})
    assert dice_for(SYSTEM, state, roll) == "3d6"
    state, result = act(state, roll, faces=[6, 5, 2])
    assert state["combat"]["rolled"] and state["combat"]["aborted"] is None
    assert result["verdict"] == "failed" and result["successes"] == 0
    assert result["notice"] == (
        "no face reaches Defense 8: declare the Automatic Successes, then change the Rolled Values"
    )
    # Rolled Values above six meet the Defense: an Ability turns the 6 into an 8.
    state, result = act(state, {"type": "modify_die", "die": 1, "by": 2})
    assert result["values"] == [8, 5, 2] and result["successes"] == 1 and result["verdict"] == "failed"


def test_automatic_successes_after_the_roll_capture_against_defense_8():
    assert AUTOMATIC
    state = _defense_8()
    state, _ = act(state, {"type": "combat_roll", ABILITY: True}, faces=[3, 1, 4])
    state, result = act(state, {"type": "automatic_success", "dice": [1, 3]})
    assert result["successes"] == 2 and result["verdict"] == "captured"
    assert [d["value"] for d in state["combat"]["dice"]] == [3, 1, 4]  # "does not change the Rolled Value"
    assert result["summary"] == (
        "Automatic Success: die 1, 3 vs Defense 8: 2 successes vs Health 2 captures Vipress "
        "(in Ann's Victory Point pile)"
    )


def test_without_such_an_ability_a_defense_of_8_still_aborts():
    assert ABORT
    state = _defense_8()
    assert state["odds"]["abort"] == "no die can reach Defense 8"
    assert dice_for(SYSTEM, state, SYSTEM.validate_action({"type": "combat_roll"})) is None
    prompt = SYSTEM.pending(state)[0]
    assert prompt.text == (
        "Ann: record the aborted Combat (no die can reach Defense 8), or roll if an Ability can reach it"
    )
    state, result = act(state, {"type": "combat_roll"})
    assert result["verdict"] == "aborted" and state["combat"]["aborted"] == "no die can reach Defense 8"


def test_fewer_dice_than_the_health_track_aborts_whatever_the_abilities():
    """Every success is a die: no Ability makes two successes of one die."""
    state = _defense_8(dice=1, health=2)
    assert combat.abort_reason(1, health=2, defense=8, by_abilities=True) == "1 combat die < Health 2"
    state, result = act(state, {"type": "combat_roll", ABILITY: True})
    assert result["verdict"] == "aborted" and "1 combat die < Health 2" in result["summary"]


def test_the_question_is_on_the_form_only_when_no_face_reaches_the_defense():
    def fields(state):
        return [f["name"] for f in SYSTEM.actions["combat_roll"].describe(state)["fields"]]

    assert ABILITY not in fields(attacking(health=2, defense=6, dice=3))
    field = next(f for f in SYSTEM.actions["combat_roll"].describe(_defense_8())["fields"] if f["name"] == ABILITY)
    assert field["label"] == "An Ability can adjust Rolled Values or declare Automatic Successes"
    assert field["kind"] == "flag" and field["default"] is False and field["required"] is False


# --- the Event Ability Conflict example, over HTTP -----------------------------------------------------

CONFLICT = {
    "type": "combat_fails",
    "reason": "Sink the Colorado! and Red Rockets of Doom!",
    "zone_types": ["Sea", "Air"],
}


def _attacking_vipress(client) -> None:
    """Ann (the Commander) attacks Vipress; Vipress' Ability reveals the two Events of the example."""
    assert post(client, "/api/sessions", {"system": "venom", "options": {"players": ["Ann", "Bob"]}}).status_code
    acted(client, {"type": "set_commander", "player": "Ann"})
    acted(client, {"type": "draw_event", "kind": "all_is_quiet"})
    acted(client, {"type": "next_phase"})  # Recruitment
    acted(client, {"type": "next_phase"})  # Tactical
    acted(client, LEADER)
    acted(client, {"type": "draw_event", "kind": "venom", "name": "Sink the Colorado!"})
    acted(client, {"type": "draw_event", "kind": "venom", "name": "Red Rockets of Doom!"})


def test_the_event_ability_conflict_example_fails_the_combat_and_advances_to_retirement(tmp_path):
    assert INSTANTLY_FAILS
    with api_client(tmp_path, seed=5) as client:
        _attacking_vipress(client)
        answer = acted(client, CONFLICT)
        assert answer["state"]["phase"] == "Retirement"
        assert answer["result"]["summary"] == (
            "Combat against Vipress instantly fails (Sink the Colorado! and Red Rockets of Doom!: Combat may only "
            "occur in Sea and Air Zones, not in VENOM Mountain Defense (Arctic)); Ann: Retirement Phase"
        )
        log = client.get("/api/sessions/active/log", headers=AUTH).get_json()
        said = " | ".join(e["result"]["summary"] for e in log)
        assert "instantly fails" in said and "combat dice < Health" not in said
        refused(client, {"type": "combat_roll"}, "only in the Tactical or Combat Phase")
        acted(client, {"type": "next_phase"})  # End of Turn: the tracks reset as after any Turn
        state = client.get("/api/sessions/active", headers=AUTH).get_json()["state"]
        assert state["phase"] == "End of Turn" and state["leader"] is None


def test_a_leader_in_a_zone_the_events_allow_is_fought_as_normal(tmp_path):
    """The Tactical example: "Combat is already in an Arctic Zone, so Combat can continue as normal"."""
    quoted("venom", "Combat is already in an Arctic Zone, so Combat can continue as normal.")
    with api_client(tmp_path, seed=5) as client:
        _attacking_vipress(client)
        refused(
            client,
            {**CONFLICT, "zone_types": ["Arctic"]},
            "Combat can continue as normal: Vipress is in VENOM Mountain Defense (Arctic), where Combat may occur",
        )
        refused(client, {**CONFLICT, "reason": " "}, "say which Event or Ability")


def test_the_combat_fails_only_while_a_leader_is_attacked_and_not_rolled():
    state = attacking(health=2, defense=4, dice=3)
    state, _ = act(state, {"type": "combat_roll"}, faces=[6, 6, 1])
    before = copy.deepcopy(state)
    with pytest.raises(RuleError, match="already rolled"):
        act(state, CONFLICT)
    assert state == before
