"""docs/systems/v2140.md: every action documented with an example, and the examples play as one scene."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tableside.core.fields import read_faces
from tableside.core.systems.v2140 import SYSTEM, effects, rules

from tests.dicehelp import play

DOC = (Path(__file__).resolve().parents[1] / "docs" / "systems" / "v2140.md").read_text()
BODIES = [json.loads(body) for body in re.findall(r"-d '(\{.*?\})'", DOC)]
SESSIONS = [b for b in BODIES if "system" in b]
ACTIONS = [b for b in BODIES if "type" in b]


def test_every_action_option_and_button_is_documented() -> None:
    for action_type in SYSTEM.actions:
        assert f"### `{action_type}`" in DOC
        assert any(b["type"] == action_type for b in ACTIONS), f"no example request for {action_type}"
    for option in SYSTEM.options:
        assert f"| `{option.name}` |" in DOC
    for row in (
        "| A | roll the prepared pool",
        "| B | resolve",
        "| C | next participant",
        "| D | undo",
        "| hold D | redo",
    ):
        assert row in DOC
    for guide, price in rules.GOAL_GUIDE.items():
        assert f"{guide} {price}" in " ".join(DOC.split())


def test_the_documented_examples_play_in_order_as_one_scene() -> None:
    (session,) = SESSIONS
    assert session["system"] == SYSTEM.id
    state = SYSTEM.start(SYSTEM.validate_options(session["options"]))
    for body in ACTIONS:
        body = dict(body)
        faces = read_faces(body.pop("faces"), 6) if "faces" in body else None  # as the HTTP route reads them
        state, _ = play(SYSTEM, state, body, faces)
        assert SYSTEM.laws(state) == []
    p = state["participants"]
    # Where the campaign ends, as the doc tells it: two scenes later, in session 2.
    assert state["conflict"] == 4 and state["order"] == ["Shred", "Sven", "GM"]
    assert state["campaign"] == {"session": 2, "scene": 1}
    assert (p["Shred"]["books"], p["Shred"]["reputation"], p["Shred"]["restricted"]) == (0, 1, [])
    assert (p["Sven"]["books"], p["Sven"]["player_points"], p["Sven"]["follow_up"]) == (1, 4, 0)
    assert (p["GM"]["books"], p["GM"]["follow_up"], p["GM"]["rack"]) == (0, 0, 7)
    assert state["murphy"] == 2 and state["session_racks"] == 2
    assert [g["goal"] for g in state["goals"]] == [
        "Scar Jack",
        "Sven is pinned down",
        "Wound",
        "Pin Jack down",
        "knock out one person",
        "knock out one person",
    ]
    assert [(e["id"], e["character"], e["effect"], e["treated"], e["permanent"]) for e in effects.active(state)] == [
        (2, "Jack", "Scar", True, True),
        (4, "Sven", "Wound", False, True),
        (6, "Sven", "Cripple", False, True),
        (8, "Shred", "Knock Out", False, False),  # "knock out one person" bought on Shred: his pool is gone
        (9, "Alamo Jack", "Knock Out", False, False),  # bought on the GM's side: the GM noted its bearer
    ]
    assert p["Shred"]["pool"] == [] and effects.due(state) == []
    assert [(t["test"], t["books"]) for t in state["tests"]] == [("downtime", 3), ("training", 1), ("connections", 2)]
    assert [(r["actor"], r["target"], r["put_forward"], r["captured"]) for r in state["ledger"]] == [
        ("Shred", "GM", 2, 1),
        ("Shred", "GM", 2, 2),
        ("GM", "Shred", 4, 2),
    ]


@pytest.mark.parametrize("spec", list(SYSTEM.actions.values()), ids=list(SYSTEM.actions))
def test_every_built_in_example_passes_validate_action(spec) -> None:
    state = SYSTEM.start(SYSTEM.validate_options({"players": ["Shred", "Sven", "James", "Wire", "Jack"]}))
    # A campaign under way, so the choices taken from the state (effects, who is outnumbered) exist.
    for effect in ("Wound", "Scar"):
        state, _ = play(SYSTEM, state, {"type": "add_effect", "character": "Sven", "effect": effect, "by": "GM"})
    state["drawn"] = {"Sven": 2, "GM": 12}
    example = {k: v for k, v in spec.describe()["example"].items() if k != "faces"}
    assert SYSTEM.validate_action(example, state)["type"] == spec.type
