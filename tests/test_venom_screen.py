"""The button map and what the e-paper shows."""

from __future__ import annotations

import json

import pytest
from tableside.core.errors import RuleError
from tableside.core.systems.venom import SYSTEM

from tests.test_venom_helpers import act, attacking, new_game, started, to_phase


def _press(state, button, hold=False):
    binding = SYSTEM.binding(button, hold)
    assert binding is not None
    return binding.action if isinstance(binding.action, str) else binding.action(state)


def test_button_map():
    state = attacking(health=3, defense=4, dice=5)
    assert _press(state, "A") == {"type": "combat_roll"}
    assert _press(state, "B") == {"type": "single_die"}
    assert _press(new_game(), "B") == {"type": "commander_roll_off"}
    assert _press(state, "C") == {"type": "next_phase"}
    assert _press(state, "D") == "undo"
    assert _press(state, "D", hold=True) == "redo"
    assert [b.describe()["label"] for b in SYSTEM.bindings] == [
        "Combat roll", "1 die / roll-off", "Next phase", "Undo", "Redo"]


def test_button_a_rolls_the_current_dice():
    state = attacking(health=3, defense=4, dice=5)
    state, result = act(state, _press(state, "A"), faces=[4, 6, 4, 2, 1])
    assert result["verdict"] == "captured"


def test_button_a_without_a_leader_gets_a_clear_refusal():
    state = to_phase(started(), "Recruitment")
    with pytest.raises(RuleError, match="combat_roll happens in the Tactical Phase or Combat Phase"):
        act(state, _press(state, "A"))


def test_button_b_single_die_is_recorded():
    state, result = act(started(), _press(started(), "B"), faces=[5])
    assert result["face"] == 5 and state["last_roll"]["rolls"] == [5]
    assert SYSTEM.screen(state).roll.faces == (5,)


def test_screen_during_combat_shows_everything_the_issue_lists():
    state = attacking(health=3, defense=4, dice=5)
    screen = SYSTEM.screen(state)
    assert screen.status == "R1 Ann: Tactical"
    rows = {row.label: row for section in screen.sections for row in section.rows}
    assert rows["Event"].bar == (0, 5)
    assert rows["Health"].value == "3" and rows["Health"].bar == (3, 8)
    assert rows["Defense"].value == "4"
    assert rows["Leader"].value == "Vipress"
    assert rows["Dice"].value == "5" and rows["Capture"].value == "50%"
    assert rows["VS! next"].value.startswith("27")
    assert rows["Active"].value == "Quiet"
    state, _ = act(state, {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    roll = SYSTEM.screen(state).roll
    assert roll.faces == (4, 6, 4, 2, 1)
    assert roll.hits == (True, True, True, False, False)
    assert roll.verdict == "3/3 hits: CAPTURED"
    json.dumps(SYSTEM.screen(state).to_dict())


def test_screen_warns_before_an_aborting_roll():
    screen = SYSTEM.screen(attacking(health=4, defense=4, dice=3))
    assert screen.alert == "Would abort: 3 combat dice < Health 4"
    rows = {row.label: row for section in screen.sections for row in section.rows}
    assert rows["Capture"].value == "abort"


def test_screen_reminds_the_commander_to_draw_and_shows_setup():
    assert SYSTEM.screen(started()).alert == "Draw the Event card"
    assert SYSTEM.screen(new_game()).status == "Setup: roll-off for Commander (B)"


def test_screen_at_game_over_shows_the_medal():
    state, _ = act(started(), {"type": "record_capture", "leader": "V", "support": 2, "player": "Cy"})
    state, _ = act(state, {"type": "game_over", "winner": "freedom_squadron"})
    screen = SYSTEM.screen(state)
    assert screen.alert == "Medal of Honor: Cy"
    rows = {row.label: row for section in screen.sections for row in section.rows}
    assert rows["Cy"].value == "2 VP, 1 Ldr Medal" and rows["Cy"].accent


def test_describe_is_json():
    described = SYSTEM.describe()
    json.dumps(described)
    assert described["id"] == "venom"
    assert {a["type"] for a in described["actions"]} == {*SYSTEM.actions, "correct", "roll"}
