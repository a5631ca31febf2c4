"""docs/systems/venom.md documents every action with its label, and every example is accepted in a real game."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tableside.core.systems import get_system
from tableside.core.systems.venom import SYSTEM

from tests.test_venom_helpers import act, attacking, new_game, started, to_phase

DOC = Path(__file__).resolve().parent.parent / "docs" / "systems" / "venom.md"
TEXT = DOC.read_text(encoding="utf-8")
BODIES = [json.loads(m) for m in re.findall(r"-d '(\{.*?\})'", TEXT)]


def _rolled():
    state, _ = act(attacking(health=2, defense=4, dice=5), {"type": "combat_roll"}, faces=[4, 6, 4, 2, 1])
    return state


# Where each documented example is taken: a game at the moment the action belongs to.
def _with_vipress_placed():
    """A game where the page's Leader card was entered on the board (choose_leader's on_board example)."""
    state = started()
    card = {"name": "Vipress", "zone": "VENOM Mountain Defense", "health": 2, "defense": 4, "support": 2}
    state["zones"] = {card["zone"]: card}
    return state


WHERE = {
    "commander_roll_off": new_game,
    "set_commander": new_game,
    "draw_event": started,
    "single_die": started,
    "next_phase": lambda: to_phase(started(), "Recruitment"),
    "choose_leader": lambda: to_phase(_with_vipress_placed(), "Tactical"),
    "place_leader": started,
    "adjust_track": lambda: attacking(health=2, defense=4, dice=5),
    "allocate_dice": lambda: attacking(2, 4, 0),
    "adjust_dice": lambda: attacking(health=2, defense=4, dice=5),
    "combat_roll": lambda: attacking(2, 4, 5),
    "combat_fails": lambda: attacking(2, 4, 0),
    "automatic_success": _rolled,
    "modify_die": _rolled,
    "reroll_dice": _rolled,
    "add_reward": started,
    "record_capture": lambda: attacking(2, 4, 5),
    "game_over": started,
    "correct": started,
    "recruit": lambda: to_phase(started(), "Recruitment"),
    "refill_training_ground": started,
}


def test_every_action_is_documented_with_its_label_and_an_example_request():
    documented = {b["type"] for b in BODIES if "type" in b}
    for spec in SYSTEM.actions.values():
        assert f"**{spec.label}** (`{spec.type}`" in TEXT, f"{spec.type} is not described with its label"
        assert spec.type in documented, f"{spec.type} has no example request in {DOC.name}"


def test_every_documented_example_has_valid_fields_at_its_moment_of_a_game():
    """Each body's fields fit a game at the moment its action belongs to; that the page's requests play
    in order, with the answers it shows (a tie re-rolled, a refusal), is tests/test_docs_run.py."""
    actions = [b for b in BODIES if "type" in b]
    assert len(actions) >= len(SYSTEM.actions)
    for body in actions:
        state = WHERE[body["type"]]()
        assert SYSTEM.validate_action({k: v for k, v in body.items() if k != "faces"}, state)


def test_the_documented_session_options_are_valid():
    creates = [b for b in BODIES if "system" in b]
    assert creates and all(create["system"] == "venom" for create in creates)
    for create in creates:
        SYSTEM.validate_options(create["options"])


def test_every_button_is_documented():
    for binding in SYSTEM.bindings:
        row = f"| {'hold ' if binding.hold else ''}{binding.button} |"
        assert row in TEXT, f"button row {row!r} missing"


def test_every_action_spec_example_is_valid_and_the_registry_finds_the_system():
    assert get_system("venom") is not None and get_system("venom").id == "venom"
    for spec in SYSTEM.actions.values():
        SYSTEM.validate_action({"type": spec.type, **spec.example}, WHERE[spec.type]())
