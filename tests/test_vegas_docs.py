"""docs/systems/vegas.md: every action documented with an example request; the examples play as one game."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from tableside.core.errors import TablesideError
from tableside.core.system import run_action
from tableside.core.systems.vegas import SYSTEM

DOC = Path(__file__).resolve().parent.parent / "docs" / "systems" / "vegas.md"
TEXT = DOC.read_text(encoding="utf-8")
BODIES = [json.loads(m) for m in re.findall(r"-d '(\{.*?\})'", TEXT)]
# A step the page shows refused (HTTP 422) is played as refused: it changes nothing.
REFUSED = [json.loads(m) for m in re.findall(r"-d '(\{.*?\})'\n```\n```http\nHTTP/1.1 422", TEXT)]
ACTIONS = [b for b in BODIES if "type" in b]


def test_every_action_type_is_documented_with_an_example_request():
    documented = {b["type"] for b in ACTIONS}
    for action_type in SYSTEM.all_actions():
        if action_type == "clock":  # the core's soft clock, the same in every system: docs/api.md documents it
            continue
        assert f"`{action_type}`" in TEXT, f"{action_type} is not described in {DOC.name}"
        if action_type != "roll":  # the free roll is POST /api/rolls, documented in the README
            assert action_type in documented, f"{action_type} has no example request in {DOC.name}"


def test_every_button_and_setup_option_is_documented():
    for binding in SYSTEM.bindings:
        row = f"| {'hold ' if binding.hold else ''}{binding.button} |"
        assert row in TEXT, f"button row {row!r} missing"
    for option in SYSTEM.options:
        assert f"| `{option.name}` |" in TEXT, f"option {option.name} missing"


def _play_tricks_until_reveal(state, rng):
    """ "Six more tricks later": every trick won by its leader, bonuses declined."""
    tricks = 0
    while state["phase"] == "Tricks":
        state = run_action(SYSTEM, state, {"type": "trick_winner", "winner": state["leader"]}, rng=rng).state
        if state["trick"] is not None:
            state = run_action(SYSTEM, state, {"type": "next_trick"}, rng=rng).state
        tricks += 1
    return state, tricks


def test_the_examples_play_in_order_as_one_game():
    (create,) = [b for b in BODIES if "system" in b]
    assert create["system"] == "vegas"
    state = SYSTEM.start(SYSTEM.validate_options(create["options"]))
    rng = random.Random(0)
    for body in ACTIONS:
        if body["type"] == "reveal_card" and state["phase"] == "Tricks":
            state, tricks = _play_tricks_until_reveal(state, rng)
            assert tricks == 6 and state["revealer"] == "Ann" and state["hand"]["Ann"] == 1
        if body in REFUSED:
            with pytest.raises(TablesideError):
                run_action(SYSTEM, state, body, rng=rng)
            continue
        try:
            step = run_action(SYSTEM, state, body, rng=rng)
        except TablesideError as refused:
            raise AssertionError(f"documented example refused: {body}: {refused}") from None
        state = step.state
        if body["type"] == "play_trick" and state["tricks_played"] == 1:
            assert step.result["winner"] == "Ann" and "Bot 2, highest trump (Bot)" in step.result["summary"]
        if body["type"] == "mobster_take":  # Bob's winning card back into Cy's hand, and into his entered hand
            assert "Inspector 11" in state["hands"]["Cy"] and state["trick"]["claims"][0]["player"] == "Bob"
    assert state["phase"] == "Round over" and state["vp"]["Bob"] == 4


def test_every_action_spec_example_has_valid_fields():
    state = SYSTEM.start(SYSTEM.validate_options({"players": ["Ann", "Bob", "Cy"]}))
    state["furthest_behind"] = ["Bob"]
    # A trick complete with Ann's Mobster token waiting to take a card (the cards a Mobster take offers).
    cards = [
        {"player": "Ann", "card": "Team 2"},
        {"player": "Bob", "card": "Bot 7"},
        {"player": "Cy", "card": "Game 1"},
    ]
    state["trick"] = {"number": 1, "winner": "Bob", "cards": cards, "taken": [], "claims": [], "mobster": "Ann"}
    for spec in SYSTEM.actions.values():
        SYSTEM.validate_action({"type": spec.type, **spec.example}, state)
