"""Bad input gets a 422 (RuleError) or 400 (BadRequest) naming the problem, and changes nothing."""

from __future__ import annotations

import copy

import pytest
from tableside.core.errors import BadRequest, RuleError
from tableside.core.systems.venom import SYSTEM

from tests.dicehelp import play
from tests.test_venom_helpers import attacking, started, to_phase

LEADER = {"type": "choose_leader", "name": "Vipress", "zone": "VENOM Island", "health": 2, "defense": 4, "support": 2}


def _refused(state, raw, error, match, faces=None):
    """The core's flow: validate, roll, apply; the state must come out untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(error, match=match) as caught:
        play(SYSTEM, state, raw, faces)
    assert state == before
    assert caught.value.status == (422 if error is RuleError else 400)


def test_health_zero_is_refused():
    _refused(
        to_phase(started(), "Tactical"),
        {**LEADER, "health": 0},
        RuleError,
        "Choose the VENOM Leader: Health must be at least 1, got 0",
    )


def test_defense_nine_is_refused():
    _refused(
        to_phase(started(), "Tactical"),
        {**LEADER, "defense": 9},
        RuleError,
        "Choose the VENOM Leader: Defense must be at most 8, got 9",
    )


def test_combat_roll_with_zero_dice_is_refused():
    _refused(
        attacking(health=2, defense=4, dice=0),
        {"type": "combat_roll"},
        RuleError,
        "Combat roll needs at least 1 Combat Die: allocate the Combat Dice first",
    )
    _refused(
        attacking(health=2, defense=4, dice=3),
        {"type": "combat_roll", "dice": 0},
        RuleError,
        "Dice must be at least 1, got 0",
    )


def test_a_sixth_player_is_refused():
    with pytest.raises(RuleError, match="Players takes at most 5 entries, got 6") as caught:
        SYSTEM.validate_options({"players": ["A", "B", "C", "D", "E", "F"]})
    assert caught.value.status == 422


def test_an_unknown_action_is_refused():
    _refused(started(), {"type": "launch_nukes"}, RuleError, "unknown action 'launch_nukes' for VENOM Assault")


def test_malformed_fields_are_400():
    _refused(started(), {"type": "draw_event"}, BadRequest, "Draw an Event card: 'Event card' is required")
    _refused(started(), {"type": "draw_event", "kind": "venom", "colour": "red"}, BadRequest, "unknown field")
    _refused(
        attacking(health=2, defense=4, dice=3),
        {"type": "adjust_track", "track": "health", "by": "x"},
        BadRequest,
        "must be a whole number",
    )


def test_wrong_faces_change_nothing():
    _refused(
        attacking(health=2, defense=4, dice=3),
        {"type": "combat_roll"},
        RuleError,
        "face 0 is not on a d6",
        faces=[0, 3, 4],
    )
    _refused(started(), {"type": "single_die"}, BadRequest, "'faces' must be a list", faces="six")


def test_empty_names_are_refused():
    _refused(
        to_phase(started(), "Tactical"),
        {**LEADER, "name": " "},
        RuleError,
        "Choose the VENOM Leader: fill in Leader's name",  # said by its label; nothing on the board to tap
    )
    _refused(
        started(),
        {"type": "add_reward", "name": "", "vp": 1},
        RuleError,
        "Add a Reward Card: the card's name must not be empty",
    )
    _refused(
        started(),
        {"type": "record_capture", "leader": "", "support": 1},
        RuleError,
        "pick a Leader from the list, or type the name of one not listed",
    )
