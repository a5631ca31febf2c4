"""docs/systems/vnm.md documents every action, and every example in it is valid."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tableside.core.systems.vnm import SYSTEM

DOC = (Path(__file__).resolve().parents[1] / "docs" / "systems" / "vnm.md").read_text()
BODIES = [json.loads(body) for body in re.findall(r"-d '(\{.*?\})'", DOC)]
ACTIONS = [b for b in BODIES if "type" in b]
SESSIONS = [b for b in BODIES if "system" in b]


def test_the_doc_has_examples() -> None:
    assert len(ACTIONS) >= len(SYSTEM.actions)
    assert len(SESSIONS) >= 3


@pytest.mark.parametrize("action_type", sorted(SYSTEM.actions))
def test_every_action_is_documented_with_an_example(action_type: str) -> None:
    assert f"### `{action_type}`" in DOC
    assert any(b["type"] == action_type for b in ACTIONS), f"no example request for {action_type}"


@pytest.mark.parametrize("body", ACTIONS, ids=[b["type"] for b in ACTIONS])
def test_every_documented_action_passes_validate_action(body: dict) -> None:
    assert SYSTEM.validate_action(body)["type"] == body["type"]


@pytest.mark.parametrize("body", SESSIONS)
def test_every_documented_session_passes_validate_options_and_starts(body: dict) -> None:
    assert body["system"] == SYSTEM.id
    state = SYSTEM.start(SYSTEM.validate_options(body["options"]))
    assert state["threshold"] > 0


@pytest.mark.parametrize("spec", list(SYSTEM.actions.values()), ids=list(SYSTEM.actions))
def test_every_built_in_example_passes_validate_action(spec) -> None:
    assert SYSTEM.validate_action(spec.describe()["example"])["type"] == spec.type


def test_every_option_and_button_is_documented() -> None:
    for option in SYSTEM.options:
        assert f"| `{option.name}` |" in DOC
    for label in ("| A |", "| B |", "| C |", "| D | undo", "| hold D | redo"):
        assert label in DOC


def _mid_game() -> dict:
    """The planets and land areas the examples name, in the Enhanced game (every action exists)."""
    return SYSTEM.start(
        SYSTEM.validate_options({"players": ["Venus", "Mars", "Pluto", "Titan"], "version": "Enhanced"})
    )


@pytest.mark.parametrize("body", ACTIONS, ids=[b["type"] for b in ACTIONS])
def test_every_documented_action_names_real_choices_of_a_game(body: dict) -> None:
    """Checked against a state, so every picked name is one of the field's choices now."""
    raw = {k: v for k, v in body.items() if k != "faces"}
    assert SYSTEM.validate_action(raw, _state_for(body))["type"] == body["type"]


def _state_for(body: dict) -> dict:
    """The mid-game, and for the Mind Control steps Mars's turn with a Pluto spaceship it took over earlier."""
    state = _mid_game()
    if body.get("weapon") == "mind_control" or "ship" in body:
        state["turn"] = state["turn_order"].index("Mars")
        state["controlled"] = [{"ship": "Pluto", "by": "Mars", "turn_no": 0}]
    return SYSTEM.derive(state)


def test_every_action_has_a_label_a_player_reads_and_a_group() -> None:
    for spec in SYSTEM.actions.values():
        assert spec.label[0].isupper() and "_" not in spec.label
        assert spec.group
        assert spec.available is not None
        for f in spec.fields:
            assert f.label and "_" not in f.label
